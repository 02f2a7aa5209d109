// Month rollover (monthly bandwidth counters reset by calendar month, and a
// degraded or suspended owner is back to ok with the new month). Counters are keyed by
// month and the video bandwidth state is computed from this month's counter, so the reset
// itself needs no write; what the rollover does:
//   1. settles the month that ended: bytes the edge tallied before midnight and the last
//      hour a hosted provider reports, attributed to that month (both idempotent by batch);
//   2. closes the month once (a month_rollovers row): counts, and logs, the owners whose
//      playback the new month restored (degraded or suspended at the end of the old month,
//      ok in the new one);
//   3. deletes monthly counters older than MONTHS_KEPT months and daily ones older than
//      DAYS_KEPT days (nothing reads them: limits and the usage resource read the current
//      period only).
// Safe at any time: a second run settles and prunes nothing and finds the month closed.
// It is the videos module's job: the month it closes is the one video playback was
// degraded or suspended in, and settling it takes the edge's drain (below videos) and the
// hosted provider's egress (videos' own).
import { eq } from "drizzle-orm";
import type { Deps } from "../../core/deps.ts";
import { dayKey, monthKey } from "../../infra/clock.ts";
import { type Job, result } from "../../core/job.ts";
import type { Log } from "../../infra/log.ts";
import { settleEdgeTallies } from "../edge/public.ts";
import { getUser, PLAN_NAMES } from "../identity/public.ts";
import { monthCounters, pruneCounters, videoBandwidthState } from "../usage/public.ts";
import { providerEgress } from "./bandwidth-egress.ts";
import { attributeProviderHour } from "./provider-egress.job.ts";
import { monthRollovers } from "./table.ts";

/** Monthly counters kept: the current month and the twelve before it (a year to compare with). */
export const MONTHS_KEPT = 13;
/** Daily counters kept: two months of days (only today's limits anything). */
export const DAYS_KEPT = 62;
const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;

const monthStart = (now: Date, back = 0) => new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - back, 1));

/**
 * Attributes what is still waiting for the month that ended: the edge's tallies (left to
 * the hourly drain when it is running at this moment) and the provider's last hour.
 */
async function settle(deps: Deps, now: Date) {
  const edge = await settleEdgeTallies(deps);
  let bytes = edge.bytes;
  const edgeSkipped = edge.skipped ? 1 : 0;
  // The provider's last hour of the old month, early in the new one only: its batch id is
  // kept 30 days, so a run late in a long month must not count that hour again.
  const source = providerEgress(deps.config);
  if (source && now.getTime() - monthStart(now).getTime() < DAY_MS)
    bytes += (await attributeProviderHour(deps, source, new Date(monthStart(now).getTime() - HOUR_MS))).bytes;
  return { settledBytes: bytes, edgeSkipped };
}

/** Closes the current month once: the owners the new month took out of degraded or suspended playback. */
async function closeMonth(deps: Deps, now: Date, log: Log) {
  const month = monthKey(now);
  const previous = monthKey(monthStart(now, 1));
  return deps.db.transaction(async (tx) => {
    const [closing] = await tx.insert(monthRollovers).values({ month, closedAt: now, restored: 0 }).onConflictDoNothing().returning();
    if (!closing) return { closed: 0, restored: 0 };
    const over: { userId: string; was: string; limit: number }[] = [];
    // Only counters over the smallest plan limit can have been over their owner's.
    const limits = PLAN_NAMES.map((p) => deps.plans[p].mediaBandwidthBytes).filter((l) => l >= 0);
    const above = limits.length ? Math.min(...limits) : Number.MAX_SAFE_INTEGER;
    for (const c of await monthCounters(tx, "media_bandwidth", previous, { above })) {
      const user = await getUser(tx, c.userId);
      if (!user) continue;
      const limit = deps.plans[user.plan].mediaBandwidthBytes;
      const was = videoBandwidthState(c.value, limit);
      if (was !== "ok") over.push({ userId: c.userId, was, limit });
    }
    const nowUsed = new Map((await monthCounters(tx, "media_bandwidth", month, { userIds: over.map((o) => o.userId) })).map((c) => [c.userId, c.value]));
    const restored = over.filter((o) => videoBandwidthState(nowUsed.get(o.userId) ?? 0, o.limit) === "ok");
    for (const o of restored) log.info("video playback restored by the month rollover", { userId: o.userId, was: o.was, month });
    await tx.update(monthRollovers).set({ restored: restored.length }).where(eq(monthRollovers.month, month));
    return { closed: 1, restored: restored.length };
  });
}

export const monthRollover: Job = {
  name: "month-rollover",
  schedule: "5 0 1 * *",
  description: `settles the month that ended, counts the owners whose video playback the new month restored, deletes monthly counters older than ${MONTHS_KEPT} months and daily ones older than ${DAYS_KEPT} days`,
  async run({ deps, log }) {
    const now = deps.clock.now();
    const settled = await settle(deps, now);
    const closed = await closeMonth(deps, now, log);
    const pruned = await pruneCounters(deps.db, {
      month: monthKey(monthStart(now, MONTHS_KEPT - 1)),
      day: dayKey(new Date(now.getTime() - DAYS_KEPT * DAY_MS)),
    });
    return result(
      { ...settled, ...closed, prunedMonthCounters: pruned.months, prunedDayCounters: pruned.days },
      (c) =>
        `settled ${c.settledBytes} bytes${c.edgeSkipped ? " (edge tallies left to the running attribution)" : ""}, ${c.closed ? `closed ${monthKey(now)}: ${c.restored} owners' playback restored` : `${monthKey(now)} already closed`}, deleted ${c.prunedMonthCounters} monthly and ${c.prunedDayCounters} daily counters`,
    );
  },
};
