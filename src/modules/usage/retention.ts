// Period counters (a month's bandwidth, a day's uploads) are read only while their period
// is current; the month rollover reads the month that just ended, then old ones are
// deleted so usage_counters grows with users, not with time.
import { and, eq, gt, inArray, lt, sql } from "drizzle-orm";
import type { DbOrTx } from "../../infra/db/index.ts";
import type { BandwidthDimension } from "./dimensions.ts";
import { usageCounters } from "./table.ts";

const MONTH_KEY = "^[0-9]{4}-[0-9]{2}$";
const DAY_KEY = "^[0-9]{4}-[0-9]{2}-[0-9]{2}$";

/** Every user's counter of one bandwidth dimension in one month ("YYYY-MM"), where above `above` (0); of `userIds` only, when given. */
export function monthCounters(db: DbOrTx, dimension: BandwidthDimension, month: string, opts: { userIds?: readonly string[]; above?: number } = {}) {
  return db
    .select({ userId: usageCounters.userId, value: usageCounters.value })
    .from(usageCounters)
    .where(
      and(
        eq(usageCounters.period, month),
        eq(usageCounters.dimension, dimension),
        gt(usageCounters.value, opts.above ?? 0),
        opts.userIds ? inArray(usageCounters.userId, [...opts.userIds]) : undefined,
      ),
    );
}

/**
 * Deletes monthly counters of months before `month` ("YYYY-MM") and daily counters of
 * days before `day` ("YYYY-MM-DD"); the all-time counters are never touched.
 */
export async function pruneCounters(db: DbOrTx, before: { month: string; day: string }): Promise<{ months: number; days: number }> {
  const months = await db
    .delete(usageCounters)
    .where(and(sql`${usageCounters.period} ~ ${MONTH_KEY}`, lt(usageCounters.period, before.month)))
    .returning({ userId: usageCounters.userId });
  const days = await db
    .delete(usageCounters)
    .where(and(sql`${usageCounters.period} ~ ${DAY_KEY}`, lt(usageCounters.period, before.day)))
    .returning({ userId: usageCounters.userId });
  return { months: months.length, days: days.length };
}
