// Bandwidth is measured after it was served (the media edge tallies it, a job attributes
// it hourly), so it is added to the ledger in batches and never refused here.
import { and, eq, gt, lt } from "drizzle-orm";
import { monthKey } from "../../infra/clock.ts";
import type { DbOrTx } from "../../infra/db/index.ts";
import { getUser, PLAN_NAMES, type Plans } from "../identity/public.ts";
import { type BandwidthDimension, DIMENSIONS, type Dimension, limitOf, TOTAL } from "./dimensions.ts";
import { ledger } from "./ledger.ts";
import { crossedMarks, type Move, tellQuotaCrossings } from "./notify.ts";
import { bandwidthClaims, usageCounters } from "./table.ts";

export interface BandwidthEntry {
  ownerId: string;
  /** "YYYY-MM", UTC: the month the bytes were served in. */
  month: string;
  /** "YYYY-MM-DD", UTC, within `month`: the day, also counted on its own (the usage chart). None: the month only. */
  day?: string;
  dimension: BandwidthDimension;
  bytes: number;
}

/** A batch's id: a batch whose id was committed before adds nothing. */
export interface BandwidthBatch {
  id: string;
  at: Date;
}

/** What the quota marks are measured against, and when (the current month's only). */
export interface BandwidthQuota {
  plans: Plans;
  now: Date;
}

/** Committed batch ids are kept this long: far longer than a batch can wait for a retry. */
const KEEP_BATCH_IDS_MS = 30 * 86_400_000;
const MONTH_KEY = /^\d{4}-\d{2}$/;

/**
 * Adds each entry's bytes to its owner's month and, given its day, to that day's counter of
 * the same dimension, in one statement, within the caller's transaction. Entries for the same owner, month and dimension are summed; owners deleted
 * since they were served are skipped. Given a batch, the batch's id commits with the counts,
 * so a batch retried after a crash is counted once. Given the plans, a count of the
 * current month that goes past a mark of its dimension is told to the owner, in
 * the same transaction. Returns what was counted.
 */
export async function addBandwidthBatch(tx: DbOrTx, entries: readonly BandwidthEntry[], batch?: BandwidthBatch, quota?: BandwidthQuota) {
  if (batch) {
    const [fresh] = await tx.insert(bandwidthClaims).values({ id: batch.id, committedAt: batch.at }).onConflictDoNothing().returning();
    await tx.delete(bandwidthClaims).where(lt(bandwidthClaims.committedAt, new Date(batch.at.getTime() - KEEP_BATCH_IDS_MS)));
    if (!fresh) return [];
  }
  const counts = entries.flatMap((e) => {
    const month = { userId: e.ownerId, dimension: e.dimension, period: e.month, amount: e.bytes };
    return e.day ? [month, { ...month, period: e.day }] : [month];
  });
  // Quota marks and what the callers are told are the month's: the day counters only measure.
  const counted = (await ledger.add(tx, counts)).filter((c) => MONTH_KEY.test(c.period));
  if (quota) await tellBandwidthCrossings(tx, entries, counted, quota);
  return counted.map((c) => ({ ownerId: c.userId, month: c.period, dimension: c.dimension as BandwidthDimension }));
}

/**
 * Every user holding media storage now, with the bytes held: what a provider's reported
 * egress is split by (in proportion to each user's storage).
 */
export function mediaStorageHolders(db: DbOrTx): Promise<{ ownerId: string; bytes: number }[]> {
  return db
    .select({ ownerId: usageCounters.userId, bytes: usageCounters.value })
    .from(usageCounters)
    .where(and(eq(usageCounters.period, TOTAL), eq(usageCounters.dimension, "media_storage"), gt(usageCounters.value, 0)));
}

const byName = new Map<string, Dimension>(DIMENSIONS.map((d) => [d.name, d]));

/**
 * The marks the counted entries crossed. A counter below its first mark under the
 * smallest limit any plan gives cannot have crossed one: the owner's plan is read only
 * for the counters past that, so an hour of counts for many owners costs no more reads
 * until some of them near a mark.
 */
async function tellBandwidthCrossings(
  tx: DbOrTx,
  entries: readonly BandwidthEntry[],
  counted: readonly { userId: string; dimension: string; period: string; value: number }[],
  { plans, now }: BandwidthQuota,
) {
  const month = monthKey(now);
  const added = new Map<string, number>();
  const key = (userId: string, dimension: string, period: string) => `${userId}\n${dimension}\n${period}`;
  for (const e of entries) {
    if (e.bytes <= 0) continue;
    const k = key(e.ownerId, e.dimension, e.month);
    added.set(k, (added.get(k) ?? 0) + e.bytes);
  }
  const moves: Move[] = [];
  for (const c of counted) {
    const d = byName.get(c.dimension);
    if (!d?.warnAt?.length || c.period !== month) continue;
    const limits = PLAN_NAMES.map((p) => limitOf(d, plans[p])).filter((l) => l > 0);
    if (!limits.length || c.value < (Math.min(...limits) * Math.min(...d.warnAt)) / 100) continue;
    const user = await getUser(tx, c.userId);
    if (!user) continue;
    const move = {
      userId: c.userId,
      dimension: d,
      period: c.period,
      limit: limitOf(d, plans[user.plan]),
      before: c.value - (added.get(key(c.userId, c.dimension, c.period)) ?? 0),
      after: c.value,
    };
    if (crossedMarks(move).length) moves.push(move);
  }
  await tellQuotaCrossings(tx, moves, now);
}
