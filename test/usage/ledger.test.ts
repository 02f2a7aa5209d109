// The ledger runs on its list of dimensions: a dimension added to the list is reserved,
// given back, refused and reported with no other change. Bandwidth arrives in batches.
import type { TObject } from "@sinclair/typebox";
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { dayKey, monthKey } from "../../src/infra/clock.ts";
import { refusalError, LimitRaced, LimitRefusal } from "../../src/core/refusal.ts";
import { DIMENSIONS, type Dimension } from "../../src/modules/usage/dimensions.ts";
import { createLedger, ledger } from "../../src/modules/usage/ledger.ts";
import { usageModel } from "../../src/modules/usage/model.ts";
import { addBandwidthBatch } from "../../src/modules/usage/public.ts";
import { usageReport } from "../../src/modules/usage/report.ts";
import { testContext } from "../helpers/context.ts";
import { makeUser } from "../helpers/factories.ts";
import { TEST_TIMEOUT_MS } from "../helpers/timeout.ts";

setDefaultTimeout(TEST_TIMEOUT_MS);

// Two made-up dimensions counting the same thing: knowledge bases held (a quota of the
// plan's kbCount) and knowledge bases created per day (a count that resets at midnight).
const KB_COUNT = {
  name: "kb_count",
  counts: "kbs",
  period: "total",
  limit: "kbCount",
  refused: "quota",
  report: { at: ["kb", "count"], shape: "usedLimit" },
} as const;
const KBS_PER_DAY = {
  name: "kbs_per_day",
  counts: "kbs",
  period: "day",
  limit: "kbCount",
  refused: "rate",
  report: { at: ["kb", "createdToday"], shape: "usedLimit" },
} as const;
const extended = createLedger([...DIMENSIONS, KB_COUNT, KBS_PER_DAY] satisfies Dimension[]);

async function refusalOf(p: Promise<unknown>): Promise<LimitRefusal> {
  const e = await p.then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(LimitRefusal);
  return e as LimitRefusal;
}

describe("a dimension is one entry in the list", () => {
  test("an added dimension is reserved, given back, refused past its limit and reported", async () => {
    const { deps } = await testContext();
    const u = await makeUser();
    const limits = { ...deps.plans.trial, kbCount: 2 };
    const day1 = new Date("2026-05-10T22:00:00.000Z");
    const reserve = (now: Date) => deps.db.transaction((tx) => extended.reserve(tx, u.id, limits, { kbs: 1 }, now));

    await reserve(day1);
    await reserve(day1);
    let s = await extended.snapshot(deps.db, u.id, day1);
    expect([s.kb_count, s.kbs_per_day]).toEqual([2, 2]);

    // Held: over the quota is 403 QUOTA_EXCEEDED, and nothing moved.
    const full = await refusalOf(reserve(day1));
    expect(full).toMatchObject({ dimension: "kb_count", used: 2, limit: 2, retryAt: undefined });
    expect(refusalError(full)).toMatchObject({ code: "QUOTA_EXCEEDED", status: 403, meta: { type: "kb_count", used: 2, limit: 2 } });
    expect(() => extended.assertFits(u.id, s, limits, { kbs: 1 }, day1)).toThrow(LimitRefusal);

    // Given back: the total drops, the day's count does not.
    await deps.db.transaction((tx) => extended.release(tx, u.id, { kbs: 1 }));
    s = await extended.snapshot(deps.db, u.id, day1);
    expect([s.kb_count, s.kbs_per_day]).toEqual([1, 2]);

    // Room in the total, none left today: 429 until midnight, and the total moved back.
    const today = await refusalOf(reserve(day1));
    expect(today).toMatchObject({ dimension: "kbs_per_day", used: 2, limit: 2, retryAt: new Date("2026-05-11T00:00:00.000Z") });
    const answer = refusalError(today)!;
    expect(answer).toMatchObject({ code: "RATE_LIMITED", status: 429, meta: { type: "kbs_per_day", used: 2, limit: 2, resetAt: "2026-05-11T00:00:00.000Z" } });
    expect(answer.headers).toEqual({ "ratelimit-limit": "2", "ratelimit-remaining": "0", "ratelimit-reset": "7200", "retry-after": "7200" });
    expect((await extended.snapshot(deps.db, u.id, day1)).kb_count).toBe(1);

    // The next day counts from zero.
    const day2 = new Date("2026-05-11T08:00:00.000Z");
    await reserve(day2);
    s = await extended.snapshot(deps.db, u.id, day2);
    expect([s.kb_count, s.kbs_per_day]).toEqual([2, 1]);

    // Reported where its description says, in the values and in the schema.
    const report = usageReport(
      extended.dimensions,
      { snapshot: s, limits, now: day2 },
      { plan: "trial", planActive: true, "video.status": "ok", "planLimits.docCount": 100, "planLimits.revisionBytes": limits.revisionBytes },
    );
    expect(report.kb).toEqual({ count: { used: 2, limit: 2 }, createdToday: { used: 1, limit: 2 } });
    expect(Object.keys(report)).toEqual(["plan", "planActive", "image", "video", "doc", "planLimits", "docs", "uploads", "trashBytes", "kb"]);
    const model = usageModel(extended.dimensions);
    expect(Object.keys((model.properties.kb as TObject).properties)).toEqual(["count", "createdToday"]);
  });

  test("the production ledger knows nothing of the added dimensions; a release gives back several at once", async () => {
    const { deps } = await testContext();
    const u = await makeUser();
    await deps.db.transaction((tx) => extended.reserve(tx, u.id, deps.plans.trial, { kbs: 1, imageBytes: 10 }, deps.clock.now()));
    const s = await ledger.snapshot(deps.db, u.id, deps.clock.now());
    expect(s).not.toHaveProperty("kb_count");
    expect(s.img_storage).toBe(10);
    await deps.db.transaction((tx) => extended.release(tx, u.id, { kbs: 1, imageBytes: 4 }));
    const after = await extended.snapshot(deps.db, u.id, deps.clock.now());
    expect([after.kb_count, after.img_storage]).toEqual([0, 6]);
  });
});

describe("bandwidth batches", () => {
  test("a batch adds per owner, month and dimension, summing repeats and skipping owners that are gone", async () => {
    const { deps } = await testContext();
    const [a, b] = [await makeUser(), await makeUser()];
    const now = deps.clock.now();
    const month = monthKey(now);
    const counted = await deps.db.transaction((tx) =>
      addBandwidthBatch(tx, [
        { ownerId: a.id, month, dimension: "image_bandwidth", bytes: 100 },
        { ownerId: a.id, month, dimension: "image_bandwidth", bytes: 5 },
        { ownerId: a.id, month, dimension: "media_bandwidth", bytes: 7 },
        { ownerId: b.id, month: "2001-01", dimension: "media_bandwidth", bytes: 9 },
        { ownerId: "no-such-user", month, dimension: "image_bandwidth", bytes: 1 },
        { ownerId: b.id, month, dimension: "image_bandwidth", bytes: 0 },
      ]),
    );
    const key = (c: { ownerId: string; month: string; dimension: string }) => `${c.ownerId}/${c.month}/${c.dimension}`;
    expect(counted.map(key).sort()).toEqual([`${a.id}/${month}/image_bandwidth`, `${a.id}/${month}/media_bandwidth`, `${b.id}/2001-01/media_bandwidth`].sort());
    const s = await ledger.snapshot(deps.db, a.id, now);
    expect([s.image_bandwidth, s.media_bandwidth]).toEqual([105, 7]);
    expect((await ledger.snapshot(deps.db, b.id, now)).media_bandwidth).toBe(0); // another month
  });

  test("a batch with an id counts once, however often it is committed", async () => {
    const { deps } = await testContext();
    const a = await makeUser();
    const now = deps.clock.now();
    const entries = [{ ownerId: a.id, month: monthKey(now), dimension: "image_bandwidth" as const, bytes: 42 }];
    const batch = { id: `batch-${a.id}`, at: now };
    expect(await deps.db.transaction((tx) => addBandwidthBatch(tx, entries, batch))).toHaveLength(1);
    expect(await deps.db.transaction((tx) => addBandwidthBatch(tx, entries, batch))).toEqual([]);
    expect((await ledger.snapshot(deps.db, a.id, now)).image_bandwidth).toBe(42);
  });

  test("measured use is never refused: bandwidth goes past its limit", async () => {
    const { deps } = await testContext();
    const a = await makeUser();
    const now = deps.clock.now();
    const limit = deps.plans.trial.imageBandwidthBytes;
    await addBandwidthBatch(deps.db, [{ ownerId: a.id, month: monthKey(now), dimension: "image_bandwidth", bytes: limit + 1 }]);
    expect((await ledger.snapshot(deps.db, a.id, now)).image_bandwidth).toBe(limit + 1);
    // And uploads are still allowed: it is no quota of theirs.
    await deps.db.transaction((tx) => ledger.reserve(tx, a.id, deps.plans.trial, { uploads: 1, imageBytes: 1 }, now));
    expect((await ledger.snapshot(deps.db, a.id, now)).uploads_per_day).toBe(1);
  });
});

test("a snapshot reads this day's, this month's and the total counters only", async () => {
  const { deps } = await testContext();
  const a = await makeUser();
  const now = new Date("2026-07-15T12:00:00.000Z");
  const yesterday = new Date("2026-07-14T12:00:00.000Z");
  await ledger.add(deps.db, [
    { userId: a.id, dimension: "uploads_per_day", period: dayKey(yesterday), amount: 5 },
    { userId: a.id, dimension: "uploads_per_day", period: dayKey(now), amount: 2 },
    { userId: a.id, dimension: "uploads_per_month", period: "2026-06", amount: 50 },
    { userId: a.id, dimension: "uploads_per_month", period: monthKey(now), amount: 7 },
    // A counter under the wrong period's key is not read as this one.
    { userId: a.id, dimension: "uploads_per_month", period: dayKey(now), amount: 1000 },
    { userId: a.id, dimension: "img_storage", period: "total", amount: 3 },
  ]);
  const s = await ledger.snapshot(deps.db, a.id, now);
  expect(s).toMatchObject({ uploads_per_day: 2, uploads_per_month: 7, img_storage: 3, media_storage: 0 });
});

test("a refusal whose numbers a delete made stale is 409 CONFLICT (try again); anything else is no refusal", () => {
  expect(refusalError(new LimitRaced())).toMatchObject({ code: "CONFLICT", status: 409 });
  expect(refusalError(new Error("boom"))).toBeUndefined();
});
