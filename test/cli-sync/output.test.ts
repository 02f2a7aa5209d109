// What `shelf sync` prints: deletions, moves and renames in both directions (a note moved
// on the server moves here, with no download), `n / N` progress on a long run (a line a
// tenth of the way when not on a terminal, one line rewritten in place on one), and the
// server's refusals folded: 200 notes over the plan's doc_count are one line with (x200).
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { mkdirSync, renameSync, rmSync } from "node:fs";
import { join } from "node:path";
import { tempDir, testContext } from "../helpers/context.ts";
import { makeClient } from "../helpers/factories.ts";
import { newKb } from "../kbs/fixtures.ts";
import { runSync } from "./harness.ts";
import { TEST_TIMEOUT_MS } from "../helpers/timeout.ts";

setDefaultTimeout(TEST_TIMEOUT_MS);

const SERVER = "http://shelf.test";

async function run(folder: string, slug: string, key: string, extra: { tty?: boolean; write?: (text: string) => void } = {}) {
  const { app } = await testContext();
  const paths: string[] = [];
  const done = await runSync([folder, "--kb", slug, "--server", SERVER], {
    env: { SHELF_API_KEY: key, SHELF_CONFIG_DIR: tempDir("shelf-config-") },
    send: (request) => {
      paths.push(new URL(request.url).pathname);
      return app.handle(request);
    },
    ...extra,
  });
  return { ...done, paths };
}

describe("shelf sync output", () => {
  test("deleted, renamed (same folder) and moved (another folder), here and then on the other folder, which moves its files without downloading them", async () => {
    const { key } = await makeClient();
    const { slug } = await newKb(key);
    const a = tempDir("shelf-out-a-");
    const b = tempDir("shelf-out-b-");
    mkdirSync(join(a, "notes"));
    await Bun.write(join(a, "notes", "x.md"), "x\n");
    await Bun.write(join(a, "notes", "y.md"), "y\n");
    await Bun.write(join(a, "z.md"), "z\n");
    expect((await run(a, slug, key)).code).toBe(0);
    expect((await run(b, slug, key)).out).toContain("pulled   notes/x.md");

    renameSync(join(a, "notes", "x.md"), join(a, "notes", "x2.md"));
    mkdirSync(join(a, "archive"));
    renameSync(join(a, "notes", "y.md"), join(a, "archive", "y.md"));
    rmSync(join(a, "z.md"));
    const here = await run(a, slug, key);
    expect(here.code).toBe(0);
    expect(here.out.slice(0, -1).sort()).toEqual(["deleted  z.md", "moved    notes/y.md -> archive/y.md", "renamed  notes/x.md -> notes/x2.md"]);
    expect(here.out.at(-1)).toStartWith("3 change(s), 0 conflict(s); ");

    const there = await run(b, slug, key);
    expect(there.code).toBe(0);
    expect(there.out.slice(0, -1).sort()).toEqual([
      "deleted  z.md (on the server)",
      "moved    notes/y.md -> archive/y.md (on the server)",
      "renamed  notes/x.md -> notes/x2.md (on the server)",
    ]);
    // Moved in place: no text fetched (no raw or raw:batch request), the files where a has them.
    expect(there.paths.filter((p) => p.includes("raw"))).toEqual([]);
    expect(await Bun.file(join(b, "archive", "y.md")).text()).toBe("y\n");
    expect(await Bun.file(join(b, "notes", "x2.md")).text()).toBe("x\n");
    expect(await Bun.file(join(b, "notes", "x.md")).exists()).toBe(false);
    expect((await run(b, slug, key)).out.at(-1)).toStartWith("up to date");
  });

  test("300 notes on a plan of 100: progress a tenth of the way, 100 pushed, and the 200 refusals folded into one line with the count", async () => {
    const { key } = await makeClient({ plan: "trial" });
    const { slug } = await newKb(key);
    const a = tempDir("shelf-out-long-");
    await Promise.all(Array.from({ length: 300 }, (_, i) => Bun.write(join(a, `n${String(i).padStart(3, "0")}.md`), `note ${i}\n`)));
    const long = await run(a, slug, key);
    expect(long.code).toBe(1);
    expect(long.out.filter((l) => l.startsWith("pushed   "))).toHaveLength(100);
    expect(long.out.filter((l) => / \/ /.test(l))).toEqual(["pushing 200 / 300", "pushing 300 / 300"]);
    expect(long.err).toHaveLength(1);
    expect(long.err[0]).toMatch(/^not synced: skipped QUOTA_EXCEEDED: .+ \(x200\): n\d{3}\.md, n\d{3}\.md, n\d{3}\.md and 197 more$/);
    expect(long.out.at(-1)).toStartWith("100 change(s), 0 conflict(s), 200 not synced; ");

    // Another folder pulls the 100: two batches of 50, a line each.
    const b = tempDir("shelf-out-long-b-");
    const pull = await run(b, slug, key);
    expect(pull.code).toBe(0);
    expect(pull.out.filter((l) => / \/ /.test(l))).toEqual(["pulling 50 / 100", "pulling 100 / 100"]);

    // On a terminal: one line rewritten in place, taken away before the lines under it.
    const c = tempDir("shelf-out-long-c-");
    let screen = "";
    const tty = await run(c, slug, key, { tty: true, write: (text) => (screen += text) });
    expect(tty.code).toBe(0);
    expect(tty.out.some((l) => / \/ /.test(l))).toBe(false);
    expect(screen).toContain("\r\x1b[2Kpulling 50 / 100");
    expect(screen.endsWith("\r\x1b[2K")).toBe(true);
  }, 120_000);

  test("a folder that does not exist yet is made and the KB pulled into it; one whose parent is missing too, or a file, is refused with exit 2 and nothing made", async () => {
    const { key } = await makeClient();
    const kb = await newKb(key);
    const a = tempDir("shelf-new-a-");
    await Bun.write(join(a, "note.md"), "# Note\n");
    expect((await run(a, kb.slug, key)).code).toBe(0);

    const fresh = join(tempDir("shelf-new-parent-"), "My vault");
    const made = await run(fresh, kb.slug, key);
    expect(made.code).toBe(0);
    expect(made.out[0]).toBe(`created  ${fresh}`);
    expect(made.out).toContain("pulled   note.md");
    expect(await Bun.file(join(fresh, "note.md")).text()).toBe("# Note\n");

    const deep = join(tempDir("shelf-new-deep-"), "missing", "vault");
    const refused = await run(deep, kb.slug, key);
    expect(refused.code).toBe(2);
    expect(refused.err).toEqual([`${deep} does not exist, nor does the folder it would be in`]);
    expect(await Bun.file(join(deep, "..")).exists()).toBe(false);
    expect(refused.paths).toEqual([]);

    const file = join(a, "note.md");
    const notFolder = await run(file, kb.slug, key);
    expect(notFolder.code).toBe(2);
    expect(notFolder.err).toEqual([`${file} is not a folder`]);
  });
});
