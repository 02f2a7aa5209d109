// The usage ledger and the one quota check. Features call reserve() inside the
// transaction that inserts the rows being counted, and release() inside the one that
// deletes them, so counters and rows never disagree.
import { and, eq, sql, type AnyColumn, type SQLWrapper } from "drizzle-orm";
import { AppError } from "../../http/errors.ts";
import { rateLimited } from "../../http/rate-limit.ts";
import { dayKey, monthKey } from "../../infra/clock.ts";
import type { DbOrTx, Tx } from "../../infra/db/index.ts";
import { prepared } from "../../infra/db/prepared.ts";
import type { PlanLimits } from "../../plans.ts";
import { usageDaily, usageMonthly, usageTotals } from "./table.ts";

export interface Need {
  imageBytes?: number;
  mediaBytes?: number;
  docs?: number;
  /** Counts one upload against uploadsPerDay and uploadsPerMonth. */
  upload?: boolean;
}

export async function ensureUsageRow(db: DbOrTx, userId: string, now: Date) {
  await db.insert(usageTotals).values({ userId, updatedAt: now }).onConflictDoNothing();
}

const over = (limit: number, used: number, add: number) => limit >= 0 && add > 0 && used + add > limit;

function quotaError(type: string, used: number, limit: number) {
  return new AppError("QUOTA_EXCEEDED", `quota exceeded: ${type}`, { type, used, limit });
}

const nextDay = (d: Date) => new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate() + 1));
const nextMonth = (d: Date) => new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1));

/** 429 for the day's or month's upload count; its RateLimit headers describe that limit. */
function uploadLimitError(period: "day" | "month", used: number, limit: number, now: Date) {
  const resetAt = period === "day" ? nextDay(now) : nextMonth(now);
  const type = period === "day" ? "uploads_per_day" : "uploads_per_month";
  return rateLimited(`upload limit per ${period} reached`, { type, used, limit, resetAt: resetAt.toISOString() }, { limit, resetMs: resetAt.getTime() - now.getTime() });
}

const EMPTY = {
  imageStorageBytes: 0,
  mediaStorageBytes: 0,
  docCount: 0,
  revisionCount: 0,
  revisionBytes: 0,
  uploadsToday: 0,
  uploadsMonth: 0,
  imageBandwidthBytes: 0,
  mediaBandwidthBytes: 0,
};

const usageQuery = (db: DbOrTx) =>
  db
    .select({
      imageStorageBytes: usageTotals.imageStorageBytes,
      mediaStorageBytes: usageTotals.mediaStorageBytes,
      docCount: usageTotals.docCount,
      revisionCount: usageTotals.revisionCount,
      revisionBytes: usageTotals.revisionBytes,
      uploadsToday: usageDaily.uploads,
      uploadsMonth: usageMonthly.uploads,
      imageBandwidthBytes: usageMonthly.imageBandwidthBytes,
      mediaBandwidthBytes: usageMonthly.mediaBandwidthBytes,
    })
    .from(usageTotals)
    .leftJoin(usageDaily, and(eq(usageDaily.userId, usageTotals.userId), eq(usageDaily.day, sql.placeholder("day"))))
    .leftJoin(usageMonthly, and(eq(usageMonthly.userId, usageTotals.userId), eq(usageMonthly.month, sql.placeholder("month"))))
    .where(eq(usageTotals.userId, sql.placeholder("userId")))
    .prepare("usage_snapshot");

/** Totals plus this day's and this month's counters, in one query (read on every upload). */
export async function snapshotUsage(db: DbOrTx, userId: string, now: Date) {
  const [row] = await prepared(db, "usage_snapshot", usageQuery).execute({ userId, day: dayKey(now), month: monthKey(now) });
  if (!row) return { ...EMPTY };
  // The day's and month's rows exist only once something was counted in them.
  return {
    ...row,
    uploadsToday: row.uploadsToday ?? 0,
    uploadsMonth: row.uploadsMonth ?? 0,
    imageBandwidthBytes: row.imageBandwidthBytes ?? 0,
    mediaBandwidthBytes: row.mediaBandwidthBytes ?? 0,
  };
}
export type UsageSnapshot = Awaited<ReturnType<typeof snapshotUsage>>;

/** QUOTA_EXCEEDED (or 429 for upload counts) when `need` does not fit in `u`, else null. */
function refusal(u: UsageSnapshot, limits: PlanLimits, need: Need, now: Date): AppError | null {
  if (over(limits.imageStorageBytes, u.imageStorageBytes, need.imageBytes ?? 0)) return quotaError("img_storage", u.imageStorageBytes, limits.imageStorageBytes);
  if (over(limits.mediaStorageBytes, u.mediaStorageBytes, need.mediaBytes ?? 0)) return quotaError("media_storage", u.mediaStorageBytes, limits.mediaStorageBytes);
  if (over(limits.docCount, u.docCount, need.docs ?? 0)) return quotaError("doc_count", u.docCount, limits.docCount);
  if (need.upload) {
    if (over(limits.uploadsPerDay, u.uploadsToday, 1)) return uploadLimitError("day", u.uploadsToday, limits.uploadsPerDay, now);
    if (over(limits.uploadsPerMonth, u.uploadsMonth, 1)) return uploadLimitError("month", u.uploadsMonth, limits.uploadsPerMonth, now);
  }
  return null;
}

/** Throws QUOTA_EXCEEDED (or 429 for upload counts) when `need` does not fit in `u`. */
export function assertFits(u: UsageSnapshot, limits: PlanLimits, need: Need, now: Date) {
  const e = refusal(u, limits, need, now);
  if (e) throw e;
}

/** `col + add <= limit` as SQL, or true where nothing is added or there is no limit. */
const fits = (col: AnyColumn, add: number, limit: number) => (limit < 0 || add <= 0 ? sql`true` : sql`${col} + ${add} <= ${limit}`);

/**
 * The authoritative check, in one statement: each counter moves only where the need
 * still fits its limit, and the statement says which moved. Row locks make a concurrent
 * upload at the edge of a quota wait, and its condition is then checked against what the
 * first one wrote. Must run inside the transaction that writes the counted rows: a
 * refusal throws, and the rollback takes back any counter that did move.
 */
export async function reserve(tx: Tx, userId: string, limits: PlanLimits, need: Need, now: Date) {
  // What cannot fit an empty account is refused without a write; what can is inserted as
  // is when the user has no row yet (for the totals, this day or this month).
  assertFits(EMPTY, limits, need, now);
  const img = need.imageBytes ?? 0;
  const media = need.mediaBytes ?? 0;
  const docs = need.docs ?? 0;
  const totals = tx.$with("totals").as(
    tx
      .insert(usageTotals)
      .values({ userId, imageStorageBytes: img, mediaStorageBytes: media, docCount: docs, updatedAt: now })
      .onConflictDoUpdate({
        target: usageTotals.userId,
        set: {
          imageStorageBytes: sql`${usageTotals.imageStorageBytes} + ${img}`,
          mediaStorageBytes: sql`${usageTotals.mediaStorageBytes} + ${media}`,
          docCount: sql`${usageTotals.docCount} + ${docs}`,
          updatedAt: now,
        },
        setWhere: and(
          fits(usageTotals.imageStorageBytes, img, limits.imageStorageBytes),
          fits(usageTotals.mediaStorageBytes, media, limits.mediaStorageBytes),
          fits(usageTotals.docCount, docs, limits.docCount),
        ),
      })
      .returning({ userId: usageTotals.userId }),
  );
  // An upload counts one against the day and the month; other needs leave those alone.
  const day = tx.$with("day").as(
    tx
      .insert(usageDaily)
      .values({ userId, day: dayKey(now), uploads: 1 })
      .onConflictDoUpdate({
        target: [usageDaily.userId, usageDaily.day],
        set: { uploads: sql`${usageDaily.uploads} + 1` },
        setWhere: fits(usageDaily.uploads, 1, limits.uploadsPerDay),
      })
      .returning({ userId: usageDaily.userId }),
  );
  const month = tx.$with("month").as(
    tx
      .insert(usageMonthly)
      .values({ userId, month: monthKey(now), uploads: 1 })
      .onConflictDoUpdate({
        target: [usageMonthly.userId, usageMonthly.month],
        set: { uploads: sql`${usageMonthly.uploads} + 1` },
        setWhere: fits(usageMonthly.uploads, 1, limits.uploadsPerMonth),
      })
      .returning({ userId: usageMonthly.userId }),
  );
  const moved = (cte: SQLWrapper) => (need.upload || cte === totals ? sql<boolean>`exists (select from ${cte})` : sql<boolean>`true`);
  const [row] = await tx
    .with(...(need.upload ? [totals, day, month] : [totals]))
    .select({ totals: moved(totals), day: moved(day), month: moved(month) })
    .from(sql`(values (1)) as one`);
  if (row!.totals && row!.day && row!.month) return;

  // Refused. Report the counter that did not move, at its value now; the ones that did
  // move are taken back out first, so the report is what the check saw.
  const u = await snapshotUsage(tx, userId, now);
  if (row!.totals) Object.assign(u, { imageStorageBytes: u.imageStorageBytes - img, mediaStorageBytes: u.mediaStorageBytes - media, docCount: u.docCount - docs });
  if (need.upload && row!.day) u.uploadsToday -= 1;
  if (need.upload && row!.month) u.uploadsMonth -= 1;
  // Unless a delete made room between the two statements: nothing to report but the race.
  throw refusal(u, limits, need, now) ?? new AppError("CONFLICT", "usage changed during the request; try again");
}

/** Gives back storage and counts when rows are deleted (same transaction as the delete). */
export async function release(tx: DbOrTx, userId: string, freed: Omit<Need, "upload">, now: Date) {
  const img = freed.imageBytes ?? 0;
  const media = freed.mediaBytes ?? 0;
  const docs = freed.docs ?? 0;
  if (!img && !media && !docs) return;
  await tx
    .update(usageTotals)
    .set({
      imageStorageBytes: sql`greatest(0, ${usageTotals.imageStorageBytes} - ${img})`,
      mediaStorageBytes: sql`greatest(0, ${usageTotals.mediaStorageBytes} - ${media})`,
      docCount: sql`greatest(0, ${usageTotals.docCount} - ${docs})`,
      updatedAt: now,
    })
    .where(eq(usageTotals.userId, userId));
}

/** Adds attributed bandwidth to a user's month (the hourly attribution job). */
export async function addBandwidth(db: DbOrTx, userId: string, month: string, add: { imageBytes?: number; mediaBytes?: number }) {
  const image = add.imageBytes ?? 0;
  const media = add.mediaBytes ?? 0;
  await db
    .insert(usageMonthly)
    .values({ userId, month, imageBandwidthBytes: image, mediaBandwidthBytes: media })
    .onConflictDoUpdate({
      target: [usageMonthly.userId, usageMonthly.month],
      set: {
        imageBandwidthBytes: sql`${usageMonthly.imageBandwidthBytes} + ${image}`,
        mediaBandwidthBytes: sql`${usageMonthly.mediaBandwidthBytes} + ${media}`,
      },
    });
}
