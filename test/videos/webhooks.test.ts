// POST /webhooks/{provider}: signatures (HMAC-SHA256 over "t.body", 5-minute tolerance),
// replays ignored by event id, and transitions that never go backwards.
import { afterAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { createHmac } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { createApp } from "../../src/wiring/app.ts";
import { LOCAL_SIGNATURE_HEADER, localWebhookSecret } from "../../src/modules/videos/providers/local.ts";
import { enqueue } from "../../src/modules/videos/queue.ts";
import { transcodeJobs, videos, videoWebhookEvents } from "../../src/modules/videos/table.ts";
import { createServices, type Services } from "../../src/wiring/services.ts";
import { call, testContext } from "../helpers/context.ts";
import { makeUser } from "../helpers/factories.ts";
import { insertVideo, videoRow } from "./fixtures.ts";
import { TEST_TIMEOUT_MS } from "../helpers/timeout.ts";

setDefaultTimeout(TEST_TIMEOUT_MS);

const ready = { durationSeconds: 4, renditions: ["360p"], thumbnailKey: null, directKey: null };

function sign(secret: string, body: string, t: number) {
  return `t=${t},v1=${createHmac("sha256", secret).update(`${t}.${body}`).digest("hex")}`;
}

async function sendLocal(event: unknown, opts: { secret?: string; ageS?: number; tamper?: boolean } = {}) {
  const { deps } = await testContext();
  const body = JSON.stringify(event);
  const t = Math.floor(deps.clock.nowMs() / 1000) - (opts.ageS ?? 0);
  const header = sign(opts.secret ?? localWebhookSecret(deps.config), body, t);
  const res = await call("POST", "/webhooks/local", {
    headers: { "content-type": "application/json", [LOCAL_SIGNATURE_HEADER]: header },
    body: opts.tamper ? body.replace("4", "9") : body,
  });
  return { status: res.status, body: (await res.json()) as any };
}

describe("local provider callbacks", () => {
  test("a signed completion moves processing -> ready; replayed, it is acknowledged and ignored", async () => {
    const owner = await makeUser({ plan: "pro" });
    const v = await insertVideo(owner.id);
    const ev = { id: `evt-${v.id}`, videoId: v.id, type: "ready", result: ready };
    const first = await sendLocal(ev);
    expect(first.status).toBe(200);
    expect(first.body.data).toEqual({ received: true, outcome: "applied" });
    expect(await videoRow(v.id)).toMatchObject({ status: "ready", durationSeconds: 4, renditions: ["360p"] });
    const again = await sendLocal(ev);
    expect(again.body.data.outcome).toBe("replayed");
  });

  test("a tampered body, a wrong key, a missing or stale signature: 401, and the video is untouched", async () => {
    const owner = await makeUser({ plan: "pro" });
    const v = await insertVideo(owner.id);
    const ev = { id: `evt-${v.id}`, videoId: v.id, type: "ready", result: ready };
    expect((await sendLocal(ev, { tamper: true })).status).toBe(401);
    expect((await sendLocal(ev, { secret: "another-secret-another-secret-0000" })).status).toBe(401);
    expect((await sendLocal(ev, { ageS: 301 })).status).toBe(401);
    expect((await sendLocal(ev, { ageS: -301 })).status).toBe(401);
    const unsigned = await call("POST", "/webhooks/local", { json: ev });
    expect(unsigned.status).toBe(401);
    expect((await videoRow(v.id))!.status).toBe("processing");
    // Within the tolerance it is taken (the event id was never recorded by the refusals).
    expect((await sendLocal(ev, { ageS: 290 })).body.data.outcome).toBe("applied");
  });

  test("an old or repeated event never moves a video backwards: failed after ready is stale", async () => {
    const owner = await makeUser({ plan: "pro" });
    const v = await insertVideo(owner.id);
    await sendLocal({ id: `ok-${v.id}`, videoId: v.id, type: "ready", result: ready });
    const late = await sendLocal({ id: `late-${v.id}`, videoId: v.id, type: "failed", reason: "boom" });
    expect(late.body.data.outcome).toBe("stale");
    const progress = await sendLocal({ id: `p-${v.id}`, videoId: v.id, type: "progress", progress: 0.2 });
    expect(progress.body.data.outcome).toBe("stale");
    expect(await videoRow(v.id)).toMatchObject({ status: "ready", failureReason: null, progress: 1 });
  });

  test("a signed completion naming keys outside the video's own prefix (another video's, ../ escapes) is 400 BAD_REQUEST: the video stays processing, no event recorded", async () => {
    const owner = await makeUser({ plan: "pro" });
    const v = await insertVideo(owner.id);
    const other = await insertVideo((await makeUser({ plan: "pro" })).id, { status: "ready" });
    const own = `videos/${owner.id}/${v.id}/`;
    const { deps } = await testContext();
    const before = await videoRow(v.id);
    const hostile = [
      `videos/${other.ownerId}/${other.id}/thumb.jpg`,
      `videos/${owner.id}/${other.id}/direct.mp4`,
      `${own}../${other.id}/thumb.jpg`,
      `${own}hls/../../../${other.ownerId}/${other.id}/original`,
      `${own}./thumb.jpg`,
      `${own}/thumb.jpg`,
      `${own}..\\..\\x`,
      "../../etc/passwd",
      "/etc/passwd",
      own,
    ];
    for (const [i, key] of hostile.entries()) {
      for (const field of ["thumbnailKey", "directKey"] as const) {
        const id = `evt-bad-${i}-${field}-${v.id}`;
        const res = await sendLocal({ id, videoId: v.id, type: "ready", result: { ...ready, [field]: key } });
        expect([key, field, res.status, res.body.success, res.body.code]).toEqual([key, field, 400, false, "BAD_REQUEST"]);
        expect(res.body.meta).toEqual({ field: `result.${field}` });
        const recorded = await deps.db
          .select()
          .from(videoWebhookEvents)
          .where(and(eq(videoWebhookEvents.provider, "local"), eq(videoWebhookEvents.eventId, id)));
        expect(recorded).toEqual([]);
      }
    }
    expect(await videoRow(v.id)).toEqual(before);
    expect(await videoRow(other.id)).toEqual(other);
    // Its own keys are taken.
    const good = { ...ready, thumbnailKey: `${own}thumb.jpg`, directKey: `${own}direct.mp4` };
    expect((await sendLocal({ id: `evt-good-${v.id}`, videoId: v.id, type: "ready", result: good })).body.data.outcome).toBe("applied");
    expect(await videoRow(v.id)).toMatchObject({ status: "ready", thumbnailKey: good.thumbnailKey, directKey: good.directKey });
  });

  test("a callback that is no video event is 400; an unknown provider 422", async () => {
    expect((await sendLocal({ hello: "world" })).status).toBe(400);
    const res = await call("POST", "/webhooks/nope", { json: {} });
    expect(res.status).toBe(422);
  });
});

const opened: Services[] = [];
afterAll(() => Promise.all(opened.map((s) => s.close())));

describe("Mux callbacks", () => {
  const secret = "mux-signing-secret-for-tests";
  async function muxApp() {
    const { deps } = await testContext();
    const services = createServices({ ...deps, config: { ...deps.config, MUX_WEBHOOK_SECRET: secret } });
    opened.push(services);
    return createApp(services);
  }
  // The shape of Mux's video.asset.ready event (docs.mux.com, webhooks reference).
  const assetReady = (videoId: string, assetId: string) => ({
    type: "video.asset.ready",
    object: { type: "asset", id: assetId },
    id: `3a56ac3d-33da-4366-855b-f592d898409d-${videoId}`,
    environment: { name: "Production", id: "j0863n" },
    data: {
      id: assetId,
      status: "ready",
      duration: 23.8,
      max_stored_resolution: "HD",
      passthrough: videoId,
      playback_ids: [{ policy: "public", id: "u8wDXkHoZSYp9OmhdVOmnFj00vbrTJqkbqh6NjhfNUWc" }],
      mp4_support: "none",
      created_at: "1609869152",
    },
    created_at: "2021-01-05T17:52:47.000000Z",
  });

  test('Mux-Signature computed as documented (HMAC-SHA256 of "t.body"): asset ready -> video ready with its asset id', async () => {
    const app = await muxApp();
    const { deps } = await testContext();
    const owner = await makeUser({ plan: "pro" });
    const v = await insertVideo(owner.id, { provider: "mux", providerAssetId: "upload:abc" });
    const body = JSON.stringify(assetReady(v.id, "AcX01vNq00s"));
    const t = Math.floor(deps.clock.nowMs() / 1000);
    const send = (sig: string) =>
      app.handle(
        new Request("http://shelf.test/webhooks/mux", { method: "POST", headers: { "content-type": "application/json", "mux-signature": sig }, body }),
      );
    const bad = await send(`t=${t},v1=${"0".repeat(64)}`);
    expect(bad.status).toBe(401);
    const stale = await send(sign(secret, body, t - 600));
    expect(stale.status).toBe(401);
    expect((await videoRow(v.id))!.status).toBe("processing");
    const good = await send(sign(secret, body, t));
    expect(good.status).toBe(200);
    expect(((await good.json()) as any).data.outcome).toBe("applied");
    expect(await videoRow(v.id)).toMatchObject({ status: "ready", durationSeconds: 23.8, renditions: ["360p", "720p"], providerAssetId: "AcX01vNq00s" });
    const replay = await send(sign(secret, body, t));
    expect(((await replay.json()) as any).data.outcome).toBe("replayed");
  });

  test("an asset reported ready for a video deleted meanwhile is queued for deletion at Mux; one never asked for here is left alone", async () => {
    const app = await muxApp();
    const { deps } = await testContext();
    const owner = await makeUser({ plan: "pro" });
    const v = await insertVideo(owner.id, { provider: "mux", providerAssetId: "upload:up-late" });
    // Its transcode ran here (the job that made the direct upload), then the video was deleted.
    await deps.db.transaction((tx) => enqueue(tx, { kind: "transcode", videoId: v.id, ownerId: owner.id, provider: "mux" }, deps.clock.now()));
    await deps.db.update(transcodeJobs).set({ state: "done" }).where(eq(transcodeJobs.videoId, v.id));
    await deps.db.delete(videos).where(eq(videos.id, v.id));
    const t = Math.floor(deps.clock.nowMs() / 1000);
    const send = (body: string) =>
      app.handle(new Request("http://shelf.test/webhooks/mux", { method: "POST", headers: { "mux-signature": sign(secret, body, t) }, body }));

    const late = await send(JSON.stringify(assetReady(v.id, "AsLate01")));
    expect(((await late.json()) as any).data.outcome).toBe("stale");
    const jobs = await deps.db
      .select()
      .from(transcodeJobs)
      .where(and(eq(transcodeJobs.videoId, v.id), eq(transcodeJobs.kind, "delete")));
    expect(jobs).toHaveLength(1);
    // No owner: the job deletes the asset at Mux and no local object.
    expect(jobs[0]).toMatchObject({ provider: "mux", ownerId: "", payload: { assetId: "AsLate01" }, state: "queued" });
    // Done here: no worker of another test may take it to the real Mux.
    await deps.db.update(transcodeJobs).set({ state: "done" }).where(eq(transcodeJobs.id, jobs[0]!.id));

    // Another instance's asset (no transcode of that id ever ran here) is not ours to delete.
    const stranger = await send(JSON.stringify(assetReady("not-a-video-of-ours", "AsOther1")));
    expect(((await stranger.json()) as any).data.outcome).toBe("stale");
    expect(await deps.db.select().from(transcodeJobs).where(eq(transcodeJobs.videoId, "not-a-video-of-ours"))).toEqual([]);
  });

  test("events this adapter does not act on are acknowledged; without a configured secret every Mux callback is 401", async () => {
    const app = await muxApp();
    const { deps } = await testContext();
    const body = JSON.stringify({ type: "video.asset.created", id: "e1", data: { id: "a1", status: "preparing" } });
    const t = Math.floor(deps.clock.nowMs() / 1000);
    const res = await app.handle(new Request("http://shelf.test/webhooks/mux", { method: "POST", headers: { "mux-signature": sign(secret, body, t) }, body }));
    expect(((await res.json()) as any).data.outcome).toBe("ignored");
    const plain = await call("POST", "/webhooks/mux", { headers: { "mux-signature": sign(secret, body, t) }, body });
    expect(plain.status).toBe(401);
  });
});
