// Documents as the operator work sees them (usage StoredKind): a text past the inline size
// is one object under docs/<owner>/ (content.ts), named by the document, the revision or
// the pending conflict branch that holds it. Counted: live documents in doc_count and
// img_storage, with pending branches' bytes (conflict_branches); revisions in
// revision_count and revision_bytes; trashed documents and the files of trashed KBs in
// trash_bytes (trashed documents stay counted in the rest too). KB files' rows and file branches hold no object
// here and count no bytes: their blobs are the files kind's (files/stored-kind.ts).
import { and, count, eq, inArray, isNotNull, isNull, or, sql, type SQL } from "drizzle-orm";
import type { PgColumn, PgTable } from "drizzle-orm/pg-core";
import { type DbOrTx, rowsOf } from "../../../infra/db/index.ts";
import type { StoredKind } from "../../usage/public.ts";
import { conflictBranches } from "../kbs/table.ts";
import { docRevisions, documents, documentsOnly } from "./table.ts";

/**
 * Every table whose rows name an object under docs/: documents', their revisions' and the
 * conflict branches' (a branch's text is stored as a document's is).
 */
const holders: readonly { table: PgTable; key: PgColumn }[] = [
  { table: documents, key: documents.objectKey },
  { table: docRevisions, key: docRevisions.objectKey },
  { table: conflictBranches, key: conflictBranches.objectKey },
];

/** The three tables' object keys after a cursor (the order and the cursor use one collation). */
const named = (after: string | null) =>
  sql.join(
    holders.map((h) => sql`select ${h.key} as k from ${h.table} where ${isNotNull(h.key)}${after === null ? sql`` : sql` and ${h.key} > ${after}`}`),
    sql` union `,
  );

/** Per owner of `userIds`: the rows of `table` that `where` keeps, counted and their bytes summed. */
async function sumsOf(db: DbOrTx, table: PgTable, owner: PgColumn, bytes: PgColumn, userIds: readonly string[], where?: SQL) {
  const rows = await db
    .select({ ownerId: sql<string>`${owner}`, bytes: sql<string>`coalesce(sum(${bytes}), 0)`, n: count() })
    .from(table)
    .where(and(inArray(owner, [...userIds]), where))
    .groupBy(owner);
  return new Map(rows.map((r) => [r.ownerId, { bytes: Number(r.bytes), n: r.n }]));
}

export const storedDocuments: StoredKind = {
  name: "documents",
  prefix: "docs/",
  async referenced(db, keys) {
    if (!keys.length) return new Set();
    // One statement, so one snapshot: an object handed from one row to another (a restore,
    // an adopted branch) is seen in one of them, never in neither.
    const list = sql.join(
      keys.map((k) => sql`${k}`),
      sql`, `,
    );
    const found = sql.join(
      holders.map((h) => sql`select ${h.key} as k from ${h.table} where ${h.key} in (${list})`),
      sql` union all `,
    );
    return new Set(rowsOf<{ k: string }>(await db.execute(found)).map((r) => r.k));
  },
  async namedKeys(db, after, limit) {
    const rows = rowsOf<{ k: string }>(await db.execute(sql`select k from (${named(after)}) as named order by k limit ${limit}`));
    const keys = rows.map((r) => r.k);
    return { keys, next: keys.length === limit ? keys.at(-1)! : null };
  },
  async recount(db, userIds) {
    // A trashed document is deleted but counted until purged.
    const live = await sumsOf(
      db,
      documents,
      documents.ownerId,
      documents.sizeBytes,
      userIds,
      and(or(isNull(documents.deletedAt), isNotNull(documents.trashedAt)), documentsOnly),
    );
    // The trash's bytes: trashed documents (alone or with their KB), and the files of trashed KBs.
    const trashed = await sumsOf(
      db,
      documents,
      documents.ownerId,
      documents.sizeBytes,
      userIds,
      or(
        isNotNull(documents.trashedAt),
        sql`${documents.format} = 'file' and ${documents.deletedAt} is null and ${documents.kbId} in (select id from kbs where trashed_at is not null)`,
      ),
    );
    const revisions = await sumsOf(db, docRevisions, docRevisions.ownerId, docRevisions.sizeBytes, userIds);
    const pending = eq(conflictBranches.status, "pending");
    const branches = await sumsOf(
      db,
      conflictBranches,
      conflictBranches.ownerId,
      conflictBranches.sizeBytes,
      userIds,
      and(pending, eq(conflictBranches.kind, "document")),
    );
    const fileBranches = await sumsOf(
      db,
      conflictBranches,
      conflictBranches.ownerId,
      conflictBranches.sizeBytes,
      userIds,
      and(pending, eq(conflictBranches.kind, "file")),
    );
    const none = { bytes: 0, n: 0 };
    return new Map(
      userIds.map((u) => {
        const [d, r, b, f] = [live.get(u) ?? none, revisions.get(u) ?? none, branches.get(u) ?? none, fileBranches.get(u) ?? none];
        const trashBytes = trashed.get(u)?.bytes ?? 0;
        return [u, { docs: d.n, imageBytes: d.bytes + b.bytes, revisions: r.n, revisionBytes: r.bytes, branches: b.n + f.n, trashBytes }];
      }),
    );
  },
};
