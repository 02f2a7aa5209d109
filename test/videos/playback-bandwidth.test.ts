// Per-owner video bandwidth states at the playback edge: past 100% of
// the plan's monthly media bandwidth new sessions get 360p only; past 120% playback is 451
// BANDWIDTH_SUSPENDED while images and the thumbnail still serve; a plan upgrade or the
// month rollover brings full quality back within the node caches' 5 s; the hourly job
// records each crossing once in the outbox; a hosted provider's egress is split by storage.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { attributeImageBandwidthJob as attributeImageBandwidth } from "../../src/modules/edge/public.ts";
import { attributeProviderHour } from "../../src/modules/videos/provider-egress.job.ts";
import { createApp } from "../../src/wiring/app.ts";
import { CACHE_TTL_MS } from "../../src/infra/cache.ts";
import { updateUser, buildPlans } from "../../src/modules/identity/public.ts";
import { monthKey } from "../../src/infra/clock.ts";
import { addBandwidthBatch, mediaStorageHolders, recordBandwidthCrossings, reserve, snapshotUsage } from "../../src/modules/usage/public.ts";
import { providerEgress, splitByStorage } from "../../src/modules/videos/public.ts";
import { createPlaybackSigner } from "../../src/modules/videos/sign.ts";
import { createServices } from "../../src/wiring/services.ts";
import { stoppedClock } from "../helpers/clock.ts";
import { testContext } from "../helpers/context.ts";
import { makeUser } from "../helpers/factories.ts";
import { edgeGet, png, uploaded } from "../images/fixtures.ts";
import { addMediaBandwidth, outboxOf, storedVideo } from "./playback-fixtures.ts";
import { TEST_TIMEOUT_MS } from "../helpers/timeout.ts";

setDefaultTimeout(TEST_TIMEOUT_MS);

const MEDIA = "http://shelf.test/media";
const GB = 1024 ** 3;

/** The shared app's answer to GET `path` below MEDIA_URL/v/<id>/. */
async function play(id: string, file: string, app?: { handle(r: Request): Promise<Response> }) {
  const handler = app ?? (await testContext()).app;
  return handler.handle(new Request(`${MEDIA}/v/${id}/${file}`));
}

/** Moves the shared clock past what the edge and the state cache may keep. */
const pastCaches = async () => (await testContext()).deps.clock.advance(CACHE_TTL_MS + 1);

describe("bandwidth states at the playback edge", () => {
  test("degraded (over 100%): the master lists only 360p; variants and segments of 720p still play for sessions already on them", async () => {
    const owner = await makeUser({ plan: "pro" });
    const { deps } = await testContext();
    const v = await storedVideo(owner.id);
    const full = await play(v.id, "master.m3u8");
    const fullText = await full.text();
    expect(fullText).toContain("720p/index.m3u8");

    await addMediaBandwidth(owner.id, deps.plans.pro.mediaBandwidthBytes + 1);
    await pastCaches();
    const degraded = await play(v.id, "master.m3u8");
    expect(degraded.status).toBe(200);
    expect(degraded.headers.get("content-type")).toBe("application/vnd.apple.mpegurl");
    expect(degraded.headers.get("etag")).not.toBe(full.headers.get("etag"));
    const text = await degraded.text();
    expect(Number(degraded.headers.get("content-length"))).toBe(Buffer.byteLength(text));
    expect(text).toStartWith("#EXTM3U");
    expect(text).toContain("360p/index.m3u8");
    expect(text).not.toContain("720p");
    expect(text.match(/#EXT-X-STREAM-INF/g)).toHaveLength(1);
    expect((await play(v.id, "720p/index.m3u8")).status).toBe(200);
    expect((await play(v.id, "720p/seg_00000.ts")).status).toBe(200);
    // At exactly 100% nothing changes: the state moves when usage is above the limit.
    const other = await makeUser({ plan: "pro" });
    const w = await storedVideo(other.id);
    await addMediaBandwidth(other.id, deps.plans.pro.mediaBandwidthBytes);
    expect(await (await play(w.id, "master.m3u8")).text()).toContain("720p/index.m3u8");
  });

  test("suspended (over 120%): every playback file is 451 BANDWIDTH_SUSPENDED; the thumbnail and the owner's images still serve", async () => {
    const owner = await makeUser({ plan: "pro" });
    const { deps } = await testContext();
    const v = await storedVideo(owner.id);
    const image = await uploaded(owner.jwt, await png());
    await addMediaBandwidth(owner.id, Math.ceil(deps.plans.pro.mediaBandwidthBytes * 1.2) + 1);
    for (const file of ["master.m3u8", "360p/index.m3u8", "720p/seg_00001.ts", "direct.mp4"]) {
      const res = await play(v.id, file);
      expect({ file, status: res.status }).toEqual({ file, status: 451 });
      expect(res.headers.get("content-type")).toStartWith("application/json");
      expect(res.headers.get("cache-control")).toBe("no-store");
      expect(await res.json()).toMatchObject({ success: false, code: "BANDWIDTH_SUSPENDED" });
    }
    expect((await play(v.id, "thumb.jpg")).status).toBe(200);
    const img = await edgeGet(image.url);
    expect(img.status).toBe(200);
    expect(img.headers.get("content-type")).toStartWith("image/");
  });

  test("a private video of a suspended owner: 403 without a valid signature (nothing told), 451 with one", async () => {
    const owner = await makeUser({ plan: "pro" });
    const { deps, config } = await testContext();
    const v = await storedVideo(owner.id, { isPublic: false });
    await addMediaBandwidth(owner.id, deps.plans.pro.mediaBandwidthBytes * 2);
    expect((await play(v.id, "master.m3u8")).status).toBe(403);
    const token = createPlaybackSigner(config.JWT_SECRET).token(v.id, Math.floor(deps.clock.nowMs() / 1000) + 60);
    expect((await play(v.id, `${token}/master.m3u8`)).status).toBe(451);
  });

  test("a plan upgrade brings full quality back within seconds (the node caches' 5 s), a downgrade degrades again", async () => {
    const owner = await makeUser({ plan: "pro" });
    const { deps } = await testContext();
    const v = await storedVideo(owner.id);
    await addMediaBandwidth(owner.id, Math.ceil(deps.plans.pro.mediaBandwidthBytes * 1.3));
    expect((await play(v.id, "master.m3u8")).status).toBe(451);
    await updateUser(deps.db, owner.id, { plan: "pro_plus" }, deps.clock.now());
    await pastCaches();
    const back = await play(v.id, "master.m3u8");
    expect(back.status).toBe(200);
    expect(await back.text()).toContain("720p/index.m3u8");
    await updateUser(deps.db, owner.id, { plan: "pro" }, deps.clock.now());
    await pastCaches();
    expect((await play(v.id, "master.m3u8")).status).toBe(451);
  });

  test("the month rollover brings full quality back: the new month's counter starts at zero", async () => {
    const { deps } = await testContext();
    // A clock of its own: a month is too far to move the shared app's clock.
    const clock = stoppedClock(Date.UTC(2031, 0, 31, 23, 59, 0));
    const services = createServices({ ...deps, clock });
    const app = createApp(services);
    try {
      const owner = await makeUser({ plan: "pro" });
      const v = await storedVideo(owner.id);
      await addMediaBandwidth(owner.id, deps.plans.pro.mediaBandwidthBytes * 2, clock.now());
      expect((await play(v.id, "master.m3u8", app)).status).toBe(451);
      clock.advance(2 * 60_000); // 2031-02-01T00:01
      const res = await play(v.id, "master.m3u8", app);
      expect(res.status).toBe(200);
      expect(await res.text()).toContain("720p/index.m3u8");
    } finally {
      await services.close();
    }
  });
});

describe("attribution and crossings", () => {
  test("segments served past 100% and 120%: the hourly job counts them and records each crossing once; the edge then degrades and suspends", async () => {
    const { deps } = await testContext();
    const clock = stoppedClock(deps.clock.nowMs());
    const owner = await makeUser({ plan: "pro" });
    const v = await storedVideo(owner.id);
    const seg = v.files.get("720p/seg_00000.ts")!.length;
    // A plan small enough that a few segments go past its limit.
    const plans = buildPlans({ pro: { mediaBandwidthBytes: seg * 2 } });
    const small = { ...deps, clock, plans };
    const services = createServices(small);
    const app = createApp(services);
    const run = () => attributeImageBandwidth.run({ deps: small, log: deps.log, signal: new AbortController().signal });
    try {
      for (let i = 0; i < 3; i++) expect((await play(v.id, "720p/seg_00000.ts", app)).status).toBe(200);
      await services.meter.flush();
      await run();
      expect((await snapshotUsage(deps.db, owner.id, clock.now())).media_bandwidth).toBe(seg * 3);
      // The 80% warning of the media_bandwidth quota too; its 100% is the degraded message.
      expect((await outboxOf(owner.id)).map((m) => m.kind).sort()).toEqual([
        "quota_80",
        "video_bandwidth_degraded",
        "video_bandwidth_over_110",
        "video_bandwidth_suspended",
      ]);
      clock.advance(CACHE_TTL_MS + 1);
      expect((await play(v.id, "master.m3u8", app)).status).toBe(451);
      // Nothing new served: another run records nothing again.
      await run();
      expect(await outboxOf(owner.id)).toHaveLength(4);
      expect((await outboxOf(owner.id)).find((m) => m.kind === "video_bandwidth_degraded")!.payload).toMatchObject({
        used: seg * 3,
        limit: seg * 2,
        state: "suspended",
      });
    } finally {
      await services.close();
    }
  });

  test("the degraded crossing alone, when the count stops between 100% and 110%", async () => {
    const { deps } = await testContext();
    const owner = await makeUser({ plan: "pro" });
    const plans = buildPlans({ pro: { mediaBandwidthBytes: 1000 } });
    const now = deps.clock.now();
    const step = async (bytes: number) =>
      deps.db.transaction(async (tx) => {
        const added = [{ ownerId: owner.id, month: monthKey(now), dimension: "media_bandwidth" as const, bytes }];
        await addBandwidthBatch(tx, added);
        return recordBandwidthCrossings(tx, plans, added, now);
      });
    expect(await step(1000)).toEqual([]);
    expect(await step(50)).toEqual([{ ownerId: owner.id, kind: "video_bandwidth_degraded" }]);
    expect(await step(40)).toEqual([]);
    expect(await step(200)).toEqual([
      { ownerId: owner.id, kind: "video_bandwidth_over_110" },
      { ownerId: owner.id, kind: "video_bandwidth_suspended" },
    ]);
  });

  test("a hosted provider's hourly egress is split by media storage, in whole bytes, and an hour is counted once", async () => {
    expect(
      splitByStorage(1000, [
        { ownerId: "a", bytes: 3 },
        { ownerId: "b", bytes: 1 },
      ]),
    ).toEqual([
      { ownerId: "a", bytes: 750 },
      { ownerId: "b", bytes: 250 },
    ]);
    const thirds = splitByStorage(100, [
      { ownerId: "a", bytes: 1 },
      { ownerId: "b", bytes: 1 },
      { ownerId: "c", bytes: 1 },
    ]);
    expect(thirds.reduce((s, x) => s + x.bytes, 0)).toBe(100);
    expect(splitByStorage(100, [])).toEqual([]);
    expect(splitByStorage(0, [{ ownerId: "a", bytes: 5 }])).toEqual([]);

    const { deps } = await testContext();
    const [a, b] = [await makeUser({ plan: "pro" }), await makeUser({ plan: "pro" })];
    await deps.db.transaction(async (tx) => {
      await reserve(tx, a.id, deps.plans.pro, { mediaBytes: 3 * GB }, deps.clock.now());
      await reserve(tx, b.id, deps.plans.pro, { mediaBytes: 1 * GB }, deps.clock.now());
    });
    const total = 7 * GB;
    const expected = new Map(splitByStorage(total, await mediaStorageHolders(deps.db)).map((s) => [s.ownerId, s.bytes]));
    // 3 to 1, give or take the bytes rounding hands out (the other holders in the database decide where they go).
    expect(Math.abs(expected.get(a.id)! - 3 * expected.get(b.id)!)).toBeLessThanOrEqual(3);
    const hour = new Date(Math.floor(deps.clock.nowMs() / 3_600_000) * 3_600_000 - 3_600_000);
    const source = { provider: `test-${a.id}`, bytesServed: async () => total };
    const first = await attributeProviderHour(deps, source, hour);
    expect(first.bytes).toBe(total);
    await attributeProviderHour(deps, source, hour);
    const used = async (id: string) => (await snapshotUsage(deps.db, id, hour)).media_bandwidth;
    expect(await used(a.id)).toBe(expected.get(a.id)!);
    expect(await used(b.id)).toBe(expected.get(b.id)!);
    // The local provider serves nothing itself: its report is 0 and the job says so.
    const local = providerEgress({ VIDEO_PROVIDER: "local" })!;
    expect(await attributeProviderHour(deps, local, hour)).toEqual({ bytes: 0, users: 0 });
  });
});
