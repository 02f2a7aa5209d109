// DELETE /v1/media { ids }: up to 50 distinct ids of any kind, a result per id in request
// order; each deleted as DELETE on its own path would (counters back, cleanup queued); an
// id the caller owns nothing under is NOT_FOUND, another user's included, and stays.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { eq } from "drizzle-orm";
import { newId } from "../../src/infra/ids.ts";
import { transcodeJobs } from "../../src/modules/videos/table.ts";
import { call, callJson, testContext } from "../helpers/context.ts";
import { makeClient, makeKey, type TestUser } from "../helpers/factories.ts";
import { expectTenantIsolation } from "../helpers/tenancy.ts";
import { audioObjects, audioRow, fixture, uploadAudio } from "../audio/fixtures.ts";
import { clip, uploadVideo, videoRow } from "../videos/fixtures.ts";
import { addItem, KINDS, listPage } from "./fixtures.ts";
import { TEST_TIMEOUT_MS } from "../helpers/timeout.ts";

setDefaultTimeout(TEST_TIMEOUT_MS);

async function usage(user: TestUser) {
  const { key } = await makeKey(user, ["usage.read"]);
  return (await callJson("GET", "/v1/user/me/usage", { token: key })).body.data;
}

const batchDelete = (token: string, ids: unknown) => callJson("DELETE", "/v1/media", { token, json: { ids } });

describe("DELETE /v1/media", () => {
  test("deletes each kind through its own delete; unknown and another user's ids are NOT_FOUND, results in request order", async () => {
    const { deps } = await testContext();
    const me = await makeClient({ plan: "pro" });
    const other = await makeClient({ plan: "pro" });
    const at = new Date(deps.clock.nowMs() - 1000);
    const mine = await Promise.all(KINDS.flatMap((k) => [addItem(k, me.user.id, at), addItem(k, me.user.id, at)]));
    const kept = await addItem(KINDS[0]!, me.user.id, at);
    const theirs = await Promise.all(KINDS.map((k) => addItem(k, other.user.id, at)));
    const unknown = newId();
    const ids = [theirs[0]!, mine[0]!, unknown, ...mine.slice(1), ...theirs.slice(1)];

    const res = await batchDelete(me.user.jwt, ids);
    expect(res.status).toBe(200);
    const kindOf = (id: string) => KINDS[Math.floor(mine.indexOf(id) / 2)];
    expect(res.body.data.results).toEqual(
      ids.map((id) => (mine.includes(id) ? { id, type: kindOf(id), deleted: true } : { id, deleted: false, reason: "NOT_FOUND" })),
    );
    expect((await listPage(me.key, "limit=50")).items.map((i) => i.id)).toEqual([kept]);
    expect(new Set((await listPage(other.key, "limit=50")).items.map((i) => i.id))).toEqual(new Set(theirs));

    // Again: nothing left to delete, nothing else touched.
    const again = await batchDelete(me.user.jwt, mine);
    expect(again.body.data.results.every((r: any) => !r.deleted && r.reason === "NOT_FOUND" && !("type" in r))).toBe(true);
    expect((await listPage(me.key, "limit=50")).items.map((i) => i.id)).toEqual([kept]);
  });

  test("to the trash as single deletes; purged, counters move back: media and image storage to where they were, files and covers gone, each video's cleanup queued", async () => {
    const { deps } = await testContext();
    const { user, key } = await makeClient({ plan: "pro" });
    const before = await usage(user);
    const [video, withCover, plain] = await Promise.all([clip(), fixture("mp3-cover"), fixture("flac")]);
    const videos: string[] = [];
    for (let i = 0; i < 2; i++) videos.push((await uploadVideo(key, video)).body.data.id);
    const covered = (await uploadAudio(key, withCover, "cover.mp3")).body.data;
    const flac = (await uploadAudio(key, plain, "plain.flac")).body.data;
    const during = await usage(user);
    expect(during.video.storage.used).toBe(before.video.storage.used + 2 * video.length + withCover.length + plain.length);
    expect(during.image.storage.used).toBeGreaterThan(before.image.storage.used);
    expect((await call("GET", new URL(covered.url).pathname)).status).toBe(200);

    const ids = [covered.id, videos[0]!, flac.id, videos[1]!];
    const res = await batchDelete(user.jwt, ids);
    expect(res.body.data.results).toEqual([
      { id: covered.id, type: "audio", deleted: true },
      { id: videos[0], type: "video", deleted: true },
      { id: flac.id, type: "audio", deleted: true },
      { id: videos[1], type: "video", deleted: true },
    ]);
    // The batch trashes, as the single deletes do; the trash's purge then moves the counters back.
    expect((await callJson("GET", "/v1/trash", { token: user.jwt })).body.data.items).toHaveLength(4);
    expect((await callJson("DELETE", "/v1/trash", { token: user.jwt })).body.data).toEqual({ purged: 4 });
    const after = await usage(user);
    expect(after.video.storage).toEqual(before.video.storage);
    expect(after.image.storage).toEqual(before.image.storage);
    expect(await audioObjects(user.id)).toEqual([]);
    for (const a of [covered, flac]) {
      expect(await audioRow(a.id)).toBeUndefined();
      expect((await call("GET", new URL(a.url).pathname)).status).toBe(404);
      expect((await callJson("GET", `/v1/audio/${a.id}`, { token: key })).status).toBe(404);
    }
    for (const id of videos) {
      expect(await videoRow(id)).toBeUndefined();
      expect((await callJson("GET", `/v1/videos/${id}`, { token: key })).status).toBe(404);
      const jobs = await deps.db.select().from(transcodeJobs).where(eq(transcodeJobs.videoId, id));
      expect(jobs.find((j) => j.kind === "delete")?.state).toBe("queued");
    }
    expect((await listPage(key, "limit=50")).items).toEqual([]);
  }, 60_000);

  test("1 to 50 distinct well-formed ids, else 422 and nothing deleted", async () => {
    const { deps } = await testContext();
    const { user } = await makeClient({ plan: "pro" });
    const id = await addItem(KINDS[0]!, user.id, new Date(deps.clock.nowMs() - 1000));
    const fifty = Array.from({ length: 49 }, () => newId());
    for (const [what, body] of [
      ["no ids", { ids: [] }],
      ["51 ids", { ids: [id, ...fifty, newId()] }],
      ["a duplicate", { ids: [id, newId(), id] }],
      ["a malformed id", { ids: [id, "short"] }],
      ["not an array", { ids: id }],
      ["no body field", {}],
    ] as const) {
      const res = await callJson("DELETE", "/v1/media", { token: user.jwt, json: body });
      expect(res.status, what).toBe(422);
      expect(res.body.code, what).toBe("VALIDATION_ERROR");
    }
    expect(await videoRow(id)).toBeDefined();
    // Exactly 50 is allowed.
    const ok = await batchDelete(user.jwt, [id, ...fifty]);
    expect(ok.status).toBe(200);
    expect(ok.body.data.results.length).toBe(50);
    expect(ok.body.data.results[0]).toEqual({ id, type: KINDS[0], deleted: true });
  });

  test("401 without a credential, 403 without media.delete, and the items stay", async () => {
    await expectTenantIsolation({ method: "DELETE", path: () => "/v1/media", scope: "media.delete", request: () => ({ json: { ids: [newId()] } }) });
    const { deps } = await testContext();
    const { user } = await makeClient({ plan: "pro" });
    const id = await addItem(KINDS[0]!, user.id, new Date(deps.clock.nowMs() - 1000));
    const { key: readOnly } = await makeKey(user, ["media.read", "media.write"]);
    expect((await callJson("DELETE", "/v1/media", { json: { ids: [id] } })).status).toBe(401);
    expect((await batchDelete(readOnly, [id])).status).toBe(403);
    expect(await videoRow(id)).toBeDefined();
  });
});
