// What a transcode worker killed mid-job (kill -9) leaves in the temp folder is removed
// when a worker of the same host starts; the folders of live workers, of other hosts and
// anything not named as a work folder stay.
import { afterAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { existsSync, mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { localProvider } from "../../src/modules/videos/providers/local.ts";
import { makeWorkFolder, workFolderPrefix } from "../../src/modules/videos/providers/work-folders.ts";
import { createTranscodeWorker, createVideoProviders } from "../../src/modules/videos/public.ts";
import { tempDir, testContext } from "../helpers/context.ts";
import { clip, drain, uploadVideo, videoRow } from "./fixtures.ts";
import { makeClient } from "../helpers/factories.ts";
import { TEST_TIMEOUT_MS } from "../helpers/timeout.ts";

setDefaultTimeout(TEST_TIMEOUT_MS);

const sleeper = Bun.spawn(["sleep", "300"], { stdout: "ignore", stderr: "ignore" });
afterAll(() => sleeper.kill());

/** A folder as a transcode leaves it mid-job: the original and a rendition's first segment. */
function leftFolder(root: string, name: string): string {
  const dir = join(root, name);
  mkdirSync(join(dir, "hls", "360p"), { recursive: true });
  writeFileSync(join(dir, "original"), new Uint8Array(1024));
  writeFileSync(join(dir, "hls", "360p", "seg_00000.ts"), new Uint8Array(1024));
  return dir;
}

async function workerOn(root: string) {
  const { deps, app } = await testContext();
  const local = localProvider(deps, { workRoot: root });
  return createTranscodeWorker(deps, { providers: { ...createVideoProviders(deps), local, current: local }, deliver: (r) => app.handle(r) });
}

describe("transcode work folders after a crash", () => {
  test("a worker starting removes the folders of dead processes of its host; live workers' folders and anything else stay", async () => {
    const root = tempDir("shelf-work-");
    const gone = Bun.spawn(["true"]);
    await gone.exited;
    const stale = [
      // A worker process killed mid-job.
      leftFolder(root, `${workFolderPrefix(gone.pid)}aB3xZ9`),
      // This pid, another process's nonce: a restarted container's worker often has its predecessor's pid.
      leftFolder(root, `${workFolderPrefix(process.pid, "0123456789ab")}Qw7rT2`),
    ];
    const kept = [
      // Another live worker of this host, at work.
      leftFolder(root, `${workFolderPrefix(sleeper.pid)}Lk8mN1`),
      // This process's own, of a job at work.
      await makeWorkFolder(root),
      // Another host's (a shared volume): its pids mean nothing here.
      leftFolder(root, `shelf-transcode-00000000-${gone.pid}-0123456789ab-Zx1cV2`),
      // Not named by process (an older release's, or not ours at all).
      leftFolder(root, "shelf-transcode-Hj5kL6"),
      leftFolder(root, "something-else"),
    ];
    const worker = await workerOn(root);
    worker.start(1);
    await worker.stop();
    for (const dir of stale) expect([dir, existsSync(dir)]).toEqual([dir, false]);
    for (const dir of kept) expect([dir, existsSync(dir)]).toEqual([dir, true]);
  });

  test("a transcode works in a folder named for its process and removes it when done", async () => {
    const root = tempDir("shelf-work-");
    const { key } = await makeClient({ plan: "pro" });
    const up = await uploadVideo(key, await clip({ seconds: 1 }));
    const seen: string[] = [];
    const ctx = await testContext();
    // The outputs are stored from the work folder: what the folder is called is seen then.
    const storage = new Proxy(ctx.deps.storage, {
      get(target, k) {
        const v = Reflect.get(target, k);
        if (k === "put") seen.push(...readdirSync(root));
        return typeof v === "function" ? v.bind(target) : v;
      },
    });
    const deps = { ...ctx.deps, storage };
    const local = localProvider(deps, { workRoot: root });
    const worker = createTranscodeWorker(deps, { providers: { ...createVideoProviders(deps), local, current: local }, deliver: (r) => ctx.app.handle(r) });
    await drain(worker);
    expect((await videoRow(up.body.data.id))!.status).toBe("ready");
    expect(seen.some((name) => name.startsWith(workFolderPrefix(process.pid)))).toBe(true);
    expect(readdirSync(root)).toEqual([]);
  }, 60_000);
});
