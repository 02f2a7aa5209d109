// What the knowledge-base features (manifest, sync, raw by path, tombstones, conflict
// branches) read of the documents table: a KB path's row, locked or not, a manifest page,
// a KB's active documents as a subquery, a document by id. Queries only: they move no books.
import { and, eq, inArray, or, type SQL, type SQLWrapper, sql } from "drizzle-orm";
import { type KeysetQuery, keysetPage } from "../../../core/cursor.ts";
import type { DbOrTx, Tx } from "../../../infra/db/index.ts";
import { type DocumentRow, docColumns, documents } from "./table.ts";

/** The document at a KB path (by its case-folded key), active or soft-deleted, locked until the transaction ends. */
export async function lockAtPath(tx: Tx, q: { userId: string; kbId: string; pathKey: string }): Promise<DocumentRow | undefined> {
  const [row] = await tx
    .select(docColumns)
    .from(documents)
    .where(and(eq(documents.ownerId, q.userId), eq(documents.kbId, q.kbId), eq(documents.pathKey, q.pathKey)))
    .for("update");
  return row;
}

/**
 * The documents at several KB paths (by key), and those of the KB with the given ids,
 * active or soft-deleted, locked until the transaction ends, in one statement (in id
 * order, as every lock of several rows is taken). Keyed by path key.
 */
export async function lockAtPaths(tx: Tx, q: { userId: string; kbId: string; pathKeys: string[]; ids?: string[] }): Promise<Map<string, DocumentRow>> {
  const atPaths = inArray(documents.pathKey, [...new Set(q.pathKeys)]);
  const rows = await tx
    .select(docColumns)
    .from(documents)
    .where(and(eq(documents.ownerId, q.userId), eq(documents.kbId, q.kbId), q.ids?.length ? or(atPaths, inArray(documents.id, [...new Set(q.ids)])) : atPaths))
    .orderBy(documents.id)
    .for("update");
  return new Map(rows.map((r) => [r.pathKey!, r]));
}

/** The paths of a KB's documents by id, unlocked (to describe an update's text before its transaction). */
export async function pathsOfIds(db: DbOrTx, q: { userId: string; kbId: string; ids: string[] }): Promise<Map<string, string>> {
  if (!q.ids.length) return new Map();
  const rows = await db
    .select({ id: documents.id, relativePath: documents.relativePath })
    .from(documents)
    .where(and(eq(documents.ownerId, q.userId), eq(documents.kbId, q.kbId), inArray(documents.id, [...new Set(q.ids)])));
  return new Map(rows.map((r) => [r.id, r.relativePath!]));
}

/** The active document at a KB path, unlocked (raw by path). */
export async function activeAtKbPath(db: DbOrTx, q: { userId: string; kbId: string; pathKey: string }): Promise<DocumentRow | undefined> {
  const [row] = await db
    .select(docColumns)
    .from(documents)
    .where(and(eq(documents.ownerId, q.userId), eq(documents.kbId, q.kbId), eq(documents.pathKey, q.pathKey), sql`${documents.deletedAt} is null`));
  return row;
}

/**
 * One manifest page: the KB's documents (and files, unless `documentsOnly`: sync v1 never
 * sees them), soft-deleted included, oldest change first, in (updated_at, id) order after
 * the cursor, changed after `since` when given. Walks the index (kb_id, updated_at, id)
 * backwards; the owner and format filters are checked on the rows read.
 */
export function manifestRows(db: DbOrTx, q: ManifestPageQuery) {
  return keysetPage(db, manifestQuery(q), (row) => row as unknown as ManifestRow);
}

/** A manifest entry's row: its times as the ISO text the answer prints (KeysetQuery.isoTimes). */
export type ManifestRow = Pick<DocumentRow, "id" | "relativePath" | "sourceHash" | "sizeBytes" | "format"> & { updatedAt: string; deletedAt: string | null };

interface ManifestPageQuery {
  userId: string;
  kbId: string;
  since?: Date;
  cursor?: string;
  limit: number;
  documentsOnly?: boolean;
}

/** The keyset query of a manifest page (its plan is tested: a walk of the KB's index). */
export function manifestQuery(
  q: ManifestPageQuery,
): KeysetQuery<typeof documents, "id" | "relativePath" | "sourceHash" | "sizeBytes" | "format" | "updatedAt" | "deletedAt"> {
  // After a cursor, `since` is left to it: a cursor of a `since` walk is past `since`
  // already, and a second bound on updated_at makes the planner sort a bitmap scan instead
  // of walking the index. (A cursor from another walk can only add entries, never drop one.)
  const since = q.cursor ? undefined : q.since;
  const params: Record<string, unknown> = { userId: q.userId, kbId: q.kbId };
  if (since) params.since = since.toISOString();
  return {
    from: documents,
    shape: `${since ? "manifest_since" : "manifest"}${q.documentsOnly ? "_documents" : ""}`,
    where: () =>
      and(
        eq(documents.kbId, sql.placeholder("kbId")),
        eq(documents.ownerId, sql.placeholder("userId")),
        since ? sql`${documents.updatedAt} > ${sql.placeholder("since")}::timestamptz` : undefined,
        q.documentsOnly ? sql`${documents.format} <> 'file'` : undefined,
      ),
    params,
    sort: ["updatedAt", "id"],
    columns: ["id", "relativePath", "sourceHash", "sizeBytes", "format", "updatedAt", "deletedAt"],
    direction: "asc",
    isoTimes: true,
    cursor: q.cursor,
    limit: q.limit,
  };
}

/**
 * The active documents of a KB, as a subquery with the columns a tombstone keeps (id,
 * owner_id, kb_id, relative_path, path_key, source_hash, kind): the KB side writes all
 * their tombstones in one statement when the KB goes.
 */
export const activeInKbSql = (userId: string, kbId: string): SQL =>
  sql`select ${documents.id} as id, ${documents.ownerId} as owner_id, ${documents.kbId} as kb_id, ${documents.relativePath} as relative_path,
         ${documents.pathKey} as path_key, ${documents.sourceHash} as source_hash,
         case when ${documents.format} = 'file' then 'file' else 'document' end as kind
      from ${documents}
      where ${documents.ownerId} = ${userId} and ${documents.kbId} = ${kbId} and ${documents.deletedAt} is null`;

/**
 * Whether the path a tombstone names holds an active document changed after the tombstone
 * (which that document then replaces): a condition on the KB side's tombstone columns.
 */
export const replacedAfter = (t: { ownerId: SQLWrapper; kbId: SQLWrapper; pathKey: SQLWrapper; deletedAt: SQLWrapper }): SQL =>
  sql`exists (select 1 from ${documents} d where d.owner_id = ${t.ownerId} and d.kb_id = ${t.kbId}
        and d.path_key = ${t.pathKey} and d.deleted_at is null and d.updated_at > ${t.deletedAt})`;

/** The caller's document by id, active or soft-deleted (undefined once it is gone for good). */
export async function documentOf(db: DbOrTx, q: { userId: string; id: string }): Promise<DocumentRow | undefined> {
  const [row] = await db
    .select(docColumns)
    .from(documents)
    .where(and(eq(documents.id, q.id), eq(documents.ownerId, q.userId)));
  return row;
}
