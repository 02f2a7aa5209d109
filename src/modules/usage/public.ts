// What other modules and jobs use of the usage ledger.
import type { DbOrTx } from "../../infra/db/index.ts";
import { DIMENSIONS, TOTAL } from "./dimensions.ts";
import { ledger, type Need } from "./ledger.ts";

export { addBandwidthBatch, mediaStorageHolders } from "./bandwidth.ts";
export { mediaBandwidthMonth, recordBandwidthCrossings } from "./bandwidth-crossings.ts";
export { monthCounters, pruneCounters } from "./retention.ts";
export { type StoredKind, verifyUsage } from "./verify.ts";
export type { UsageSnapshot } from "./ledger.ts";
export { videoBandwidthState } from "./service.ts";
export { tellRefusal } from "./notify.ts";

/** Every counter of a user now: what the pre-checks read. */
export const snapshotUsage = ledger.snapshot;
/** One all-time counter of a user (a list's `total`). */
export const counterTotal = ledger.total;
/** Throws a LimitRefusal when a need does not fit a snapshot read earlier (a pre-check). */
export const assertFits = ledger.assertFits;
/** Counts a need in the transaction that writes its rows, or throws LimitRefusal. */
export const reserve = ledger.reserve;
/** Gives back what deleted rows held, in the transaction that deletes them. */
export const release = ledger.release;
/**
 * Counts bytes going to the trash (trash_bytes) in the transaction that trashes them; never
 * refused (the bytes were counted already). A restore or a purge gives them back with release.
 */
export const holdInTrash = (tx: DbOrTx, userId: string, bytes: number): Promise<void> => countAgain(tx, userId, { trashBytes: bytes });
/**
 * Counts again what a restore brings back into a count it had left (an image's place in
 * image_count), without a limit check: the bytes it holds never stopped counting.
 */
export async function countAgain(tx: DbOrTx, userId: string, need: Need): Promise<void> {
  const counts = DIMENSIONS.filter((d) => d.period === "total" && (need[d.counts] ?? 0) > 0).map((d) => ({
    userId,
    dimension: d.name,
    period: TOTAL,
    amount: need[d.counts]!,
  }));
  if (counts.length) await ledger.add(tx, counts);
}
export { orphanSweepJob } from "./orphan-sweep.job.ts";
export { usageVerifyJob } from "./verify.job.ts";
