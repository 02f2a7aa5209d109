// The local provider end to end: upload -> queued transcode -> worker step (real ffmpeg)
// -> signed callback -> ready, playable over HTTP; a corrupt file fails with a reason; a
// worker that dies mid-job has its job finished exactly once by another.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { eq } from "drizzle-orm";
import { claim } from "../../src/modules/videos/queue.ts";
import { transcodeJobs, videoWebhookEvents } from "../../src/modules/videos/table.ts";
import { call, callJson, testContext } from "../helpers/context.ts";
import { stoppedClock } from "../helpers/clock.ts";
import { makeClient, makeKey, type TestUser } from "../helpers/factories.ts";
import { clip, drain, testWorker, uploadVideo, videoObjects, videoRow } from "./fixtures.ts";
import { TEST_TIMEOUT_MS } from "../helpers/timeout.ts";

setDefaultTimeout(TEST_TIMEOUT_MS);

async function mediaUsed(user: TestUser): Promise<number> {
  const { key } = await makeKey(user, ["usage.read"]);
  return (await callJson("GET", "/v1/user/me/usage", { token: key })).body.data.video.storage.used;
}

const SHORT_LEASE_MS = 60_000;

describe("local provider: transcoding", () => {
  test("a 5-second clip: 201 processing, then ready with playback_url, duration, thumbnail; it plays through ffprobe over HTTP", async () => {
    const { deps, app } = await testContext();
    const { user, key } = await makeClient({ plan: "pro" });
    const up = await uploadVideo(key, await clip({ seconds: 5 }));
    expect(up.status).toBe(201);
    const id = up.body.data.id as string;
    expect((await callJson("GET", `/v1/videos/${id}/status`, { token: key })).body.data).toEqual({ status: "processing", progress: 0, eta_seconds: null });

    expect(await drain(await testWorker())).toBeGreaterThanOrEqual(1);

    const got = await callJson("GET", `/v1/videos/${id}`, { token: key });
    expect(got.status).toBe(200);
    const v = got.body.data;
    expect(v.status).toBe("ready");
    expect(v.duration_seconds).toBeGreaterThan(4.8);
    expect(v.duration_seconds).toBeLessThan(5.3);
    expect(v.playback_url).toBe(`${deps.config.MEDIA_URL}/v/${id}/master.m3u8`);
    expect(v.direct_url).toBe(`${deps.config.MEDIA_URL}/v/${id}/direct.mp4`);
    expect(v.thumbnail_url).toBe(`${deps.config.MEDIA_URL}/v/${id}/thumb.jpg`);
    expect(v.failure_reason).toBeUndefined();
    expect((await callJson("GET", `/v1/videos/${id}/status`, { token: key })).body.data).toEqual({ status: "ready", progress: 1, eta_seconds: 0 });

    const keys = await videoObjects(user.id);
    const prefix = `videos/${user.id}/${id}/`;
    expect(keys).toContain(`${prefix}hls/master.m3u8`);
    expect(keys).toContain(`${prefix}hls/360p/index.m3u8`);
    expect(keys).toContain(`${prefix}hls/360p/seg_00000.ts`);
    expect(keys).toContain(`${prefix}direct.mp4`);
    expect(keys).toContain(`${prefix}thumb.jpg`);
    const thumb = await deps.storage.read(`${prefix}thumb.jpg`);
    expect([...thumb!.subarray(0, 3)]).toEqual([0xff, 0xd8, 0xff]);
    const row = await videoRow(id);
    expect(row).toMatchObject({ renditions: ["360p"], progress: 1 });
    // Counted once, at upload: completion does not count the bytes again.
    expect(await mediaUsed(user)).toBe(row!.sizeBytes);

    // Played over HTTP, as a player would: the master playlist, its variant, its segments.
    const server = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: (req) => app.handle(req) });
    try {
      const url = v.playback_url.replace(deps.config.MEDIA_URL, `http://127.0.0.1:${server.port}${new URL(deps.config.MEDIA_URL).pathname}`);
      const probe = await Bun.$`ffprobe -v error -show_entries format=duration -of csv=p=0 ${url}`.quiet().nothrow();
      expect(probe.exitCode).toBe(0);
      expect(Number(probe.stdout.toString().trim())).toBeGreaterThan(4.5);
    } finally {
      await server.stop(true);
    }
  }, 60_000);

  test("a source of 720 lines gets the 360p and 720p rungs, each named in the master playlist", async () => {
    const { deps } = await testContext();
    const { user, key } = await makeClient({ plan: "pro" });
    const up = await uploadVideo(key, await clip({ seconds: 1, size: "1280x720", audio: false }));
    await drain(await testWorker());
    const row = await videoRow(up.body.data.id);
    expect(row!.status).toBe("ready");
    expect(row!.renditions).toEqual(["360p", "720p"]);
    const master = new TextDecoder().decode((await deps.storage.read(`videos/${user.id}/${row!.id}/hls/master.m3u8`))!);
    expect(master).toContain("360p/index.m3u8");
    expect(master).toContain("720p/index.m3u8");
    expect(master).toMatch(/RESOLUTION=1280x720/);
  }, 60_000);

  test("a corrupt file (an MP4 header, then noise) ends failed with a reason; its original is kept", async () => {
    const { key, user } = await makeClient({ plan: "pro" });
    const head = (await clip()).subarray(0, 32);
    const noise = new Uint8Array(20_000).map((_, i) => (i * 7919) % 251);
    const up = await uploadVideo(key, new Uint8Array([...head, ...noise]));
    expect(up.status).toBe(201);
    await drain(await testWorker());
    const got = await callJson("GET", `/v1/videos/${up.body.data.id}`, { token: key });
    expect(got.body.data.status).toBe("failed");
    expect(got.body.data.failure_reason).toMatch(/could not be read|failed/);
    expect(got.body.data.playback_url).toBeUndefined();
    expect(await videoObjects(user.id)).toEqual([`videos/${user.id}/${up.body.data.id}/original`]);
  }, 60_000);

  test("longer than the plan allows: failed with the reason, the original deleted and its storage given back", async () => {
    const { deps, app } = await testContext();
    const { user, key } = await makeClient({ plan: "pro" });
    const up = await uploadVideo(key, await clip({ seconds: 2 }));
    const shortPlans = { ...deps.plans, pro: { ...deps.plans.pro, videoMaxSeconds: 1 } };
    await drain(await testWorker({ deps: { ...deps, plans: shortPlans }, deliver: (r) => app.handle(r) }));
    const row = await videoRow(up.body.data.id);
    expect(row).toMatchObject({ status: "failed", originalKey: null });
    expect(row!.failureReason).toMatch(/plan allows 1 s/);
    expect(await videoObjects(user.id)).toEqual([]);
    expect(await mediaUsed(user)).toBe(0);
  }, 60_000);

  test("a worker killed mid-job: after its lease another worker takes the job and finishes it exactly once", async () => {
    const { deps } = await testContext();
    const { key } = await makeClient({ plan: "pro" });
    const up = await uploadVideo(key, await clip({ seconds: 1 }));
    const id = up.body.data.id as string;
    const [job] = await deps.db.select().from(transcodeJobs).where(eq(transcodeJobs.videoId, id));

    // Worker A claims the job and dies (it never comes back to it). Other queued jobs of
    // this shared database are taken first, until A holds this one.
    const clock = stoppedClock(deps.clock.nowMs());
    let held = null;
    while (!held || held.id !== job!.id) {
      held = await claim(deps.db, "worker-a", clock.now(), SHORT_LEASE_MS);
      expect(held).not.toBeNull();
    }
    // Before the lease runs out nobody else takes it.
    // (A short lease, so B's clock stays within the callbacks' 5-minute tolerance of the API's.)
    const b = await testWorker({ deps: { ...deps, clock }, id: "worker-b" });
    clock.advance(SHORT_LEASE_MS - 1000);
    const early = await claim(deps.db, "worker-c", clock.now(), SHORT_LEASE_MS);
    expect(early?.id).not.toBe(job!.id);
    clock.advance(2000);
    await drain(b);

    expect((await videoRow(id))!.status).toBe("ready");
    const [after] = await deps.db.select().from(transcodeJobs).where(eq(transcodeJobs.id, job!.id));
    expect(after).toMatchObject({ state: "done", attempts: 2 });
    const events = await deps.db
      .select()
      .from(videoWebhookEvents)
      .where(eq(videoWebhookEvents.eventId, `transcode:${job!.id}`));
    expect(events).toHaveLength(1);
    // Worker A waking up finds its lease gone: its completion changes nothing.
    const { complete } = await import("../../src/modules/videos/queue.ts");
    expect(await complete(deps.db, job!, "worker-a", clock.now())).toBe(false);
  }, 60_000);
});

describe("local provider: a delete during a transcode", () => {
  test("the cleanup waits for the running transcode, which writes nothing for a deleted video; then every object goes", async () => {
    const { deps } = await testContext();
    const { user, key } = await makeClient({ plan: "pro" });
    const up = await uploadVideo(key, await clip({ seconds: 1 }));
    const id = up.body.data.id as string;
    const [job] = await deps.db.select().from(transcodeJobs).where(eq(transcodeJobs.videoId, id));
    const clock = stoppedClock(deps.clock.nowMs());
    let held = null;
    while (!held || held.id !== job!.id) held = await claim(deps.db, "worker-a", clock.now(), SHORT_LEASE_MS);

    expect((await call("DELETE", `/v1/videos/${id}`, { token: user.jwt })).status).toBe(204);
    expect((await call("DELETE", `/v1/trash/${id}`, { token: user.jwt })).status).toBe(204);
    // The cleanup is due, but the transcode holds its lease: it is put back for later.
    const b = await testWorker({ deps: { ...deps, clock }, id: "worker-b" });
    await drain(b);
    expect(await videoObjects(user.id)).toEqual([`videos/${user.id}/${id}/original`]);

    // Worker A died; its job is retaken and finds the video gone. The cleanup then runs.
    clock.advance(10 * 60_000);
    await drain(b);
    expect(await videoObjects(user.id)).toEqual([]);
    const jobs = await deps.db.select().from(transcodeJobs).where(eq(transcodeJobs.videoId, id));
    expect(jobs.map((j) => [j.kind, j.state]).sort()).toEqual([
      ["delete", "done"],
      ["transcode", "done"],
    ]);
  }, 60_000);
});
