// `shelf sync` sends a note renamed or moved here as one op that keeps the document: a
// note gone from one path whose text appeared at another is a `rename` (by docId) when it
// stayed in its folder, a `move` when it changed folders; never a delete and an upsert.
// The document's id and its revision history survive.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { mkdirSync, renameSync } from "node:fs";
import { join } from "node:path";
import { callJson, tempDir, testContext } from "../helpers/context.ts";
import { makeClient } from "../helpers/factories.ts";
import { newKb, sha256 } from "../kbs/fixtures.ts";
import { walk2 } from "../kbs/v2-fixtures.ts";
import { runSync } from "./harness.ts";
import { TEST_TIMEOUT_MS } from "../helpers/timeout.ts";

setDefaultTimeout(TEST_TIMEOUT_MS);

const SERVER = "http://shelf.test";

/** One run of `shelf sync`; the ops of every push it sent. */
async function run(folder: string, slug: string, key: string) {
  const { app } = await testContext();
  const pushed: Record<string, unknown>[] = [];
  const done = await runSync([folder, "--kb", slug, "--server", SERVER], {
    env: { SHELF_API_KEY: key, SHELF_CONFIG_DIR: tempDir("shelf-config-") },
    send: async (request) => {
      if (request.method === "POST" && new URL(request.url).pathname.endsWith("/sync")) pushed.push(...(await request.clone().json()).ops);
      return app.handle(request);
    },
  });
  return { ...done, pushed };
}

const idsByPath = async (key: string, kbId: string) =>
  new Map((await walk2(key, kbId)).items.filter((i) => !i.deletedAt).map((i) => [i.relativePath, i.docId]));

describe("shelf sync: renames and moves", () => {
  test("a rename in its folder goes as rename, a move to another folder as move; docId and history kept; the other folder follows", async () => {
    const { user, key } = await makeClient();
    await callJson("PATCH", "/v1/user/me", { token: user.jwt, json: { docVersioningEnabled: true } });
    const kb = await newKb(key);
    const a = tempDir("shelf-rename-a-");
    const b = tempDir("shelf-rename-b-");
    mkdirSync(join(a, "notes"));
    await Bun.write(join(a, "notes", "x.md"), "x\n");
    await Bun.write(join(a, "notes", "y.md"), "y\n");
    expect((await run(a, kb.slug, key)).code).toBe(0);
    // An edit, so the document has a revision to keep.
    await Bun.write(join(a, "notes", "x.md"), "x, edited\n");
    expect((await run(a, kb.slug, key)).code).toBe(0);
    expect((await run(b, kb.slug, key)).code).toBe(0);
    const before = await idsByPath(key, kb.id);
    const x = before.get("notes/x.md")!;
    const y = before.get("notes/y.md")!;
    const state = await Bun.file(join(a, ".shelf-sync.json")).json();
    expect(state.notes["notes/x.md"]).toMatchObject({ docId: x, hash: sha256("x, edited\n") });

    renameSync(join(a, "notes", "x.md"), join(a, "notes", "x2.md"));
    mkdirSync(join(a, "archive"));
    renameSync(join(a, "notes", "y.md"), join(a, "archive", "y.md"));
    const here = await run(a, kb.slug, key);
    expect(here.code).toBe(0);
    expect(here.pushed).toEqual([
      { op: "rename", docId: x, newName: "x2.md", sourceHash: sha256("x, edited\n"), baseUpdatedAt: expect.any(String) },
      { op: "move", fromPath: "notes/y.md", toPath: "archive/y.md", sourceHash: sha256("y\n"), baseUpdatedAt: expect.any(String) },
    ]);
    expect(here.out.slice(0, -1).sort()).toEqual(["moved    notes/y.md -> archive/y.md", "renamed  notes/x.md -> notes/x2.md"]);
    expect(Object.fromEntries(await idsByPath(key, kb.id))).toEqual({ "notes/x2.md": x, "archive/y.md": y });
    const revisions = (await callJson("GET", `/v1/docs/${x}/revisions`, { token: key })).body.data.revisions;
    expect(revisions).toMatchObject([{ sourceHash: sha256("x\n") }]);
    expect((await Bun.file(join(a, ".shelf-sync.json")).json()).notes["notes/x2.md"]).toMatchObject({ docId: x });

    // The other folder follows the rename in place, and pushes nothing back.
    const there = await run(b, kb.slug, key);
    expect(there.code).toBe(0);
    expect(there.pushed).toEqual([]);
    expect(await Bun.file(join(b, "notes", "x2.md")).text()).toBe("x, edited\n");
    expect(await Bun.file(join(b, "notes", "x.md")).exists()).toBe(false);
    // A second rename of the same note, now from the state the rename left.
    renameSync(join(a, "notes", "x2.md"), join(a, "notes", "x3.md"));
    const again = await run(a, kb.slug, key);
    expect(again.pushed).toEqual([{ op: "rename", docId: x, newName: "x3.md", sourceHash: sha256("x, edited\n"), baseUpdatedAt: expect.any(String) }]);
    expect((await idsByPath(key, kb.id)).get("notes/x3.md")).toBe(x);
  });

  test("a change of letter case only, and a note at the top of the folder, are renames", async () => {
    const { key } = await makeClient();
    const kb = await newKb(key);
    const a = tempDir("shelf-rename-case-");
    mkdirSync(join(a, "notes"));
    await Bun.write(join(a, "notes", "note.md"), "n\n");
    await Bun.write(join(a, "top.md"), "t\n");
    expect((await run(a, kb.slug, key)).code).toBe(0);
    const before = await idsByPath(key, kb.id);
    renameSync(join(a, "notes", "note.md"), join(a, "notes", "Note.md"));
    renameSync(join(a, "top.md"), join(a, "top2.md"));
    const here = await run(a, kb.slug, key);
    expect(here.code).toBe(0);
    const byName = (p: unknown[], q: unknown[]) => String(p[2]).localeCompare(String(q[2]));
    expect(here.pushed.map((op) => [op.op, op.docId, op.newName]).sort(byName)).toEqual([
      ["rename", before.get("notes/note.md"), "Note.md"],
      ["rename", before.get("top.md"), "top2.md"],
    ]);
    expect(Object.fromEntries(await idsByPath(key, kb.id))).toEqual({ "notes/Note.md": before.get("notes/note.md")!, "top2.md": before.get("top.md")! });
    expect((await run(a, kb.slug, key)).out.at(-1)).toStartWith("up to date");
  });

  test("a state written before docIds were kept: a rename still keeps the document (as a move by path)", async () => {
    const { key } = await makeClient();
    const kb = await newKb(key);
    const a = tempDir("shelf-rename-old-");
    await Bun.write(join(a, "a.md"), "a\n");
    expect((await run(a, kb.slug, key)).code).toBe(0);
    const id = (await idsByPath(key, kb.id)).get("a.md");
    const file = join(a, ".shelf-sync.json");
    const state = await Bun.file(file).json();
    delete state.notes["a.md"].docId;
    await Bun.write(file, JSON.stringify(state));
    renameSync(join(a, "a.md"), join(a, "b.md"));
    const here = await run(a, kb.slug, key);
    expect(here.pushed).toEqual([{ op: "move", fromPath: "a.md", toPath: "b.md", sourceHash: sha256("a\n"), baseUpdatedAt: expect.any(String) }]);
    expect(Object.fromEntries(await idsByPath(key, kb.id))).toEqual({ "b.md": id! });
  });
});
