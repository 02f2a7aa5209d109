// The orphan sweep: an object a killed upload left (written under a kind's key layout, no
// row) stays while younger than the cutoff and goes after it, by the store's
// last-modified time against a clock the test moves; objects rows name (an image's
// recorded size variants too) stay; the objects of an account that no longer exists go; a
// row whose object is missing is reported and kept.
import { afterAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { allJobs } from "../../jobs/index.ts";
import { createJobRunner } from "../../jobs/runner.ts";
import { newId, newImageId } from "../../src/infra/ids.ts";
import { s3Uploads } from "../../src/infra/storage/s3-uploads.ts";
import { createServices } from "../../src/wiring/services.ts";
import { stoppedClock } from "../helpers/clock.ts";
import { call, callJson, testContext } from "../helpers/context.ts";
import { makeClient } from "../helpers/factories.ts";
import { uploadedDoc } from "../documents/fixtures.ts";
import { png, uploaded } from "../images/fixtures.ts";
import { closeWorlds, DAY, stoppedWorld } from "./world.ts";
import { fakeS3, type SeenS3Request, uploadXml } from "../helpers/fake-s3.ts";
import { TEST_TIMEOUT_MS } from "../helpers/timeout.ts";

setDefaultTimeout(TEST_TIMEOUT_MS);

afterAll(closeWorlds);

const HOUR = 3_600_000;

describe("orphan-sweep job", () => {
  test("deletes objects no row names only once older than the cutoff; keeps named ones; reports rows whose object is missing", async () => {
    const { deps, config } = await testContext();
    const cutoff = config.ORPHAN_SWEEP_AFTER_H * HOUR;
    const { user, key } = await makeClient();
    const kept = await uploaded(key, await png());
    const lost = await uploaded(key, await png(20, 10));
    // A size variant the edge made and recorded is named by its row; one written without a record is not.
    expect((await call("GET", `${new URL(kept.url).pathname}?w=16&format=webp`)).status).toBe(200);
    const doc = await uploadedDoc(key, { filename: "big.md", content: `# Big\n\n${"word ".repeat(60_000)}` });
    const gone = newId(); // an account whose row is gone: its objects belong to no row
    const killed = [
      `images/${user.id}/${newImageId()}/original.png`,
      `docs/${user.id}/${newId()}/${newId()}`,
      `videos/${user.id}/${newId()}/original`,
      `audio/${user.id}/${newId()}/original`,
      `images/${gone}/${newImageId()}/original.png`,
      `images/${user.id}/${kept.id}/v/w32-h0-inside-q75.webp`,
    ];
    for (const k of killed) await deps.storage.put(k, new Uint8Array([1, 2, 3]));
    // A row whose object went missing (not by the sweep).
    const lostKey = `images/${user.id}/${lost.id}/original.png`;
    await deps.storage.delete(lostKey);
    const named = [`images/${user.id}/${kept.id}/original.png`, `images/${user.id}/${kept.id}/w.webp`, `images/${user.id}/${kept.id}/v/w16-h0-inside-q75.webp`];
    const docKeys: string[] = [];
    for await (const o of deps.storage.list(`docs/${user.id}/`)) docKeys.push(o.key);
    expect(docKeys).toHaveLength(2); // the big document's own object, and the killed one

    // The stored objects' times are the wall clock's: the sweep's clock starts there.
    const w = await stoppedWorld(Date.now());
    const exists = async (k: string) => (await deps.storage.head(k)) !== null;
    const run = async () => {
      const r = await w.runner.runNow("orphan-sweep");
      expect(r.outcome).toBe("ok");
      return r.counts!;
    };

    const first = await run();
    expect(first.young).toBeGreaterThanOrEqual(killed.length);
    // The folder store writes no parts: there is no unfinished upload to abort.
    if (deps.storage.kind === "fs") expect(first).toMatchObject({ uploadsAborted: 0, uploadsYoung: 0, uploadListFailed: 0 });
    expect(first.missing).toBeGreaterThanOrEqual(1);
    w.clock.advance(cutoff - 10 * 60_000); // ten minutes short of the cutoff: an upload could still be in flight
    await run();
    for (const k of killed) expect(await exists(k)).toBe(true);

    w.clock.advance(11 * 60_000);
    const second = await run();
    expect(second.deleted).toBeGreaterThanOrEqual(killed.length);
    for (const k of killed) expect(await exists(k)).toBe(false);
    for (const k of named) expect(await exists(k)).toBe(true);
    const left: string[] = [];
    for await (const o of deps.storage.list(`docs/${user.id}/`)) left.push(o.key);
    expect(left).toHaveLength(1);
    expect((await call("GET", `/v1/docs/${doc.id}/raw`, { token: key })).status).toBe(200);
    // The row whose object is missing is reported, not deleted.
    expect(second.missing).toBeGreaterThanOrEqual(1);
    expect((await callJson("GET", `/v1/images/${lost.id}`, { token: key })).status).toBe(200);

    // Again: nothing to delete. Two workers on the same tick: one run.
    expect((await run()).deleted).toBe(0);
    const at = w.deps.clock.now();
    const runs = await Promise.all([createJobRunner(w.deps, allJobs), createJobRunner(w.deps, allJobs)].map((r) => r.runScheduled("orphan-sweep", at)));
    expect(runs.filter((r) => r !== null)).toHaveLength(1);
    expect(runs.find((r) => r !== null)!.counts).toMatchObject({ deleted: 0 });
  });

  test("S3: unfinished multipart uploads begun two days ago by the job's clock are aborted, one begun an hour ago is kept; the counts and summary say how many", async () => {
    const { deps } = await testContext();
    const clock = stoppedClock(Date.now());
    const ago = (ms: number) => new Date(clock.nowMs() - ms).toISOString();
    // Listed per kind's prefix, as begun by the job's clock: two stale uploads (a video, an audio file) and a fresh one.
    const pending: Record<string, [string, string, string][]> = {
      "videos/": [
        ["videos/u1/v-stale/original", "up-stale-video", ago(2 * DAY)],
        ["videos/u1/v-fresh/original", "up-fresh-video", ago(HOUR)],
      ],
      "audio/": [["audio/u2/a-stale/original", "up-stale-audio", ago(2 * DAY)]],
    };
    const s3 = fakeS3((query) => `${(pending[query.prefix!] ?? []).map(([key, id, at]) => uploadXml(key, id, at)).join("")}<IsTruncated>false</IsTruncated>`);
    const requests = s3.seen;
    const signed = (q: SeenS3Request) => /^AWS4-HMAC-SHA256 Credential=AK\//.test(q.headers.authorization ?? "");
    try {
      const uploads = s3Uploads({ bucket: "media", endpoint: s3.endpoint, region: "us-east-1", accessKeyId: "AK", secretAccessKey: "SK" });
      const services = createServices({ ...deps, clock, storage: { ...deps.storage, ...uploads } });
      try {
        const r = await services.runner.runNow("orphan-sweep");
        expect(r.outcome).toBe("ok");
        expect(r.counts).toMatchObject({ uploadsAborted: 2, uploadsYoung: 1, uploadAbortFailed: 0, uploadListFailed: 0 });
        expect(r.summary).toContain("aborted 2 unfinished multipart uploads, left 1 younger than 24 h");
        const listed = requests.filter((q) => q.method === "GET").map((q) => q.query.prefix);
        expect(listed.sort()).toEqual(["audio/", "docs/", "exports/", "images/", "kb-files/", "migrations/", "uploads/", "videos/"]);
        expect(requests.filter((q) => q.method === "DELETE").map(({ path, query }) => [path, query.uploadId])).toEqual([
          ["/media/videos/u1/v-stale/original", "up-stale-video"],
          ["/media/audio/u2/a-stale/original", "up-stale-audio"],
        ]);
        expect(requests.every(signed)).toBe(true);
      } finally {
        await services.close();
      }
    } finally {
      await s3.stop();
    }
  });
});
