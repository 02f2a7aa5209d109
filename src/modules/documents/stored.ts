// Documents as the operator work sees them (usage StoredKind): a text past the inline size
// is one object under docs/<owner>/ (content.ts), named by the document, the revision or
// the pending conflict branch that holds it. Counted: live documents in doc_count and
// img_storage, with pending branches' bytes (conflict_branches); revisions in
// revision_count and revision_bytes.
import { and, count, eq, isNotNull, isNull, sql, type SQL } from "drizzle-orm";
import type { PgColumn, PgTable } from "drizzle-orm/pg-core";
import { type DbOrTx, rowsOf } from "../../infra/db/index.ts";
import type { StoredKind } from "../usage/public.ts";
import { conflictBranches, docRevisions, documents } from "./table.ts";

const HOLDERS: readonly { table: PgTable; key: PgColumn }[] = [
  { table: documents, key: documents.objectKey },
  { table: docRevisions, key: docRevisions.objectKey },
  { table: conflictBranches, key: conflictBranches.objectKey },
];

/** The three tables' object keys after a cursor (the order and the cursor use one collation). */
const named = (after: string | null) =>
  sql.join(
    HOLDERS.map((h) => sql`select ${h.key} as k from ${h.table} where ${isNotNull(h.key)}${after === null ? sql`` : sql` and ${h.key} > ${after}`}`),
    sql` union `,
  );

async function sumOf(db: DbOrTx, table: PgTable, bytes: PgColumn, where: SQL) {
  const [row] = await db
    .select({ bytes: sql<string>`coalesce(sum(${bytes}), 0)`, n: count() })
    .from(table)
    .where(where);
  return { bytes: Number(row?.bytes ?? 0), n: row?.n ?? 0 };
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
      HOLDERS.map((h) => sql`select ${h.key} as k from ${h.table} where ${h.key} in (${list})`),
      sql` union all `,
    );
    return new Set(rowsOf<{ k: string }>(await db.execute(found)).map((r) => r.k));
  },
  async namedKeys(db, after, limit) {
    const rows = rowsOf<{ k: string }>(await db.execute(sql`select k from (${named(after)}) as named order by k limit ${limit}`));
    const keys = rows.map((r) => r.k);
    return { keys, next: keys.length === limit ? keys.at(-1)! : null };
  },
  async recount(db, userId) {
    const live = await sumOf(db, documents, documents.sizeBytes, and(eq(documents.ownerId, userId), isNull(documents.deletedAt))!);
    const revisions = await sumOf(db, docRevisions, docRevisions.sizeBytes, eq(docRevisions.ownerId, userId));
    const branches = await sumOf(
      db,
      conflictBranches,
      conflictBranches.sizeBytes,
      and(eq(conflictBranches.ownerId, userId), eq(conflictBranches.status, "pending"))!,
    );
    return {
      docs: live.n,
      imageBytes: live.bytes + branches.bytes,
      revisions: revisions.n,
      revisionBytes: revisions.bytes,
      branches: branches.n,
    };
  },
};
