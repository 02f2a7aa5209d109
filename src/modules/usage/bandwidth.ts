// Bandwidth is measured after it was served (the media edge tallies it, a job attributes
// it hourly), so it is added to the ledger in batches and never refused here.
import { and, eq, gt, lt } from "drizzle-orm";
import type { DbOrTx } from "../../infra/db/index.ts";
import type { BandwidthDimension } from "./dimensions.ts";
import { ledger } from "./ledger.ts";
import { TOTAL } from "./dimensions.ts";
import { bandwidthClaims, usageCounters } from "./table.ts";

export interface BandwidthEntry {
  ownerId: string;
  /** "YYYY-MM", UTC: the month the bytes were served in. */
  month: string;
  dimension: BandwidthDimension;
  bytes: number;
}

/** A batch's id: a batch whose id was committed before adds nothing. */
export interface BandwidthBatch {
  id: string;
  at: Date;
}

/** Committed batch ids are kept this long: far longer than a batch can wait for a retry. */
const KEEP_BATCH_IDS_MS = 30 * 86_400_000;

/**
 * Adds each entry's bytes to its owner's month, in one statement, within the caller's
 * transaction. Entries for the same owner, month and dimension are summed; owners deleted
 * since they were served are skipped. Given a batch, the batch's id commits with the counts,
 * so a batch retried after a crash is counted once. Returns what was counted.
 */
export async function addBandwidthBatch(tx: DbOrTx, entries: readonly BandwidthEntry[], batch?: BandwidthBatch) {
  if (batch) {
    const [fresh] = await tx.insert(bandwidthClaims).values({ id: batch.id, committedAt: batch.at }).onConflictDoNothing().returning();
    await tx.delete(bandwidthClaims).where(lt(bandwidthClaims.committedAt, new Date(batch.at.getTime() - KEEP_BATCH_IDS_MS)));
    if (!fresh) return [];
  }
  const counted = await ledger.add(
    tx,
    entries.map((e) => ({ userId: e.ownerId, dimension: e.dimension, period: e.month, amount: e.bytes })),
  );
  return counted.map((c) => ({ ownerId: c.userId, month: c.period, dimension: c.dimension as BandwidthDimension }));
}

/**
 * Every user holding media storage now, with the bytes held: what a provider's reported
 * egress is split by (SPEC 3.3a: in proportion to each user's storage).
 */
export function mediaStorageHolders(db: DbOrTx): Promise<{ ownerId: string; bytes: number }[]> {
  return db
    .select({ ownerId: usageCounters.userId, bytes: usageCounters.value })
    .from(usageCounters)
    .where(and(eq(usageCounters.period, TOTAL), eq(usageCounters.dimension, "media_storage"), gt(usageCounters.value, 0)));
}
