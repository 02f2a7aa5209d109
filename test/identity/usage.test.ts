import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { monthKey } from "../../src/infra/clock.ts";
import { refusalError, LimitRefusal } from "../../src/core/refusal.ts";
import { buildPlans } from "../../src/modules/identity/public.ts";
import { addBandwidthBatch, assertFits, reserve, release, snapshotUsage } from "../../src/modules/usage/public.ts";
import { callJson, testContext } from "../helpers/context.ts";
import { makeClient, makeUser } from "../helpers/factories.ts";
import { videoBandwidthState } from "../../src/modules/usage/service.ts";
import { expectTenantIsolation } from "../helpers/tenancy.ts";
import { TEST_TIMEOUT_MS } from "../helpers/timeout.ts";

setDefaultTimeout(TEST_TIMEOUT_MS);

describe("GET /v1/user/me/usage", () => {
  test("has the shape of the usage resource with zeros for a new account", async () => {
    const { deps } = await testContext();
    const { key } = await makeClient();
    const res = await callJson("GET", "/v1/user/me/usage", { token: key });
    expect(res.status).toBe(200);
    const month = monthKey(deps.clock.now());
    const t = deps.plans.trial;
    const expected = {
      plan: "trial",
      planActive: true,
      image: { storage: { used: 0, limit: t.imageStorageBytes }, bandwidth: { used: 0, limit: t.imageBandwidthBytes, monthYear: month } },
      video: { storage: { used: 0, limit: t.mediaStorageBytes }, bandwidth: { used: 0, limit: t.mediaBandwidthBytes, monthYear: month }, status: "ok" },
      doc: { count: { used: 0, limit: 100 } },
      planLimits: { docCount: 100, revisionBytes: t.revisionBytes },
      docs: { revisionCount: 0, revisionBytes: 0 },
      uploads: { day: { used: 0, limit: t.uploadsPerDay }, month: { used: 0, limit: t.uploadsPerMonth } },
      trashBytes: 0,
    };
    expect(res.body.data).toEqual(expected);
    // Laid out from the dimensions, in the order the resource has always had.
    expect(JSON.stringify(res.body.data)).toBe(JSON.stringify(expected));
  });

  test("planLimits.revisionBytes is each plan's cap on history bytes, beside docs.revisionBytes", async () => {
    const { deps } = await testContext();
    for (const plan of ["trial", "pro", "pro_plus"] as const) {
      const { key } = await makeClient({ plan });
      const res = await callJson("GET", "/v1/user/me/usage", { token: key });
      expect(res.body.data.planLimits.revisionBytes).toBe(deps.plans[plan].revisionBytes);
      expect(res.body.data.docs).toEqual({ revisionCount: 0, revisionBytes: 0 });
    }
    // The defaults: a tenth of each plan's storage, and room for 100 versions of its largest document.
    const defaults = buildPlans({});
    expect([defaults.trial, defaults.pro, defaults.pro_plus].map((p) => p.revisionBytes)).toEqual([100 * 1024 ** 2, 10 * 1024 ** 3, 50 * 1024 ** 3]);
  });

  test("pro has no document cap (-1)", async () => {
    const { key } = await makeClient({ plan: "pro" });
    const res = await callJson("GET", "/v1/user/me/usage", { token: key });
    expect(res.body.data.planLimits.docCount).toBe(-1);
    expect(res.body.data.doc.count.limit).toBe(-1);
  });

  test("tenant isolation", async () => {
    await expectTenantIsolation({ method: "GET", path: () => "/v1/user/me/usage", scope: "usage.read" });
  });

  test("video status: ok up to 100% of the month's bandwidth, degraded over it, suspended over 120%", async () => {
    expect([1000, 1001, 1200, 1201].map((used) => videoBandwidthState(used, 1000))).toEqual(["ok", "degraded", "degraded", "suspended"]);
    expect(videoBandwidthState(10 ** 15, -1)).toBe("ok");
    const { deps } = await testContext();
    const { user, key } = await makeClient();
    const limit = deps.plans.trial.mediaBandwidthBytes;
    await addBandwidthBatch(deps.db, [
      { ownerId: user.id, month: monthKey(deps.clock.now()), dimension: "media_bandwidth", bytes: Math.floor(limit * 1.2) + 1 },
    ]);
    const res = await callJson("GET", "/v1/user/me/usage", { token: key });
    expect(res.body.data.video.status).toBe("suspended");
  });
});

describe("usage ledger", () => {
  test("reserve counts storage and uploads; release gives storage back", async () => {
    const { deps } = await testContext();
    const u = await makeUser();
    const now = deps.clock.now();
    const limits = deps.plans.trial;
    await deps.db.transaction((tx) => reserve(tx, u.id, limits, { imageBytes: 1000, uploads: 1 }, now));
    await deps.db.transaction((tx) => reserve(tx, u.id, limits, { imageBytes: 500, uploads: 1 }, now));
    let s = await snapshotUsage(deps.db, u.id, now);
    expect([s.img_storage, s.uploads_per_day, s.uploads_per_month]).toEqual([1500, 2, 2]);
    await deps.db.transaction((tx) => release(tx, u.id, { imageBytes: 1000, uploads: 1 }));
    s = await snapshotUsage(deps.db, u.id, now);
    expect(s.img_storage).toBe(500);
    expect(s.uploads_per_day).toBe(2); // uploads are counted, not given back
  });

  test("over the storage quota is a refusal (403 QUOTA_EXCEEDED) with type, used and limit, and nothing is counted", async () => {
    const { deps } = await testContext();
    const u = await makeUser();
    const now = deps.clock.now();
    const limits = { ...deps.plans.trial, imageStorageBytes: 1000 };
    await deps.db.transaction((tx) => reserve(tx, u.id, limits, { imageBytes: 900 }, now));
    let err: unknown;
    try {
      await deps.db.transaction((tx) => reserve(tx, u.id, limits, { imageBytes: 200, uploads: 1 }, now));
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(LimitRefusal);
    expect(err).toMatchObject({ dimension: "img_storage", used: 900, limit: 1000, retryAt: undefined });
    expect(refusalError(err)).toMatchObject({ code: "QUOTA_EXCEEDED", status: 403, meta: { type: "img_storage", used: 900, limit: 1000 } });
    const s = await snapshotUsage(deps.db, u.id, now);
    expect([s.img_storage, s.uploads_per_day]).toEqual([900, 0]);
    let early: unknown;
    try {
      assertFits(u.id, s, limits, { imageBytes: 101 }, now);
    } catch (e) {
      early = e;
    }
    expect(early).toMatchObject({ dimension: "img_storage", used: 900, limit: 1000 });
  });

  test("a need that fits no account is refused before any write; a need without an upload leaves the day's count alone", async () => {
    const { deps } = await testContext();
    const u = await makeUser();
    const now = deps.clock.now();
    const limits = { ...deps.plans.trial, imageStorageBytes: 1000 };
    let err: any;
    await deps.db.transaction((tx) => reserve(tx, u.id, limits, { imageBytes: 1001, uploads: 1 }, now)).catch((e) => (err = e));
    expect(err).toMatchObject({ dimension: "img_storage", used: 0, limit: 1000 });
    await deps.db.transaction((tx) => reserve(tx, u.id, limits, { imageBytes: 1000 }, now));
    const s = await snapshotUsage(deps.db, u.id, now);
    expect([s.img_storage, s.uploads_per_day, s.uploads_per_month]).toEqual([1000, 0, 0]);
  });

  test("concurrent reservations at the edge of the quota never end above it", async () => {
    const { deps } = await testContext();
    const u = await makeUser();
    const now = deps.clock.now();
    const limits = { ...deps.plans.trial, imageStorageBytes: 1000 };
    const results = await Promise.allSettled(
      Array.from({ length: 12 }, () => deps.db.transaction((tx) => reserve(tx, u.id, limits, { imageBytes: 100 }, now))),
    );
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(10);
    expect((await snapshotUsage(deps.db, u.id, now)).img_storage).toBe(1000);
  });

  test("concurrent uploads at the edge of the daily count never end above it", async () => {
    const { deps } = await testContext();
    const u = await makeUser();
    const now = deps.clock.now();
    const limits = { ...deps.plans.trial, uploadsPerDay: 3 };
    const results = await Promise.allSettled(
      Array.from({ length: 8 }, () => deps.db.transaction((tx) => reserve(tx, u.id, limits, { uploads: 1, imageBytes: 1 }, now))),
    );
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(3);
    expect((await snapshotUsage(deps.db, u.id, now)).uploads_per_day).toBe(3);
  });

  test("uploads per day: refused (429) until midnight UTC, then allowed again; per month resets at month start", async () => {
    const { deps } = await testContext();
    const u = await makeUser();
    const limits = { ...deps.plans.trial, uploadsPerDay: 2, uploadsPerMonth: 3 };
    const day1 = new Date("2026-03-31T23:59:00.000Z");
    for (let i = 0; i < 2; i++) await deps.db.transaction((tx) => reserve(tx, u.id, limits, { uploads: 1 }, day1));
    let err: any;
    await deps.db.transaction((tx) => reserve(tx, u.id, limits, { uploads: 1 }, day1)).catch((e) => (err = e));
    expect(err).toMatchObject({ dimension: "uploads_per_day", used: 2, limit: 2, retryAt: new Date("2026-04-01T00:00:00.000Z") });
    const answer = refusalError(err)!;
    expect(answer).toMatchObject({
      code: "RATE_LIMITED",
      status: 429,
      meta: { type: "uploads_per_day", used: 2, limit: 2, resetAt: "2026-04-01T00:00:00.000Z" },
    });
    expect(answer.headers).toEqual({ "ratelimit-limit": "2", "ratelimit-remaining": "0", "ratelimit-reset": "60", "retry-after": "60" });
    // Next day, next month: both counters start again.
    const day2 = new Date("2026-04-01T00:00:01.000Z");
    for (let i = 0; i < 2; i++) await deps.db.transaction((tx) => reserve(tx, u.id, limits, { uploads: 1 }, day2));
    const day3 = new Date("2026-04-02T10:00:00.000Z");
    await deps.db.transaction((tx) => reserve(tx, u.id, limits, { uploads: 1 }, day3));
    err = undefined;
    await deps.db.transaction((tx) => reserve(tx, u.id, limits, { uploads: 1 }, day3)).catch((e) => (err = e));
    expect(err).toMatchObject({ dimension: "uploads_per_month", used: 3, limit: 3, retryAt: new Date("2026-05-01T00:00:00.000Z") });
    expect(refusalError(err)).toMatchObject({ code: "RATE_LIMITED", meta: { type: "uploads_per_month", used: 3, limit: 3 } });
    // The day's counter had room and moved in the refused statement; the rollback took it back.
    expect((await snapshotUsage(deps.db, u.id, day3)).uploads_per_day).toBe(1);
  });

  test("attributed bandwidth shows in the usage resource for the current month", async () => {
    const { deps } = await testContext();
    const { user, key } = await makeClient();
    const month = monthKey(deps.clock.now());
    await addBandwidthBatch(deps.db, [{ ownerId: user.id, month, dimension: "image_bandwidth", bytes: 1234 }]);
    await addBandwidthBatch(deps.db, [
      { ownerId: user.id, month, dimension: "image_bandwidth", bytes: 1 },
      { ownerId: user.id, month, dimension: "media_bandwidth", bytes: 10 },
      { ownerId: user.id, month: "2001-01", dimension: "image_bandwidth", bytes: 999 },
    ]);
    const res = await callJson("GET", "/v1/user/me/usage", { token: key });
    expect(res.body.data.image.bandwidth.used).toBe(1235);
    expect(res.body.data.video.bandwidth.used).toBe(10);
  });
});
