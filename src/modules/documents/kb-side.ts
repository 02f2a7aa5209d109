// What a document in a knowledge base needs of its KB. The kbs module, the KB side of
// documents, provides it (kbs/kb-side.ts): kbs depends on documents, never the other way,
// so documents names what it needs here and kbs hands it over when it is loaded.
import type { SQL } from "drizzle-orm";
import type { PgColumn, PgTable } from "drizzle-orm/pg-core";
import type { DbOrTx, Tx } from "../../infra/db/index.ts";

/** How a change moves a KB's counts. */
export interface KbDelta {
  docs: number;
  bytes: number;
}

/** Where a KB document was when it went away, and the stamp of that change. */
export interface Gone {
  ownerId: string;
  kbId: string;
  docId: string;
  relativePath: string;
  pathKey: string;
  sourceHash: string;
  deletedAt: Date;
}

/**
 * Rows of another table that hold objects under documents' prefix (a conflict branch's
 * content is stored as a document's is): the orphan sweep and usage verify read them with
 * documents' own, in one statement.
 */
interface ObjectHolder {
  table: PgTable;
  key: PgColumn;
  owner: PgColumn;
  bytes: PgColumn;
  /** The rows that count in the usage ledger (img_storage and their own count). */
  counted: SQL;
}

export interface KbSide {
  /** Locks the caller's KB until the transaction ends (its row lock orders every change of its documents); 404 for another's. */
  lock(tx: Tx, q: { userId: string; id: string }): Promise<void>;
  /** 404 unless the KB is the caller's. */
  check(db: DbOrTx, q: { userId: string; id: string }): Promise<void>;
  /** Moves the KB's counts; the stamp the change takes (the KB's next updatedAt). */
  moveCounts(tx: Tx, kbId: string, delta: KbDelta, now: Date): Promise<Date>;
  /** Records that a document left its KB path, in the transaction that moved it. */
  tombstone(tx: Tx, gone: Gone): Promise<void>;
  /** Deletes a document's conflict branches with it; their objects, to remove after the commit. */
  purgeDocBranches(tx: Tx, userId: string, docId: string): Promise<string[]>;
  /** The conflict branches, as holders of documents' objects. */
  branchObjects: ObjectHolder;
}

let provided: KbSide | undefined;

/** Called once by the kbs module as it loads. */
export function provideKbSide(side: KbSide): void {
  provided = side;
}

export function kbSide(): KbSide {
  if (!provided) throw new Error("the kbs module is not loaded: a document in a KB needs it (import src/modules/kbs/public.ts)");
  return provided;
}
