// What other modules and jobs use of the usage ledger.
import type { DbOrTx } from "../../infra/db/index.ts";
import { TOTAL } from "./dimensions.ts";
import { ledger } from "./ledger.ts";

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
export const holdInTrash = async (tx: DbOrTx, userId: string, bytes: number): Promise<void> => {
  if (bytes > 0) await ledger.add(tx, [{ userId, dimension: "trash_bytes", period: TOTAL, amount: bytes }]);
};
export { orphanSweepJob } from "./orphan-sweep.job.ts";
export { usageVerifyJob } from "./verify.job.ts";
