// Where the counters a row change moves go: the usage ledger (doc_count, img_storage,
// revisions) and its KB's counts and stamp. Directly, one statement per move, for a single
// change (directBooks); or gathered over a sync batch and written once at its end, in its
// transaction (the kbs module's BatchBooks): a 100-op push would otherwise run two or three
// counter statements per op where the row itself takes one.
import type { Tx } from "../../../infra/db/index.ts";
import type { PlanLimits } from "../../identity/public.ts";
import { release, reserve } from "../../usage/public.ts";
import { pruneHistory } from "./history.ts";
import { type KbDelta, moveKbCounts } from "../kbs/service.ts";
import type { DocumentRow } from "./table.ts";

/** Amounts by what they count, as the ledger takes them ({ docs: 1, imageBytes: 2048 }). */
export type UsageNeed = Parameters<typeof reserve>[3];

export interface Books {
  /** Counts a need against the plan (a LimitRefusal when it does not fit). */
  reserve(tx: Tx, need: UsageNeed): Promise<void>;
  /** Gives back what a change freed. */
  release(tx: Tx, freed: UsageNeed): Promise<void>;
  /** Moves the KB's counts; the stamp the change takes (the KB's next updatedAt). */
  moveKb(tx: Tx, kbId: string, delta: KbDelta): Promise<Date>;
  /**
   * A revision was saved: the account's history is brought back within the plan's cap
   * (history.ts) once its counter holds the revision. Returns the pruned revisions' objects
   * (none yet when the pruning waits for the end of a batch).
   */
  fitHistory(tx: Tx): Promise<string[]>;
  /** Books that write a batch's rows at its end: the new row, returned as that write will leave it. */
  insertLater?(row: DocumentRow): DocumentRow;
  /** Books that write a batch's rows at its end: a row's new content (`set`: the columns it changes), returned as that write will leave it. */
  updateLater?(row: DocumentRow, set: readonly (keyof DocumentRow)[]): DocumentRow;
}

/** Every move written as it happens. */
export function directBooks(actor: { userId: string; now: Date; limits?: PlanLimits }): Books {
  return {
    reserve(tx, need) {
      if (!actor.limits) throw new Error("a reservation needs the plan's limits");
      return reserve(tx, actor.userId, actor.limits, need, actor.now);
    },
    release: (tx, freed) => release(tx, actor.userId, freed),
    moveKb: (tx, kbId, delta) => moveKbCounts(tx, kbId, delta, actor.now),
    fitHistory(tx) {
      if (!actor.limits) throw new Error("keeping history within its cap needs the plan's limits");
      return pruneHistory(tx, actor.userId, actor.limits.revisionBytes);
    },
  };
}
