// The usage ledger and the one quota check. Features call reserve() inside the
// transaction that inserts the rows being counted, and release() inside the one that
// deletes them, so counters and rows never disagree.
import { and, eq, sql } from "drizzle-orm";
import { AppError } from "../../http/errors.ts";
import { dayKey, monthKey } from "../../infra/clock.ts";
import type { DbOrTx } from "../../infra/db/index.ts";
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

const secondsUntil = (from: Date, to: Date) => Math.max(1, Math.ceil((to.getTime() - from.getTime()) / 1000));
const nextDay = (d: Date) => new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate() + 1));
const nextMonth = (d: Date) => new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1));

function uploadLimitError(period: "day" | "month", used: number, limit: number, now: Date) {
  const resetAt = period === "day" ? nextDay(now) : nextMonth(now);
  const retryAfter = secondsUntil(now, resetAt);
  return new AppError(
    "RATE_LIMITED",
    `upload limit per ${period} reached`,
    { type: period === "day" ? "uploads_per_day" : "uploads_per_month", used, limit, resetAt: resetAt.toISOString() },
    { "retry-after": String(retryAfter) },
  );
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

/**
 * Totals plus this day's and this month's counters, in one query. With `lock`, the
 * totals row is locked first, for the rest of the transaction, and read after: a
 * statement that waited for the lock reads the other tables as they were before it
 * waited (Postgres re-reads only the locked row), so the lock must be its own statement.
 */
async function readUsage(db: DbOrTx, userId: string, now: Date, lock: boolean) {
  if (lock) {
    const [locked] = await db.select({ userId: usageTotals.userId }).from(usageTotals).where(eq(usageTotals.userId, userId)).for("update");
    if (!locked) return { ...EMPTY, exists: false };
  }
  const [row] = await db
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
    .leftJoin(usageDaily, and(eq(usageDaily.userId, usageTotals.userId), eq(usageDaily.day, dayKey(now))))
    .leftJoin(usageMonthly, and(eq(usageMonthly.userId, usageTotals.userId), eq(usageMonthly.month, monthKey(now))))
    .where(eq(usageTotals.userId, userId));
  if (!row) return { ...EMPTY, exists: false };
  // The day's and month's rows exist only once something was counted in them.
  return {
    ...row,
    uploadsToday: row.uploadsToday ?? 0,
    uploadsMonth: row.uploadsMonth ?? 0,
    imageBandwidthBytes: row.imageBandwidthBytes ?? 0,
    mediaBandwidthBytes: row.mediaBandwidthBytes ?? 0,
    exists: true,
  };
}
export type UsageSnapshot = Awaited<ReturnType<typeof readUsage>>;

export const snapshotUsage = (db: DbOrTx, userId: string, now: Date) => readUsage(db, userId, now, false);

/** Throws QUOTA_EXCEEDED (or 429 for upload counts) when `need` does not fit in `u`. */
export function assertFits(u: UsageSnapshot, limits: PlanLimits, need: Need, now: Date) {
  if (over(limits.imageStorageBytes, u.imageStorageBytes, need.imageBytes ?? 0)) throw quotaError("img_storage", u.imageStorageBytes, limits.imageStorageBytes);
  if (over(limits.mediaStorageBytes, u.mediaStorageBytes, need.mediaBytes ?? 0)) throw quotaError("media_storage", u.mediaStorageBytes, limits.mediaStorageBytes);
  if (over(limits.docCount, u.docCount, need.docs ?? 0)) throw quotaError("doc_count", u.docCount, limits.docCount);
  if (need.upload) {
    if (over(limits.uploadsPerDay, u.uploadsToday, 1)) throw uploadLimitError("day", u.uploadsToday, limits.uploadsPerDay, now);
    if (over(limits.uploadsPerMonth, u.uploadsMonth, 1)) throw uploadLimitError("month", u.uploadsMonth, limits.uploadsPerMonth, now);
  }
}

/**
 * Refuses early, before any work or storage, when the need cannot fit; returns the usage
 * it read, so later checks of the same request need no query. Not authoritative.
 */
export async function precheck(db: DbOrTx, userId: string, limits: PlanLimits, need: Need, now: Date): Promise<UsageSnapshot> {
  const usage = await readUsage(db, userId, now, false);
  assertFits(usage, limits, need, now);
  return usage;
}

/**
 * The authoritative check: locks the user's totals row, refuses what does not fit and
 * counts what does. Must run inside the transaction that writes the counted rows, so
 * concurrent uploads at the edge of a quota never end above it.
 */
export async function reserve(tx: DbOrTx, userId: string, limits: PlanLimits, need: Need, now: Date) {
  let usage = await readUsage(tx, userId, now, true);
  if (!usage.exists) {
    // Accounts get their row at sign-up; this covers any made before the ledger.
    await ensureUsageRow(tx, userId, now);
    usage = await readUsage(tx, userId, now, true);
  }
  assertFits(usage, limits, need, now);
  await adjustTotals(tx, userId, need, 1, now);
  if (need.upload) {
    await tx
      .insert(usageDaily)
      .values({ userId, day: dayKey(now), uploads: 1 })
      .onConflictDoUpdate({ target: [usageDaily.userId, usageDaily.day], set: { uploads: sql`${usageDaily.uploads} + 1` } });
    await tx
      .insert(usageMonthly)
      .values({ userId, month: monthKey(now), uploads: 1 })
      .onConflictDoUpdate({ target: [usageMonthly.userId, usageMonthly.month], set: { uploads: sql`${usageMonthly.uploads} + 1` } });
  }
}

/** Gives back storage and counts when rows are deleted (same transaction as the delete). */
export async function release(tx: DbOrTx, userId: string, freed: Omit<Need, "upload">, now: Date) {
  await adjustTotals(tx, userId, freed, -1, now);
}

async function adjustTotals(tx: DbOrTx, userId: string, n: Need, sign: 1 | -1, now: Date) {
  const img = (n.imageBytes ?? 0) * sign;
  const media = (n.mediaBytes ?? 0) * sign;
  const docs = (n.docs ?? 0) * sign;
  if (!img && !media && !docs) return;
  await tx
    .update(usageTotals)
    .set({
      imageStorageBytes: sql`greatest(0, ${usageTotals.imageStorageBytes} + ${img})`,
      mediaStorageBytes: sql`greatest(0, ${usageTotals.mediaStorageBytes} + ${media})`,
      docCount: sql`greatest(0, ${usageTotals.docCount} + ${docs})`,
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
