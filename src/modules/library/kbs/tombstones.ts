// Tombstones: the record that a KB path lost its document, written in the transaction that
// deleted or moved it (documents' row changes) or deleted its KB
// (manage.ts), read by the v2 manifest, confirmed by tombstone_ack, and pruned past the
// owner's plan retention.
import { and, asc, eq, gt, lt, lte, not, sql } from "drizzle-orm";
import type { DbOrTx, Tx } from "../../../infra/db/index.ts";
import { newId } from "../../../infra/ids.ts";
import { activeInKbSql, replacedAfter } from "../documents/kb-rows.ts";
import { docTombstones, type EntryKind, type TombstoneRow } from "./table.ts";

/** Where a KB document was when it went away, and the stamp of that change. */
export interface Gone {
  ownerId: string;
  kbId: string;
  docId: string;
  relativePath: string;
  pathKey: string;
  sourceHash: string;
  kind: EntryKind;
  deletedAt: Date;
}

export async function writeTombstone(tx: Tx, gone: Gone): Promise<void> {
  await tx.insert(docTombstones).values({ id: newId(), ...gone });
}

/** One tombstone per active document of a KB, in the transaction that purges the KB (its stamp: `at`). */
export async function tombstoneKb(tx: Tx, userId: string, kbId: string, at: Date): Promise<void> {
  await tx.execute(sql`
    insert into ${docTombstones} (id, owner_id, kb_id, doc_id, relative_path, path_key, source_hash, kind, deleted_at)
    select substr(md5(random()::text || d.id), 1, 21), d.owner_id, d.kb_id, d.id, d.relative_path, d.path_key, d.source_hash, d.kind,
           ${at.toISOString()}::timestamptz
    from (${activeInKbSql(userId, kbId)}) as d`);
}

/**
 * A KB's tombstones with deletedAt in (after, upTo], oldest first. One whose path holds an
 * active document changed later is left out: the manifest lists that document, which
 * replaced what the tombstone says is gone.
 */
export async function tombstonesBetween(db: DbOrTx, q: { userId: string; kbId: string; after: Date | null; upTo: Date }): Promise<TombstoneRow[]> {
  const t = docTombstones;
  return db
    .select()
    .from(t)
    .where(and(eq(t.kbId, q.kbId), eq(t.ownerId, q.userId), q.after ? gt(t.deletedAt, q.after) : undefined, lte(t.deletedAt, q.upTo), not(replacedAfter(t))))
    .orderBy(asc(t.deletedAt), asc(t.id));
}

/** Records a client's confirmation of a document's tombstones in a KB; how many it named. */
export async function ackTombstones(tx: Tx, q: { userId: string; kbId: string; docId: string; relativePath?: string; at: Date }): Promise<number> {
  const t = docTombstones;
  const rows = await tx
    .update(t)
    .set({ ackedAt: q.at })
    .where(and(eq(t.kbId, q.kbId), eq(t.ownerId, q.userId), eq(t.docId, q.docId), q.relativePath ? eq(t.relativePath, q.relativePath) : undefined))
    .returning({ id: t.id });
  return rows.length;
}

/** The owners that have tombstones older than `before` (the shortest retention's boundary). */
export async function tombstoneOwners(db: DbOrTx, before: Date): Promise<string[]> {
  const rows = await db.selectDistinct({ ownerId: docTombstones.ownerId }).from(docTombstones).where(lt(docTombstones.deletedAt, before));
  return rows.map((r) => r.ownerId);
}

/** Deletes an owner's tombstones older than `before`; how many. */
export async function pruneTombstones(db: DbOrTx, ownerId: string, before: Date): Promise<number> {
  const gone = await db
    .delete(docTombstones)
    .where(and(eq(docTombstones.ownerId, ownerId), lt(docTombstones.deletedAt, before)))
    .returning({ id: docTombstones.id });
  return gone.length;
}
