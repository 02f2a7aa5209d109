// The plan's cap on an account's version history (`revisionBytes`, identity's plans.ts). The
// interface bounds history by a count per document only, so 500 versions of every document could
// hold many times the account's storage; the cap bounds the bytes of all of them together.
// A write never fails for it: the account's oldest revisions make room, in the transaction
// that saves the new one (row-changes.ts saveRevision, the one place a revision is saved, reaches
// this through its books: at once, or once at the end of a sync batch).
import { and, asc, eq, inArray } from "drizzle-orm";
import type { Tx } from "../../../infra/db/index.ts";
import { counterTotal, release } from "../../usage/public.ts";
import { docRevisions } from "./table.ts";

/** The oldest revisions read per step; one or two make room for a new one as a rule. */
const STEP = 32;

/**
 * Whether a revision of `sizeBytes` can be kept under `cap` (-1: no cap). One larger than
 * the whole cap could only stay by pruning itself, so it is not kept at all.
 */
export const keepsInHistory = (sizeBytes: number, cap: number) => cap < 0 || sizeBytes <= cap;

/**
 * Deletes the account's oldest revisions (oldest createdAt first, then revNumber, across
 * all its documents) until its revision_bytes counter is within `cap`, and gives back what
 * they held in the same transaction. Runs after the new revisions were reserved in the
 * caller's transaction, which then holds the counter's row lock: the value read is exact
 * and no other writer of the account's history prunes at the same time. Rows another
 * transaction is deleting (clear-all, a hard delete) are skipped rather than waited on,
 * since that one waits for the counter this one holds; their bytes are still counted, so
 * the cap holds whether or not that delete commits. Returns the pruned revisions' objects,
 * to remove once the transaction has committed.
 */
export async function pruneHistory(tx: Tx, userId: string, cap: number): Promise<string[]> {
  if (cap < 0) return [];
  let over = (await counterTotal(tx, userId, "revision_bytes")) - cap;
  const freed: string[] = [];
  let count = 0;
  let bytes = 0;
  while (over > 0) {
    const oldest = await tx
      .select({ id: docRevisions.id, sizeBytes: docRevisions.sizeBytes })
      .from(docRevisions)
      .where(eq(docRevisions.ownerId, userId))
      .orderBy(asc(docRevisions.createdAt), asc(docRevisions.revNumber), asc(docRevisions.id))
      .limit(STEP)
      .for("update", { skipLocked: true });
    if (!oldest.length) break;
    const take: string[] = [];
    for (const r of oldest) {
      if (over <= 0) break;
      take.push(r.id);
      over -= r.sizeBytes;
    }
    const gone = await tx
      .delete(docRevisions)
      .where(and(eq(docRevisions.ownerId, userId), inArray(docRevisions.id, take)))
      .returning({ sizeBytes: docRevisions.sizeBytes, objectKey: docRevisions.objectKey });
    count += gone.length;
    for (const r of gone) {
      bytes += r.sizeBytes;
      if (r.objectKey) freed.push(r.objectKey);
    }
  }
  if (count) await release(tx, userId, { revisions: count, revisionBytes: bytes });
  return freed;
}
