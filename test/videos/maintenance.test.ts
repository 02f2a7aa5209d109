// The scheduled upkeep: hourly reconciliation heals a missed completion callback; failed
// videos' originals are deleted after 7 days with their storage given back.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { deleteFailedVideoOriginals } from "../../src/modules/videos/failed-originals.job.ts";
import { reconcileVideosJob } from "../../src/modules/videos/reconcile.job.ts";
import { FAILED_ORIGINAL_RETENTION_MS } from "../../src/modules/videos/maintenance.ts";
import { callJson, testContext } from "../helpers/context.ts";
import { stoppedClock } from "../helpers/clock.ts";
import { makeClient, makeKey, type TestUser } from "../helpers/factories.ts";
import { clip, drain, testWorker, uploadVideo, videoObjects, videoRow } from "./fixtures.ts";
import { TEST_TIMEOUT_MS } from "../helpers/timeout.ts";

setDefaultTimeout(TEST_TIMEOUT_MS);

async function mediaUsed(user: TestUser): Promise<number> {
  const { key } = await makeKey(user, ["usage.read"]);
  return (await callJson("GET", "/v1/user/me/usage", { token: key })).body.data.video.storage.used;
}

/** The shared parts with a clock `aheadMs` in the future (the shared clock is left alone). */
async function later(aheadMs: number) {
  const { deps } = await testContext();
  return { ...deps, clock: stoppedClock(deps.clock.nowMs() + aheadMs) };
}
const jobCtx = async (aheadMs: number) => {
  const deps = await later(aheadMs);
  return { deps, log: deps.log, signal: new AbortController().signal };
};

describe("video reconciliation", () => {
  test("a completion callback that never arrived: after an hour the provider is asked and the video becomes ready, once", async () => {
    const { key } = await makeClient({ plan: "pro" });
    const up = await uploadVideo(key, await clip({ seconds: 1 }));
    const id = up.body.data.id;
    // The API is unreachable when the worker reports: the transcode is done, the callback lost.
    await drain(await testWorker({ deliver: async () => new Response("down", { status: 503 }) }));
    expect((await videoRow(id))!.status).toBe("processing");

    // Within the hour nothing is asked.
    await reconcileVideosJob.run(await jobCtx(10 * 60_000));
    expect((await videoRow(id))!.status).toBe("processing");

    const summary = await reconcileVideosJob.run(await jobCtx(61 * 60_000));
    expect(summary).toMatchObject({ summary: expect.stringMatching(/healed [1-9]/) });
    const row = await videoRow(id);
    expect(row).toMatchObject({ status: "ready", renditions: ["360p"] });
    expect(row!.durationSeconds).toBeGreaterThan(0.9);
    // The retried callback arrives late: the same event id, acknowledged and ignored.
    const { app } = await testContext();
    const outcomes: string[] = [];
    const deliver = async (r: Request) => {
      const res = await app.handle(r);
      outcomes.push(((await res.clone().json()) as any).data?.outcome);
      return res;
    };
    await drain(await testWorker({ deps: await later(60_000), deliver }));
    expect(outcomes).toContain("replayed");
    expect((await videoRow(id))!.readyAt).toEqual(row!.readyAt);
  }, 60_000);
});

describe("failed originals", () => {
  test("kept 7 days after the failure, then deleted by the job; the storage is given back and the failure stays visible", async () => {
    const { user, key } = await makeClient({ plan: "pro" });
    const head = (await clip()).subarray(0, 32);
    const up = await uploadVideo(key, new Uint8Array([...head, ...new Uint8Array(5000).fill(7)]));
    const id = up.body.data.id;
    await drain(await testWorker());
    expect((await videoRow(id))!.status).toBe("failed");
    const size = (await videoRow(id))!.sizeBytes;
    expect(await mediaUsed(user)).toBe(size);

    await deleteFailedVideoOriginals.run(await jobCtx(FAILED_ORIGINAL_RETENTION_MS - 60_000));
    expect(await videoObjects(user.id)).toEqual([`videos/${user.id}/${id}/original`]);

    await deleteFailedVideoOriginals.run(await jobCtx(FAILED_ORIGINAL_RETENTION_MS + 60_000));
    expect(await videoObjects(user.id)).toEqual([]);
    expect(await mediaUsed(user)).toBe(0);
    expect(await videoRow(id)).toMatchObject({ status: "failed", originalKey: null });
    // Run again: nothing more to do, nothing given back twice.
    await deleteFailedVideoOriginals.run(await jobCtx(FAILED_ORIGINAL_RETENTION_MS + 120_000));
    expect(await mediaUsed(user)).toBe(0);
    const got = await callJson("GET", `/v1/videos/${id}`, { token: key });
    expect(got.body.data.failure_reason).toBeString();
  }, 60_000);
});
