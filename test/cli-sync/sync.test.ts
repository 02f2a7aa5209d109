// `shelf sync`, the reference client: two folders mirrored through one KB (notes and a file
// beside them), a conflict made on purpose, renames, deletions, the cost of a sync that
// finds nothing, and its exits.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { mkdirSync, readdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { syncCommand } from "../../clients/sync/index.ts";
import { callJson, tempDir, testContext } from "../helpers/context.ts";
import { makeClient } from "../helpers/factories.ts";
import { newKb } from "../kbs/fixtures.ts";
import { TEST_TIMEOUT_MS } from "../helpers/timeout.ts";

setDefaultTimeout(TEST_TIMEOUT_MS);

const SERVER = "http://shelf.test";

/** Runs the command in this process against the test app; its exit code and output. */
async function run(folder: string, slug: string, apiKey: string | undefined) {
  const { app } = await testContext();
  const out: string[] = [];
  const err: string[] = [];
  const code = await syncCommand([folder, "--kb", slug, "--server", SERVER], {
    // A configuration folder of its own: no sign-in stored on this machine is found.
    env: { SHELF_API_KEY: apiKey, SHELF_CONFIG_DIR: tempDir("shelf-config-") },
    out: (line) => out.push(line),
    err: (line) => err.push(line),
    send: (request) => app.handle(request),
  });
  const requests = Number(/(\d+) request\(s\)/.exec(out.at(-1) ?? "")?.[1] ?? Number.NaN);
  return { code, out, err, requests };
}

const write = (folder: string, path: string, text: string) => Bun.write(join(folder, path), text);
const read = (folder: string, path: string) => Bun.file(join(folder, path)).text();

/** Every file of a folder (the state file and folders left out), by relative path. */
function files(folder: string): string[] {
  return readdirSync(folder, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && e.name !== ".shelf-sync.json")
    .map((e) => join(e.parentPath, e.name).slice(folder.length + 1))
    .map((f) => f.split("\\").join("/"))
    .sort();
}

async function setup() {
  const { key } = await makeClient();
  const kb = await newKb(key);
  return { key, slug: kb.slug, kbId: kb.id, a: tempDir("shelf-sync-a-"), b: tempDir("shelf-sync-b-") };
}

async function synced(folder: string, slug: string, key: string) {
  const r = await run(folder, slug, key);
  if (r.code !== 0) throw new Error(`sync exited ${r.code}: ${r.err.join("\n")}`);
  return r;
}

describe("shelf sync", () => {
  test("two folders mirror each other: create, edit, rename (same document), delete", async () => {
    const { key, slug, kbId, a, b } = await setup();
    mkdirSync(join(a, "notes", "日本"), { recursive: true });
    await write(a, "index.md", "# Index\n");
    await write(a, "notes/one.md", "one\n");
    await write(a, "notes/日本/二.md", "二\n");
    await write(a, "plain.txt", "not a note: a file beside them");
    await synced(a, slug, key);
    await synced(b, slug, key);
    expect(files(b)).toEqual(["index.md", "notes/one.md", "notes/日本/二.md", "plain.txt"]);
    expect(await read(b, "plain.txt")).toBe("not a note: a file beside them");
    expect(await read(b, "notes/日本/二.md")).toBe("二\n");

    await write(b, "notes/one.md", "one, edited in b\n");
    await synced(b, slug, key);
    await synced(a, slug, key);
    expect(await read(a, "notes/one.md")).toBe("one, edited in b\n");

    const before = (await callJson("GET", `/v1/kbs/${kbId}/manifest`, { token: key, headers: { "service-sync-version": "2" } })).body.data.items;
    const idOf = (items: { relativePath: string; docId: string }[], path: string) => items.find((i) => i.relativePath === path)?.docId;
    const oneId = idOf(before, "notes/one.md");
    rmSync(join(a, "notes/one.md"));
    await write(a, "notes/renamed.md", "one, edited in b\n");
    rmSync(join(a, "index.md"));
    await synced(a, slug, key);
    await synced(b, slug, key);
    expect(files(b)).toEqual(["notes/renamed.md", "notes/日本/二.md", "plain.txt"]);
    const after = (await callJson("GET", `/v1/kbs/${kbId}/manifest`, { token: key, headers: { "service-sync-version": "2" } })).body.data.items;
    expect(
      idOf(
        after.filter((i: { deletedAt: string | null }) => !i.deletedAt),
        "notes/renamed.md",
      ),
    ).toBe(oneId);
  });

  test("a sync that finds nothing new makes one request, answered 304", async () => {
    const { key, slug, a } = await setup();
    await write(a, "a.md", "a\n");
    await synced(a, slug, key);
    const idle = await synced(a, slug, key);
    expect(idle.requests).toBe(1);
    expect(idle.out.at(-1)).toStartWith("up to date");
  });

  test("a note edited on both sides: master in the note, ours in a conflict copy and a branch; no text lost", async () => {
    const { key, slug, kbId, a, b } = await setup();
    await write(a, "shared.md", "base\n");
    await synced(a, slug, key);
    await synced(b, slug, key);
    await write(a, "shared.md", "edited in a\n");
    await write(b, "shared.md", "edited in b\n");
    await synced(b, slug, key);
    const r = await synced(a, slug, key);
    expect(r.out.some((l) => l.startsWith("conflict shared.md"))).toBe(true);
    expect(await read(a, "shared.md")).toBe("edited in b\n");
    const copies = files(a).filter((f) => f.startsWith("shared (conflict "));
    expect(copies).toHaveLength(1);
    expect(await read(a, copies[0]!)).toBe("edited in a\n");
    const branches = (await callJson("GET", `/v1/kbs/${kbId}/conflicts`, { token: key })).body.data.items;
    expect(branches.map((x: { relativePath: string }) => x.relativePath)).toEqual(["shared.md"]);
    expect(copies[0]).toContain(branches[0].branchId);
    // The conflict copy is the folder's own: it is never pushed as a note.
    await synced(a, slug, key);
    await synced(b, slug, key);
    expect(files(b)).toEqual(["shared.md"]);
  });

  test("deleted on the server while edited here: the edit is pushed again, not lost", async () => {
    const { key, slug, a, b } = await setup();
    await write(a, "n.md", "first\n");
    await synced(a, slug, key);
    await synced(b, slug, key);
    rmSync(join(b, "n.md"));
    await synced(b, slug, key);
    await write(a, "n.md", "kept\n");
    await synced(a, slug, key);
    await synced(b, slug, key);
    expect(await read(b, "n.md")).toBe("kept\n");
  });

  test("usage errors exit 2, a refused key exits 1, and a folder keeps to its KB", async () => {
    const { key, slug, a } = await setup();
    expect((await run(a, slug, undefined)).code).toBe(2);
    // A folder whose parent is missing too (a new folder in an existing one is made: output.test.ts).
    expect((await run(join(a, "missing", "deeper"), slug, key)).code).toBe(2);
    const refused = await run(a, slug, "sk_live_0000000000000000000000000000000x");
    expect(refused.code).toBe(1);
    expect(refused.err.join("\n")).toContain("401");
    expect((await run(a, "no-such-kb", key)).code).toBe(1);
    await synced(a, slug, key);
    const other = await newKb(key);
    expect((await run(a, other.slug, key)).code).toBe(2);
  });

  test("the binary takes the command: no folder is a usage error", async () => {
    const child = Bun.spawn(["bun", "src/main.ts", "sync"], { stdout: "pipe", stderr: "pipe", env: { ...process.env, SHELF_API_KEY: "" } });
    expect(await child.exited).toBe(2);
    expect(await new Response(child.stderr).text()).toContain("Usage: shelf sync");
  });
});
