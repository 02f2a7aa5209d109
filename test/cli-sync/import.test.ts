// `shelf import <folder>` (clients/sync/import.ts), run in process against the app: a folder
// of photos and media is uploaded kind by kind and counted, a re-run skips what is there,
// and a vault (--kb) becomes a knowledge base through `shelf sync`.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { importCommand } from "../../clients/sync/import.ts";
import { fixture } from "../audio/fixtures.ts";
import { callJson, tempDir, testContext } from "../helpers/context.ts";
import { makeClient } from "../helpers/factories.ts";
import { TEST_TIMEOUT_MS } from "../helpers/timeout.ts";
import { png } from "../images/fixtures.ts";
import { fullManifest } from "../kbs/fixtures.ts";
import { Lines } from "./harness.ts";

setDefaultTimeout(TEST_TIMEOUT_MS);

async function run(args: string[], key: string | undefined) {
  const { app } = await testContext();
  const lines = new Lines();
  const code = await importCommand([...args, "--server", "http://shelf.test"], {
    env: { ...(key ? { SHELF_API_KEY: key } : {}), SHELF_CONFIG_DIR: tempDir("shelf-config-") },
    out: lines.pushOut,
    err: lines.pushErr,
    send: async (request) => app.handle(request),
  });
  return { code, out: lines.out, err: lines.err };
}

describe("shelf import <folder>", () => {
  test("a folder of photos and media: each file uploaded as its kind, the rest skipped, counted; a re-run skips what is there", async () => {
    const { key } = await makeClient({ plan: "pro" });
    const folder = tempDir("shelf-import-");
    await mkdir(join(folder, "2024", "summer"), { recursive: true });
    await mkdir(join(folder, ".thumbnails"));
    await writeFile(join(folder, "cat.png"), await png(30, 20));
    await writeFile(join(folder, "2024", "summer", "beach.png"), await png(20, 30));
    await writeFile(join(folder, "2024", "song.mp3"), await fixture("mp3"));
    await writeFile(join(folder, "notes.txt"), "not media");
    await writeFile(join(folder, ".thumbnails", "cat.png"), await png(4, 4));

    const first = await run([folder], key);
    expect(first.err).toEqual([]);
    expect(first.code).toBe(0);
    expect(first.out.at(-1)).toBe("3 imported, 1 skipped, 0 failed");
    expect(first.out).toContainEqual(expect.stringMatching(/^imported {2}2024\/summer\/beach\.png \(image [\w-]{11}\)$/));
    expect(first.out).toContain("skipped   notes.txt (not an image, video or audio file)");
    const images = (await callJson("GET", "/v1/images", { token: key })).body.data.items;
    expect(images.map((i: { filename: string }) => i.filename).sort()).toEqual(["beach.png", "cat.png"]);
    const audio = (await callJson("GET", "/v1/media?type=audio", { token: key })).body.data.items;
    expect(audio.map((a: { filename: string }) => a.filename)).toEqual(["song.mp3"]);

    const again = await run([folder], key);
    expect(again.code).toBe(0);
    expect(again.out.at(-1)).toBe("0 imported, 4 skipped, 0 failed");
    expect((await callJson("GET", "/v1/images", { token: key })).body.data.items).toHaveLength(2);
  });

  test("a file the server refuses is reported and the exit code is 1; the others still go in", async () => {
    const { key } = await makeClient({ plan: "trial" });
    const folder = tempDir("shelf-import-");
    await writeFile(join(folder, "a.png"), await png());
    await writeFile(join(folder, "clip.mp4"), new Uint8Array(64));
    const done = await run([folder], key);
    expect(done.code).toBe(1);
    expect(done.err).toEqual([expect.stringMatching(/^failed {4}clip\.mp4: PLAN_REQUIRED: /)]);
    expect(done.out.at(-1)).toBe("1 imported, 0 skipped, 1 failed");
  });

  test("a vault (--kb) becomes a knowledge base with its notes and attachments", async () => {
    const { key } = await makeClient({ plan: "pro" });
    const folder = tempDir("shelf-vault-");
    await mkdir(join(folder, "daily"));
    await writeFile(join(folder, "index.md"), "# Home\n");
    await writeFile(join(folder, "daily", "monday.md"), "# Monday\n");
    await writeFile(join(folder, "daily", "photo.png"), await png());
    const done = await run([folder, "--kb", "vault"], key);
    expect(done.code).toBe(0);
    const kbs = (await callJson("GET", "/v1/kbs", { token: key })).body.data.items;
    expect(kbs).toEqual([expect.objectContaining({ slug: "vault" })]);
    const { items: entries } = await fullManifest(key, kbs[0].id, { syncVersion: "2" });
    expect(entries.map((e: { relativePath: string }) => e.relativePath).sort()).toEqual(["daily/monday.md", "daily/photo.png", "index.md"]);
  });

  test("usage errors: no folder, not a folder, no key (exit 2)", async () => {
    expect((await run([], "k")).code).toBe(2);
    expect((await run(["/nonexistent/folder"], "k")).code).toBe(2);
    const folder = tempDir("shelf-import-");
    const noKey = await run([folder], undefined);
    expect(noKey.code).toBe(2);
    expect(noKey.err[0]).toContain("SHELF_API_KEY");
  });
});
