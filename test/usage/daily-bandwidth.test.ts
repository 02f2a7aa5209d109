// Bandwidth per UTC day: every attribution counts to the day beside the month, and
// GET /v1/user/me/usage/daily reads a month of days back for the dashboard's chart.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { and, eq } from "drizzle-orm";
import { dayKey, monthKey } from "../../src/infra/clock.ts";
import { BANDWIDTH_HASHES } from "../../src/modules/edge/meter.ts";
import { addBandwidthBatch } from "../../src/modules/usage/public.ts";
import { usageCounters } from "../../src/modules/usage/table.ts";
import { attributeProviderHour } from "../../src/modules/videos/provider-egress.job.ts";
import { callJson, testContext } from "../helpers/context.ts";
import { expectTenantIsolation } from "../helpers/tenancy.ts";
import { makeKey, makeUser } from "../helpers/factories.ts";
import { TEST_TIMEOUT_MS } from "../helpers/timeout.ts";

setDefaultTimeout(TEST_TIMEOUT_MS);

const DAY_MS = 86_400_000;

async function countersOf(userId: string) {
  const { deps } = await testContext();
  const rows = await deps.db.select().from(usageCounters).where(eq(usageCounters.userId, userId));
  return Object.fromEntries(rows.map((r) => [`${r.dimension}@${r.period}`, Number(r.value)]));
}

/** The month before `now`'s, whole: every day of it is in the past. */
function lastMonth(now: Date) {
  const first = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1));
  const days = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 0)).getUTCDate();
  return { month: monthKey(first), day: (n: number) => dayKey(new Date(first.getTime() + (n - 1) * DAY_MS)), days };
}

describe("day counters", () => {
  test("the hourly job counts the edge's tally to the day and the month; a tally of the old per-month shape to the month only", async () => {
    const { deps, runner } = await testContext();
    const user = await makeUser();
    const now = deps.clock.now();
    const [today, month] = [dayKey(now), monthKey(now)];
    await deps.kv.hincrby(BANDWIDTH_HASHES.image_bandwidth, `${today}:${user.id}`, 1500);
    await deps.kv.hincrby(BANDWIDTH_HASHES.media_bandwidth, `${today}:${user.id}`, 4000);
    // Left in the kv by the previous version at upgrade: no day.
    await deps.kv.hincrby(BANDWIDTH_HASHES.image_bandwidth, `${month}:${user.id}`, 700);

    expect((await runner.runNow("attribute-image-bandwidth")).outcome).toBe("ok");
    expect(await countersOf(user.id)).toMatchObject({
      [`image_bandwidth@${month}`]: 2200,
      [`image_bandwidth@${today}`]: 1500,
      [`media_bandwidth@${month}`]: 4000,
      [`media_bandwidth@${today}`]: 4000,
    });

    // A run with nothing new adds nothing, to either counter.
    await runner.runNow("attribute-image-bandwidth");
    const { key } = await makeKey(user, ["usage.read"]);
    const res = await callJson("GET", "/v1/user/me/usage/daily", { token: key });
    expect(res.status).toBe(200);
    expect(res.body.data.days.find((d: { day: string }) => d.day === today)).toEqual({ day: today, imageBandwidth: 1500, mediaBandwidth: 4000 });
    const usage = await callJson("GET", "/v1/user/me/usage", { token: key });
    expect(usage.body.data.image.bandwidth.used).toBe(2200);
  });

  test("a batch counts to its days in the same statement, once however often it is retried", async () => {
    const { deps } = await testContext();
    const user = await makeUser();
    const m = lastMonth(deps.clock.now());
    const entries = [
      { ownerId: user.id, month: m.month, day: m.day(3), dimension: "image_bandwidth" as const, bytes: 100 },
      { ownerId: user.id, month: m.month, day: m.day(3), dimension: "image_bandwidth" as const, bytes: 20 },
      { ownerId: user.id, month: m.month, day: m.day(4), dimension: "image_bandwidth" as const, bytes: 5 },
    ];
    const batch = { id: crypto.randomUUID(), at: deps.clock.now() };
    const moved = await deps.db.transaction((tx) => addBandwidthBatch(tx, entries, batch));
    // What callers are told is the month's counter, as before.
    expect(moved).toEqual([{ ownerId: user.id, month: m.month, dimension: "image_bandwidth" }]);
    expect(await deps.db.transaction((tx) => addBandwidthBatch(tx, entries, batch))).toEqual([]);
    expect(await countersOf(user.id)).toEqual({
      [`image_bandwidth@${m.month}`]: 125,
      [`image_bandwidth@${m.day(3)}`]: 120,
      [`image_bandwidth@${m.day(4)}`]: 5,
    });
  });

  test("a provider's egress counts to the day of the hour it attributes", async () => {
    const { deps } = await testContext();
    const user = await makeUser();
    await deps.db.insert(usageCounters).values({ userId: user.id, period: "total", dimension: "media_storage", value: 1_000_000_000_000 });
    const hour = new Date(Math.floor(deps.clock.nowMs() / 3_600_000) * 3_600_000 - 3_600_000);
    const source = { provider: `test-${crypto.randomUUID()}`, bytesServed: async () => 9_000 };
    await attributeProviderHour(deps, source as never, hour);
    const mine = await deps.db
      .select({ value: usageCounters.value })
      .from(usageCounters)
      .where(and(eq(usageCounters.userId, user.id), eq(usageCounters.dimension, "media_bandwidth"), eq(usageCounters.period, dayKey(hour))));
    expect(mine).toHaveLength(1);
    expect(Number(mine[0]!.value)).toBeGreaterThan(0);
    const month = await countersOf(user.id);
    expect(month[`media_bandwidth@${monthKey(hour)}`]).toBe(Number(mine[0]!.value));
  });
});

describe("GET /v1/user/me/usage/daily", () => {
  test("a past month: every day of it, zeros where nothing was served", async () => {
    const { deps } = await testContext();
    const user = await makeUser();
    const { key } = await makeKey(user, ["usage.read"]);
    const m = lastMonth(deps.clock.now());
    await addBandwidthBatch(deps.db, [
      { ownerId: user.id, month: m.month, day: m.day(2), dimension: "image_bandwidth", bytes: 3_200_000 },
      { ownerId: user.id, month: m.month, day: m.day(2), dimension: "media_bandwidth", bytes: 10 },
      { ownerId: user.id, month: m.month, day: m.day(m.days), dimension: "media_bandwidth", bytes: 77 },
    ]);
    const res = await callJson("GET", `/v1/user/me/usage/daily?month=${m.month}`, { token: key });
    expect(res.status).toBe(200);
    expect(res.body.data.month).toBe(m.month);
    const days = res.body.data.days as { day: string; imageBandwidth: number; mediaBandwidth: number }[];
    expect(days.map((d) => d.day)).toEqual(Array.from({ length: m.days }, (_, i) => m.day(i + 1)));
    expect(days[1]).toEqual({ day: m.day(2), imageBandwidth: 3_200_000, mediaBandwidth: 10 });
    expect(days[m.days - 1]).toEqual({ day: m.day(m.days), imageBandwidth: 0, mediaBandwidth: 77 });
    expect(days.filter((d) => d.imageBandwidth || d.mediaBandwidth)).toHaveLength(2);
  });

  test("by default this month, up to today; a month to come has no days yet", async () => {
    const { deps } = await testContext();
    const user = await makeUser();
    const { key } = await makeKey(user, ["usage.read"]);
    const now = deps.clock.now();
    const res = await callJson("GET", "/v1/user/me/usage/daily", { token: key });
    expect(res.status).toBe(200);
    expect(res.body.data.month).toBe(monthKey(now));
    expect(res.body.data.days).toHaveLength(now.getUTCDate());
    expect(res.body.data.days.at(-1)).toEqual({ day: dayKey(now), imageBandwidth: 0, mediaBandwidth: 0 });
    const next = monthKey(new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1)));
    expect((await callJson("GET", `/v1/user/me/usage/daily?month=${next}`, { token: key })).body.data).toEqual({ month: next, days: [] });
  });

  test.each(["2026-13", "2026-1", "26-01", "2026-01-01", "november"])("a bad month (%s) is 422", async (month) => {
    const user = await makeUser();
    const { key } = await makeKey(user, ["usage.read"]);
    const res = await callJson("GET", `/v1/user/me/usage/daily?month=${month}`, { token: key });
    expect(res.status).toBe(422);
    expect(res.body.code).toBe("VALIDATION_ERROR");
  });

  test("only one's own days: another user's bandwidth is not in them; the scope is usage.read", async () => {
    const { deps } = await testContext();
    const [mine, theirs] = [await makeUser(), await makeUser()];
    const m = lastMonth(deps.clock.now());
    await addBandwidthBatch(deps.db, [{ ownerId: theirs.id, month: m.month, day: m.day(1), dimension: "image_bandwidth", bytes: 999 }]);
    const { key } = await makeKey(mine, ["usage.read"]);
    const res = await callJson("GET", `/v1/user/me/usage/daily?month=${m.month}`, { token: key });
    expect(res.body.data.days[0]).toEqual({ day: m.day(1), imageBandwidth: 0, mediaBandwidth: 0 });
    await expectTenantIsolation({ method: "GET", path: () => "/v1/user/me/usage/daily", scope: "usage.read" });
  });
});
