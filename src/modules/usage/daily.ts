// Bandwidth per UTC day over a month, for the dashboard's usage chart. The day counters
// are written beside the month's by every bandwidth attribution (bandwidth.ts) and pruned
// after DAYS_KEPT days by the month rollover, so an older month reads as zeros.
import { and, between, eq, inArray } from "drizzle-orm";
import type { DbOrTx } from "../../infra/db/index.ts";
import { dayKey } from "../../infra/clock.ts";
import type { BandwidthDimension } from "./dimensions.ts";
import { usageCounters } from "./table.ts";

const DAY_MS = 86_400_000;
const FIELDS: Record<BandwidthDimension, "imageBandwidth" | "mediaBandwidth"> = {
  image_bandwidth: "imageBandwidth",
  media_bandwidth: "mediaBandwidth",
};

export interface DailyBandwidth {
  month: string;
  days: { day: string; imageBandwidth: number; mediaBandwidth: number }[];
}

/**
 * Every day of `month` ("YYYY-MM") up to `now`'s day, with the bytes served that day (zero
 * where none), read with one query. A month after now's has no days yet.
 */
export async function dailyBandwidth(db: DbOrTx, userId: string, month: string, now: Date): Promise<DailyBandwidth> {
  const today = dayKey(now);
  const days: DailyBandwidth["days"] = [];
  const first = Date.parse(`${month}-01T00:00:00.000Z`);
  for (let ms = first; ; ms += DAY_MS) {
    const day = dayKey(new Date(ms));
    if (!day.startsWith(month) || day > today) break;
    days.push({ day, imageBandwidth: 0, mediaBandwidth: 0 });
  }
  if (!days.length) return { month, days };
  const rows = await db
    .select({ day: usageCounters.period, dimension: usageCounters.dimension, value: usageCounters.value })
    .from(usageCounters)
    .where(
      and(
        eq(usageCounters.userId, userId),
        inArray(usageCounters.dimension, Object.keys(FIELDS)),
        between(usageCounters.period, days[0]!.day, days[days.length - 1]!.day),
      ),
    );
  const byDay = new Map(days.map((d) => [d.day, d]));
  for (const r of rows) {
    const d = byDay.get(r.day);
    const field = FIELDS[r.dimension as BandwidthDimension];
    if (d && field) d[field] = Number(r.value);
  }
  return { month, days };
}
