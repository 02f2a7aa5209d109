// `shelf sync` carries a whole notes vault (test/helpers/vault.ts): a few hundred notes and
// their attachments, large files and awkward names, pushed into a new KB and pulled into
// an empty folder, come out byte for byte; what it skips (.obsidian/, .trash/, dot-files) it
// names; a run that finds nothing costs one request. A name stored decomposed stays as the
// file system has it; and two names the server takes for one are both kept here, the
// second reported.
import { afterAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { createClock } from "../../src/infra/clock.ts";
import { createApp } from "../../src/wiring/app.ts";
import { createServices } from "../../src/wiring/services.ts";
import { tempDir, testContext } from "../helpers/context.ts";
import { makeClient } from "../helpers/factories.ts";
import { makeVault, noise, treeOf } from "../helpers/vault.ts";
import { newKb } from "../kbs/fixtures.ts";
import { walk2 } from "../kbs/v2-fixtures.ts";
import { syncWith } from "./harness.ts";

// A few hundred notes and a few MB of attachments through the embedded database, twice.
setDefaultTimeout(120_000);

const MB = 1024 * 1024;
const sha = (bytes: Uint8Array | string) => new Bun.CryptoHasher("sha256").update(bytes).digest("hex");

/**
 * The shared parts on a clock of their own, which the command's waits move: a first push
 * of more attachments than the upload tier takes in a minute waits out its 429s (as it
 * would against any server) without the test waiting for real time.
 */
async function ownClock() {
  const { deps } = await testContext();
  const clock = createClock(deps.clock.now().toISOString());
  const services = createServices({ ...deps, clock });
  afterAll(() => services.close());
  return { app: createApp(services), sleep: async (ms: number) => clock.advance(ms) };
}

let world: Promise<Awaited<ReturnType<typeof ownClock>>> | undefined;

async function run(folder: string, slug: string, key: string, extra: string[] = []) {
  world ??= ownClock();
  const { app, sleep } = await world;
  return await syncWith(app, folder, slug, key, extra, { sleep });
}

const activeIds = async (key: string, kbId: string) =>
  new Map((await walk2(key, kbId)).items.filter((i) => !i.deletedAt).map((i) => [i.relativePath, i.docId]));

describe("shelf sync: a notes vault", () => {
  test("pushed into a new KB and pulled into an empty folder, the vault comes out byte for byte; dot-folders skipped and named; a run with no change is one request", async () => {
    const { key } = await makeClient({ plan: "pro" });
    const kb = await newKb(key);
    const a = tempDir("shelf-vault-a-");
    const vault = await makeVault(a, { notes: 300, attachments: 60, large: 3, largeBytes: 2 * MB });

    const first = await run(a, kb.slug, key);
    expect(first.err).toEqual([]);
    expect(first.code).toBe(0);
    expect(first.out.filter((l) => l.startsWith("pushed   "))).toHaveLength(vault.notes.length + vault.attachments.length);
    expect(first.out).toContain("skipped  .obsidian/: a dot-folder; --include .obsidian carries it");
    expect(first.out).toContain("skipped  .trash/: a dot-folder; --include .trash carries it");
    expect(first.out).toContain(`skipped  ${join("Projects", ".DS_Store")}: a dot-file`);
    expect(first.summary).toMatch(/; 3 skipped \(3 by rule\); \d+ request\(s\)$/);
    // Each attachment's bytes went up, by their hash (a copy of bytes already stored need
    // not), and so did the note that is not UTF-8: it goes as a file.
    const asFiles = [...vault.attachments, "Legacy latin-1.md"];
    const hashes = new Set(await Promise.all(asFiles.map(async (p) => sha(await Bun.file(join(a, p)).bytes()))));
    const stored = first.seen.filter((r) => r.method === "PUT" && (r.status === 201 || r.status === 200)).map((r) => r.path.split("/").at(-1));
    expect([...new Set(stored)].sort()).toEqual([...hashes].sort());
    expect(stored.length).toBeLessThanOrEqual(asFiles.length);

    // Nothing changed anywhere: one conditional manifest request, answered 304; the skips named again.
    const idle = await run(a, kb.slug, key);
    expect(idle.code).toBe(0);
    expect(idle.seen).toEqual([{ method: "GET", path: `/v1/kbs/${kb.id}/manifest`, status: 304 }]);
    expect(idle.summary).toBe("up to date; 3 skipped (3 by rule); 1 request(s)");
    expect(idle.out).toContain("skipped  .obsidian/: a dot-folder; --include .obsidian carries it");

    // An empty folder pulls the same tree: every path, every byte.
    const b = tempDir("shelf-vault-b-");
    const pulled = await run(b, kb.slug, key);
    expect(pulled.err).toEqual([]);
    expect(pulled.code).toBe(0);
    const skippedHere = (p: string) => p === ".shelf-sync.json" || p.startsWith(".obsidian/") || p.startsWith(".trash/") || p === "Projects/.DS_Store";
    const source = await treeOf(a, skippedHere);
    const copy = await treeOf(b);
    expect([...copy.keys()].sort()).toEqual([...source.keys()].sort());
    expect([...source.keys()].sort()).toEqual([...vault.notes, ...vault.attachments].sort());
    const differ = [...source].filter(([path, bytes]) => sha(copy.get(path)!) !== sha(bytes)).map(([path]) => path);
    expect(differ).toEqual([]);
    // The pull asked for no attachment by hash: it only read them.
    expect(pulled.seen.filter((r) => r.method === "PUT" || r.method === "HEAD")).toEqual([]);
    const again = await run(b, kb.slug, key);
    expect(again.seen).toHaveLength(1);
    expect(again.summary).toBe("up to date; 1 request(s)");
  });

  test("a name stored decomposed (NFD) is written back where it is; two names the server takes for one are both kept here and the second is reported", async () => {
    const { key } = await makeClient({ plan: "pro" });
    const kb = await newKb(key);
    const a = tempDir("shelf-names-a-");
    const b = tempDir("shelf-names-b-");
    const nfd = "Cafe\u0301.md";
    await Bun.write(join(a, nfd), "v1\n");
    expect((await run(a, kb.slug, key)).code).toBe(0);
    expect([...(await activeIds(key, kb.id)).keys()]).toEqual(["Café.md"]);
    expect((await run(b, kb.slug, key)).code).toBe(0);
    await Bun.write(join(b, "Café.md"), "v2\n");
    expect((await run(b, kb.slug, key)).code).toBe(0);
    const pulled = await run(a, kb.slug, key);
    expect(pulled.out).toContain("pulled   Café.md");
    // Written into the file that is there, under the name the file system has: no second file.
    expect(readdirSync(a).filter((n) => n !== ".shelf-sync.json")).toEqual([nfd]);
    expect(await Bun.file(join(a, nfd)).text()).toBe("v2\n");

    // Photo.png and photo.png: one is carried, the other stays here and is named, every run.
    await Bun.write(join(a, "Photo.png"), noise(100, 1));
    await Bun.write(join(a, "photo.png"), noise(200, 2));
    for (let i = 0; i < 2; i++) {
      const clash = await run(a, kb.slug, key);
      expect(clash.code).toBe(1);
      expect(clash.err).toEqual([
        "not synced: photo.png: the folder holds Photo.png too, the same name but for letter case or Unicode form, and the server keeps one: rename one of them",
      ]);
    }
    expect([...(await activeIds(key, kb.id)).keys()].sort()).toEqual(["Café.md", "Photo.png"]);
    expect((await Bun.file(join(a, "photo.png")).bytes()).length).toBe(200);
    expect((await Bun.file(join(a, "Photo.png")).bytes()).length).toBe(100);
  });
});
