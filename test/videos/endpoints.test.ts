// The video routes: list (filters, cursor, no playback_url), get (anonymous when public), status,
// PATCH, DELETE (counters down at once, cleanup queued), custom thumbnail; and no user
// ever reads or touches another's video.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { eq } from "drizzle-orm";
import { monthKey } from "../../src/infra/clock.ts";
import { sharp } from "../../src/infra/sharp.ts";
import { addBandwidthBatch } from "../../src/modules/usage/public.ts";
import { transcodeJobs } from "../../src/modules/videos/table.ts";
import { call, callJson, testContext } from "../helpers/context.ts";
import { makeClient, makeKey, makeUser, type TestUser } from "../helpers/factories.ts";
import { expectTenantIsolation } from "../helpers/tenancy.ts";
import { clip, drain, insertVideo, testWorker, uploadVideo, videoObjects, videoRow } from "./fixtures.ts";
import { TEST_TIMEOUT_MS } from "../helpers/timeout.ts";

setDefaultTimeout(TEST_TIMEOUT_MS);

async function usage(user: TestUser) {
  const { key } = await makeKey(user, ["usage.read"]);
  return (await callJson("GET", "/v1/user/me/usage", { token: key })).body.data;
}

const png = (w = 64, h = 36) =>
  sharp({ create: { width: w, height: h, channels: 3, background: "#3366cc" } })
    .png()
    .toBuffer();
function thumbForm(bytes: Uint8Array, name = "t.png") {
  const form = new FormData();
  form.set("file", new File([bytes as Uint8Array<ArrayBuffer>], name));
  return form;
}

describe("GET /v1/videos", () => {
  test("newest first, pages by cursor, filters by tag, status list and isPublic; items carry no playback_url", async () => {
    const { user, key } = await makeClient({ plan: "pro" });
    const { deps } = await testContext();
    const t0 = deps.clock.nowMs();
    const a = await insertVideo(user.id, { tags: ["talks"], createdAt: new Date(t0 - 3000), status: "ready", durationSeconds: 3, thumbnailKey: "x/thumb.jpg" });
    const b = await insertVideo(user.id, { isPublic: false, createdAt: new Date(t0 - 2000), status: "failed", failureReason: "bad" });
    const c = await insertVideo(user.id, { tags: ["talks", "x"], createdAt: new Date(t0 - 1000) });
    const page1 = await callJson("GET", "/v1/videos?limit=2", { token: key });
    expect(page1.status).toBe(200);
    expect(page1.body.data.items.map((v: any) => v.id)).toEqual([c.id, b.id]);
    const page2 = await callJson("GET", `/v1/videos?limit=2&cursor=${page1.body.data.nextCursor}`, { token: key });
    expect(page2.body.data.items.map((v: any) => v.id)).toEqual([a.id]);
    expect(page2.body.data.nextCursor).toBeNull();
    const item = page2.body.data.items[0];
    expect(item).toMatchObject({ status: "ready", duration_seconds: 3, thumbnail_url: `${deps.config.MEDIA_URL}/v/${a.id}/thumb.jpg` });
    expect(item.playback_url).toBeUndefined();
    expect(item.updatedAt).toBeUndefined();

    const ids = async (q: string) => (await callJson("GET", `/v1/videos?${q}`, { token: key })).body.data.items.map((v: any) => v.id);
    expect(await ids("tag=talks")).toEqual([c.id, a.id]);
    expect(await ids("status=ready,failed")).toEqual([b.id, a.id]);
    expect(await ids("status=processing")).toEqual([c.id]);
    expect(await ids("isPublic=false")).toEqual([b.id]);
    expect(await ids("isPublic=true&tag=x")).toEqual([c.id]);
    // Another user's list does not show them.
    const other = await makeClient();
    expect((await callJson("GET", "/v1/videos", { token: other.key })).body.data.items).toEqual([]);
  });

  test("a bad status, limit or cursor is refused", async () => {
    const { key } = await makeClient();
    expect((await callJson("GET", "/v1/videos?status=done", { token: key })).status).toBe(422);
    expect((await callJson("GET", "/v1/videos?limit=51", { token: key })).status).toBe(422);
    const bad = await callJson("GET", "/v1/videos?cursor=nope", { token: key });
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe("INVALID_CURSOR");
  });
});

describe("GET /v1/videos/:id", () => {
  test("anonymous works for a public video, not for a private one (404); the owner reads both; a stranger only the public", async () => {
    const { user, key } = await makeClient();
    const pub = await insertVideo(user.id, { status: "ready", durationSeconds: 2, directKey: "k", thumbnailKey: "t/thumb.jpg" });
    const priv = await insertVideo(user.id, { isPublic: false });
    const anon = await callJson("GET", `/v1/videos/${pub.id}`);
    expect(anon.status).toBe(200);
    expect(anon.body.data).toMatchObject({ id: pub.id, status: "ready", duration_seconds: 2 });
    expect(anon.body.data.playback_url).toContain(`/v/${pub.id}/master.m3u8`);
    expect((await callJson("GET", `/v1/videos/${priv.id}`)).status).toBe(404);
    expect((await callJson("GET", `/v1/videos/${priv.id}`, { token: key })).status).toBe(200);
    const stranger = await makeClient();
    expect((await callJson("GET", `/v1/videos/${priv.id}`, { token: stranger.key })).status).toBe(404);
    expect((await callJson("GET", `/v1/videos/${pub.id}`, { token: stranger.key })).status).toBe(200);
    expect((await callJson("GET", `/v1/videos/${pub.id}`, { token: "shk_bogus" })).status).toBe(401);
  });

  test("a failed video carries failure_reason and no playback_url", async () => {
    const { user, key } = await makeClient();
    const v = await insertVideo(user.id, { status: "failed", failureReason: "unsupported codec" });
    const got = await callJson("GET", `/v1/videos/${v.id}`, { token: key });
    expect(got.body.data).toMatchObject({ status: "failed", failure_reason: "unsupported codec" });
    expect(got.body.data.playback_url).toBeUndefined();
  });
});

describe("status, PATCH, DELETE", () => {
  test("status: progress and an eta extrapolated from the time spent", async () => {
    const { deps } = await testContext();
    const { user, key } = await makeClient();
    const v = await insertVideo(user.id, { progress: 0.25, processingStartedAt: new Date(deps.clock.nowMs() - 30_000) });
    const s = (await callJson("GET", `/v1/videos/${v.id}/status`, { token: key })).body.data;
    expect(s.status).toBe("processing");
    expect(s.progress).toBe(0.25);
    expect(s.eta_seconds).toBeGreaterThanOrEqual(89);
    expect(s.eta_seconds).toBeLessThanOrEqual(95);
  });

  test("PATCH changes title, isPublic and tags; an unknown field or a bad tag is 422", async () => {
    const { user, key } = await makeClient();
    const v = await insertVideo(user.id);
    const res = await callJson("PATCH", `/v1/videos/${v.id}`, { token: key, json: { title: "New", isPublic: false, tags: ["a", "b"] } });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ title: "New", isPublic: false, tags: ["a", "b"] });
    expect((await callJson("PATCH", `/v1/videos/${v.id}`, { token: key, json: { filename: "x" } })).status).toBe(422);
    expect((await callJson("PATCH", `/v1/videos/${v.id}`, { token: key, json: { tags: ["x".repeat(33)] } })).status).toBe(422);
  });

  test("DELETE: 204, gone at once (to the trash); purged, its media storage given back and the queued cleanup removes every object", async () => {
    const { deps } = await testContext();
    const { user, key } = await makeClient({ plan: "pro" });
    const up = await uploadVideo(key, await clip());
    const id = up.body.data.id;
    await drain(await testWorker());
    expect((await videoObjects(user.id)).length).toBeGreaterThan(3);
    expect((await usage(user)).video.storage.used).toBeGreaterThan(0);
    const del = await call("DELETE", `/v1/videos/${id}`, { token: user.jwt });
    expect(del.status).toBe(204);
    expect((await callJson("GET", `/v1/videos/${id}`, { token: key })).status).toBe(404);
    // In the trash its storage stays counted; its purge gives it back and queues the cleanup.
    expect((await usage(user)).video.storage.used).toBeGreaterThan(0);
    expect((await call("DELETE", `/v1/trash/${id}`, { token: user.jwt })).status).toBe(204);
    expect((await usage(user)).video.storage.used).toBe(0);
    const jobs = await deps.db.select().from(transcodeJobs).where(eq(transcodeJobs.videoId, id));
    expect(jobs.find((j) => j.kind === "delete")?.state).toBe("queued");
    await drain(await testWorker());
    expect(await videoObjects(user.id)).toEqual([]);
    expect((await call("DELETE", `/v1/videos/${id}`, { token: user.jwt })).status).toBe(404);
  }, 60_000);

  for (const route of [
    { method: "GET", path: (id: string) => `/v1/videos/${id}/status`, scope: "media.read" as const },
    { method: "PATCH", path: (id: string) => `/v1/videos/${id}`, scope: "media.write" as const, request: () => ({ json: { title: "mine now" } }) },
    { method: "DELETE", path: (id: string) => `/v1/videos/${id}`, scope: "media.delete" as const },
    { method: "DELETE", path: (id: string) => `/v1/videos/${id}/thumbnail`, scope: "media.write" as const },
  ]) {
    test(`${route.method} ${route.path(":id")}: 401 without a credential, 403 without the scope, 404 for another user's video`, async () => {
      await expectTenantIsolation({
        ...route,
        create: async (owner) => (await insertVideo(owner.id, { isPublic: false })).id,
        untouched: async (_owner, id) => expect(await videoRow(id)).toMatchObject({ title: "clip" }),
      });
    });
  }
});

describe("custom thumbnail", () => {
  test("POST stores a JPEG under a fresh name and counts it in image storage; DELETE reverts to the auto thumbnail and gives it back", async () => {
    const { deps } = await testContext();
    const { user, key } = await makeClient();
    const v = await insertVideo(user.id, { status: "ready", thumbnailKey: `videos/${user.id}/x/thumb.jpg`, durationSeconds: 1 });
    const res = await callJson("POST", `/v1/videos/${v.id}/thumbnail`, { token: key, body: thumbForm(await png()) });
    expect(res.status).toBe(200);
    expect(res.body.data.thumbnail_url).toMatch(new RegExp(`/v/${v.id}/thumb-custom-[A-Za-z0-9_-]+\\.jpg$`));
    const row = await videoRow(v.id);
    const stored = await deps.storage.read(row!.customThumbnailKey!);
    expect([...stored!.subarray(0, 2)]).toEqual([0xff, 0xd8]);
    expect((await usage(user)).image.storage.used).toBe(stored!.length);
    // Replaced again: the first one is removed and only the second counted.
    const again = await callJson("POST", `/v1/videos/${v.id}/thumbnail`, { token: key, body: thumbForm(await png(128, 72)) });
    const second = (await videoRow(v.id))!.customThumbnailKey!;
    expect(again.status).toBe(200);
    expect(await deps.storage.read(row!.customThumbnailKey!)).toBeNull();
    expect((await usage(user)).image.storage.used).toBe((await deps.storage.read(second))!.length);

    const back = await callJson("DELETE", `/v1/videos/${v.id}/thumbnail`, { token: key });
    expect(back.status).toBe(200);
    expect(back.body.data.thumbnail_url).toBe(`${deps.config.MEDIA_URL}/v/${v.id}/thumb.jpg`);
    expect(await deps.storage.read(second)).toBeNull();
    expect((await usage(user)).image.storage.used).toBe(0);
  });

  test("not an image: 422 INVALID_FILE_TYPE; over 2 MB: 413; another user's video: 404; nothing stored or counted", async () => {
    const { user, key } = await makeClient();
    const v = await insertVideo(user.id);
    const text = await callJson("POST", `/v1/videos/${v.id}/thumbnail`, { token: key, body: thumbForm(new TextEncoder().encode("not an image"), "t.txt") });
    expect(text.status).toBe(422);
    expect(text.body.code).toBe("INVALID_FILE_TYPE");
    const big = await callJson("POST", `/v1/videos/${v.id}/thumbnail`, { token: key, body: thumbForm(new Uint8Array(2 * 1024 * 1024 + 10)) });
    expect(big.status).toBe(413);
    const stranger = await makeUser();
    const { key: strangerKey } = await makeKey(stranger);
    const foreign = await callJson("POST", `/v1/videos/${v.id}/thumbnail`, { token: strangerKey, body: thumbForm(await png()) });
    expect(foreign.status).toBe(404);
    expect(await videoObjects(user.id)).toEqual([]);
    expect((await usage(user)).image.storage.used).toBe(0);
  });
});

describe("bandwidth state in metadata", () => {
  test("GET /v1/videos/:id shows the owner's video bandwidth state: ok, degraded past 100%, suspended past 120%", async () => {
    const { deps } = await testContext();
    const limit = deps.plans.pro.mediaBandwidthBytes;
    for (const [share, state] of [
      [0.5, "ok"],
      [1.05, "degraded"],
      [1.21, "suspended"],
    ] as const) {
      const { user, key } = await makeClient({ plan: "pro" });
      await addBandwidthBatch(deps.db, [
        { ownerId: user.id, dimension: "media_bandwidth", month: monthKey(deps.clock.now()), bytes: Math.ceil(limit * share) },
      ]);
      const v = await insertVideo(user.id);
      expect((await callJson("GET", `/v1/videos/${v.id}`, { token: key })).body.data.bandwidth_state).toBe(state);
    }
  });
});
