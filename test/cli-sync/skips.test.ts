// What `shelf sync` does not carry, it names: by rule (dot-folders and dot-files, and
// node_modules, by default; --include, --exclude and the folder's .shelfignore change
// that), and by size (an attachment over the plan's per-file limit, a note over the
// plan's document size), each with its size and the limit. A path a rule skips is left
// alone on both sides: never deleted on the server because it is skipped here.
import { afterAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { buildPlans, type PlanOverrides } from "../../src/modules/identity/public.ts";
import { createApp } from "../../src/wiring/app.ts";
import { createServices } from "../../src/wiring/services.ts";
import { tempDir, testContext } from "../helpers/context.ts";
import { makeClient } from "../helpers/factories.ts";
import { TEST_TIMEOUT_MS } from "../helpers/timeout.ts";
import { noise } from "../helpers/vault.ts";
import { newKb } from "../kbs/fixtures.ts";
import { walk2 } from "../kbs/v2-fixtures.ts";
import { syncWith } from "./harness.ts";

setDefaultTimeout(TEST_TIMEOUT_MS);

async function run(folder: string, slug: string, key: string, extra: string[] = []) {
  const { app } = await testContext();
  return await syncWith(app, folder, slug, key, extra);
}

/** The shared parts with other plans: the per-file limits small enough for a test. */
async function appWith(plans: PlanOverrides) {
  const { deps } = await testContext();
  const services = createServices({ ...deps, plans: buildPlans(plans) });
  afterAll(() => services.close());
  return createApp(services);
}

const onServer = async (key: string, kbId: string) =>
  (await walk2(key, kbId)).items
    .filter((i) => !i.deletedAt)
    .map((i) => i.relativePath)
    .sort();

describe("shelf sync: what it skips", () => {
  test("dot-folders, dot-files and node_modules are skipped and named; .shelfignore, --exclude and --include change the rules; a path newly skipped stays on the server", async () => {
    const { key } = await makeClient({ plan: "pro" });
    const kb = await newKb(key);
    const a = tempDir("shelf-skip-a-");
    for (const dir of [".obsidian/snippets", "drafts", "node_modules/x", "notes"]) mkdirSync(join(a, dir), { recursive: true });
    await Bun.write(join(a, "notes", "a.md"), "a\n");
    await Bun.write(join(a, ".obsidian", "app.json"), "{}\n");
    await Bun.write(join(a, ".obsidian", "snippets", "x.css"), "p {}\n");
    await Bun.write(join(a, "drafts", "d.md"), "draft\n");
    await Bun.write(join(a, "scratch.tmp"), "tmp\n");
    await Bun.write(join(a, "node_modules", "x", "index.js"), "//\n");
    await Bun.write(join(a, ".env"), "SECRET=1\n");

    const first = await run(a, kb.slug, key);
    expect(first.code).toBe(0);
    expect(first.out.filter((l) => l.startsWith("skipped  "))).toEqual([
      "skipped  .env: a dot-file",
      "skipped  .obsidian/: a dot-folder; --include .obsidian carries it",
      "skipped  node_modules/: node_modules",
    ]);
    expect(first.summary).toMatch(/^3 change\(s\), 0 conflict\(s\); 3 skipped \(3 by rule\); \d+ request\(s\)$/);
    expect(await onServer(key, kb.id)).toEqual(["drafts/d.md", "notes/a.md", "scratch.tmp"]);

    // The folder's own rules: skipped from now on, named, and left on the server (not deleted).
    await Bun.write(join(a, ".shelfignore"), "# not mine\n*.tmp\ndrafts/\n");
    const ruled = await run(a, kb.slug, key);
    expect(ruled.code).toBe(0);
    expect(ruled.out).toContain("skipped  scratch.tmp: .shelfignore line 2: *.tmp");
    expect(ruled.out).toContain("skipped  drafts/: .shelfignore line 3: drafts/");
    expect(ruled.pushed).toEqual([]);
    expect(await onServer(key, kb.id)).toEqual(["drafts/d.md", "notes/a.md", "scratch.tmp"]);

    // --include carries a dot-folder (a part of it: a path under it); --exclude skips more.
    const included = await run(a, kb.slug, key, ["--include", ".obsidian/snippets", "--exclude", "notes/"]);
    expect(included.code).toBe(0);
    expect(included.out).toContain(`pushed   ${join(".obsidian", "snippets", "x.css")}`);
    expect(included.out).toContain(`skipped  ${join(".obsidian", "app.json")}: a dot-folder; --include .obsidian carries it`);
    expect(included.out).toContain("skipped  notes/: --exclude notes/");
    expect(await onServer(key, kb.id)).toEqual([".obsidian/snippets/x.css", "drafts/d.md", "notes/a.md", "scratch.tmp"]);

    // Another folder with the default rules leaves the server's dot-folder alone, and names it.
    const b = tempDir("shelf-skip-b-");
    const other = await run(b, kb.slug, key);
    expect(other.code).toBe(0);
    expect(other.out).toContain(`skipped  ${join(".obsidian", "snippets", "x.css")}: a dot-folder; --include .obsidian carries it, on the server`);
    expect(await Bun.file(join(b, ".obsidian", "snippets", "x.css")).exists()).toBe(false);
    expect(await Bun.file(join(b, "scratch.tmp")).text()).toBe("tmp\n");
  });

  test("an attachment over the plan's per-file limit and a note over its document size are skipped and named with their size and the limit, and not sent again", async () => {
    const app = await appWith({ pro: { attachmentMaxBytes: 50_000, docMaxFileBytes: 20_000 } as PlanOverrides["pro"] });
    const { key } = await makeClient({ plan: "pro" });
    const kb = await newKb(key);
    const a = tempDir("shelf-size-");
    await Bun.write(join(a, "small.png"), noise(1000, 1));
    await Bun.write(join(a, "big.bin"), noise(120_000, 2));
    await Bun.write(join(a, "long.md"), "x".repeat(30_000));
    await Bun.write(join(a, "short.md"), "short\n");

    const first = await syncWith(app, a, kb.slug, key);
    expect(first.code).toBe(0);
    expect(first.out).toContain("skipped  big.bin (117.2 KB): over the plan's limit of 48.8 KB per file");
    expect(first.out).toContain("skipped  long.md (29.3 KB): over the plan's limit of 19.5 KB per file");
    expect(first.summary).toMatch(/^2 change\(s\), 0 conflict\(s\); 2 skipped \(2 over the size limit\); \d+ request\(s\)$/);
    expect(await onServer(key, kb.id)).toEqual(["short.md", "small.png"]);

    // The limits are remembered: nothing is sent again, and the skips are named again.
    const again = await syncWith(app, a, kb.slug, key);
    expect(again.code).toBe(0);
    expect(again.seen).toEqual([{ method: "GET", path: `/v1/kbs/${kb.id}/manifest`, status: 304 }]);
    expect(again.out).toContain("skipped  big.bin (117.2 KB): over the plan's limit of 48.8 KB per file");
    expect(again.summary).toBe("up to date; 2 skipped (2 over the size limit); 1 request(s)");

    // Made small enough, it goes.
    await Bun.write(join(a, "big.bin"), noise(40_000, 2));
    const fits = await syncWith(app, a, kb.slug, key);
    expect(fits.out).toContain("pushed   big.bin");
    expect(await onServer(key, kb.id)).toEqual(["big.bin", "short.md", "small.png"]);
  });
});
