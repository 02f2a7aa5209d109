// The books of a sync batch: every counter move of its ops gathered and written once at its
// end, in its transaction, with its new and replaced rows (documents' Books, deferred).
import type { Tx } from "../../../infra/db/index.ts";
import type { PlanLimits } from "../../identity/public.ts";
import type { Books, UsageNeed } from "../documents/counters.ts";
import type { DocumentRow } from "../documents/table.ts";
import { insertRows, updateRows } from "../documents/bulk-write.ts";
import type { KbDelta } from "./service.ts";
import { pruneHistory } from "../documents/history.ts";
import { release, reserve } from "../../usage/public.ts";
import { nextStampAfter, setKbMoves } from "./service.ts";

const add = (into: Record<string, number>, need: UsageNeed) => {
  for (const [k, v] of Object.entries(need)) if (v) into[k] = (into[k] ?? 0) + v;
};

/**
 * The moves of a batch of changes to one KB's documents, held by the transaction that took
 * the KB's lock (`kb` is the row it locked), written by flush() before it commits.
 *
 * Reservations are summed, releases apart: flush() checks the sum of every growth against
 * the plan in the ledger's one conditional statement. When it fits, every op's own check
 * would have passed in any order (each prefix of the batch grows by at most the sum), so
 * the batch's outcome is the op-by-op one. When it does not, flush() throws the refusal and
 * the caller runs the batch again op by op, where each op is checked and skipped on its own.
 *
 * Stamps are those moveKbCounts would give, computed here: the transaction holds the KB's
 * lock, so the row's updatedAt is the last stamp, and each change takes the next one.
 */
export class BatchBooks implements Books {
  private readonly reserved: Record<string, number> = {};
  private readonly released: Record<string, number> = {};
  private readonly kbDelta: Required<KbDelta> = { docs: 0, files: 0, bytes: 0 };
  private last: Date;
  private moved = false;
  private historyGrew = false;
  private readonly inserts: DocumentRow[] = [];
  /** Replaced contents by document id (a later one of the same row wins), and the columns they set. */
  private readonly updates = new Map<string, DocumentRow>();
  private updated: readonly (keyof DocumentRow)[] = [];
  private readonly pendingPaths = new Set<string>();

  constructor(
    private readonly actor: { userId: string; now: Date; limits: PlanLimits },
    private readonly kb: { id: string; updatedAt: Date },
  ) {
    this.last = kb.updatedAt;
  }

  async reserve(_tx: Tx, need: UsageNeed): Promise<void> {
    add(this.reserved, need);
  }

  async release(_tx: Tx, freed: UsageNeed): Promise<void> {
    add(this.released, freed);
  }

  async moveKb(_tx: Tx, kbId: string, delta: KbDelta): Promise<Date> {
    if (kbId !== this.kb.id) throw new Error("a batch moves the counts of its own KB only");
    this.kbDelta.docs += delta.docs;
    this.kbDelta.files += delta.files ?? 0;
    this.kbDelta.bytes += delta.bytes;
    this.last = nextStampAfter(this.last, this.actor.now);
    this.moved = true;
    return this.last;
  }

  /** The batch's revisions are counted at its end, so its history is pruned there too, once. */
  async fitHistory(_tx: Tx): Promise<string[]> {
    this.historyGrew = true;
    return [];
  }

  /**
   * A new document, inserted with the batch's other new ones in one statement by flush():
   * the row is returned as that insert will write it (every column is given).
   */
  insertLater(row: DocumentRow): DocumentRow {
    this.inserts.push(row);
    if (row.pathKey !== null) this.pendingPaths.add(row.pathKey);
    return row;
  }

  /**
   * A document's new content, written with the batch's other replacements in one statement
   * by flush(): `row` is the row as that update leaves it, `set` the columns it changes.
   */
  updateLater(row: DocumentRow, set: readonly (keyof DocumentRow)[]): DocumentRow {
    this.updates.set(row.id, row);
    this.updated = set;
    if (row.pathKey !== null) this.pendingPaths.add(row.pathKey);
    return row;
  }

  /** A later op of the batch at `pathKey` changes a row only once the rows written before it at that path are. */
  async beforeOpAt(tx: Tx, pathKey: string): Promise<void> {
    if (this.pendingPaths.has(pathKey)) await this.writeRows(tx);
  }

  private async writeRows(tx: Tx): Promise<void> {
    await insertRows(tx, this.inserts.splice(0));
    await updateRows(tx, [...this.updates.values()], this.updated);
    this.updates.clear();
    this.pendingPaths.clear();
  }

  /** The KB's updatedAt once the batch is written: its last change's stamp, else the locked row's. */
  get stamp(): Date {
    return this.last;
  }

  /**
   * Writes the batch's new and replaced rows and moves in its transaction, then brings the
   * account's history within its cap; throws the ledger's LimitRefusal (or LimitRaced) when
   * the growth does not fit. Returns the objects of the revisions pruned, to remove once
   * the transaction has committed.
   */
  async flush(tx: Tx): Promise<string[]> {
    await this.writeRows(tx);
    if (Object.keys(this.reserved).length) await reserve(tx, this.actor.userId, this.actor.limits, this.reserved, this.actor.now);
    if (Object.keys(this.released).length) await release(tx, this.actor.userId, this.released);
    if (this.moved) await setKbMoves(tx, this.kb.id, this.kbDelta, this.last);
    return this.historyGrew ? pruneHistory(tx, this.actor.userId, this.actor.limits.revisionBytes) : [];
  }
}
