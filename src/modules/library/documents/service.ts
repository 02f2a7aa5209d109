// Reading and managing documents: list pages, one document, its raw text (for its owner,
// or anyone when public), metadata updates, deletes one by one and in batches.
import { trashDocuments } from "./trash.ts";
import { and, eq, inArray, sql } from "drizzle-orm";
import type { Deps } from "../../../core/deps.ts";
import { keysetPage, type KeysetQuery } from "../../../core/cursor.ts";
import { AppError, notFound } from "../../../core/errors.ts";
import { iso } from "../../../infra/clock.ts";
import type { DbOrTx } from "../../../infra/db/index.ts";
import { isId } from "../../../infra/ids.ts";
import { prepared } from "../../../infra/db/prepared.ts";
import { readContent } from "./content.ts";
import type { DocItem, DocSort, UpdateDocBody } from "./model.ts";
import { type DocumentRow, docColumns, docFormat, documents, documentsOnly } from "./table.ts";

/** The columns a list item shows (a page reads these only: not the content). */
const ITEM_COLUMNS = [
  "id",
  "title",
  "filename",
  "format",
  "sizeBytes",
  "wordCount",
  "imageCount",
  "rewrittenCount",
  "isPublic",
  "tags",
  "objectKey",
  "sourceHash",
  "excerpt",
  "coverUrl",
  "kbId",
  "relativePath",
  "createdAt",
  "updatedAt",
] as const;

export function toDocItem(r: Pick<DocumentRow, (typeof ITEM_COLUMNS)[number]>): DocItem {
  return {
    id: r.id,
    title: r.title,
    filename: r.filename,
    format: docFormat(r),
    sizeBytes: r.sizeBytes,
    wordCount: r.wordCount,
    imageCount: r.imageCount,
    rewrittenCount: r.rewrittenCount,
    isPublic: r.isPublic,
    tags: r.tags,
    hasInlineContent: r.objectKey === null,
    sourceHash: r.sourceHash,
    excerpt: r.excerpt,
    coverUrl: r.coverUrl,
    kbId: r.kbId,
    relativePath: r.relativePath,
    createdAt: iso(r.createdAt),
    updatedAt: iso(r.updatedAt),
  };
}

// KB files are rows of the table too (table.ts), but no document: every query here leaves them out.
const activeOwned = (userId: unknown, id: unknown) =>
  and(eq(documents.id, id as string), eq(documents.ownerId, userId as string), sql`${documents.deletedAt} is null`, documentsOnly);

const docQuery = (db: DbOrTx) =>
  db
    .select(docColumns)
    .from(documents)
    .where(activeOwned(sql.placeholder("userId"), sql.placeholder("id")))
    .prepare("document_by_owner");

/** The caller's active document; 404 NOT_FOUND (entity document) otherwise. */
export async function getDocument(db: DbOrTx, q: { userId: string; id: string }): Promise<DocumentRow> {
  const [row] = await prepared(db, "document_by_owner", docQuery).execute(q);
  if (!row) throw notFound("document");
  return row;
}

const publicQuery = (db: DbOrTx) =>
  db
    .select(docColumns)
    .from(documents)
    .where(and(eq(documents.id, sql.placeholder("id")), sql`${documents.deletedAt} is null`, documentsOnly))
    .prepare("document_by_id");

/** Any active document by id, whoever owns it (the raw routes decide who may read it). */
export async function findDocument(db: DbOrTx, id: string): Promise<DocumentRow | undefined> {
  const [row] = await prepared(db, "document_by_id", publicQuery).execute({ id });
  return row;
}

export interface ListQuery {
  cursor?: string;
  limit: number;
  q?: string;
  tags?: string[];
  isPublic?: boolean;
  sort: DocSort;
  kbId?: string;
  /** true: only documents in a knowledge base; false: only those outside every one. */
  inKb?: boolean;
}

/** A LIKE pattern matching `q` anywhere, its own wildcards taken literally. */
const containing = (q: string) => `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** The keyset query of a documents list page: one prepared statement per combination of filters. */
export function docListQuery(userId: string, q: ListQuery): KeysetQuery<typeof documents, (typeof ITEM_COLUMNS)[number]> {
  const filters: string[] = [];
  const params: Record<string, unknown> = { userId };
  if (q.q !== undefined) filters.push("q"), (params.q = containing(q.q));
  if (q.tags?.length) filters.push("tag"), (params.tags = q.tags);
  if (q.isPublic !== undefined) filters.push("public"), (params.isPublic = q.isPublic);
  if (q.kbId !== undefined) filters.push("kb"), (params.kbId = q.kbId);
  // No parameter: each answer is a statement of its own (a shape).
  if (q.inKb !== undefined) filters.push(q.inKb ? "inkb" : "outkb");
  const where = () =>
    and(
      eq(documents.ownerId, sql.placeholder("userId")),
      sql`${documents.deletedAt} is null`,
      documentsOnly,
      filters.includes("q") ? sql`${documents.title} ilike ${sql.placeholder("q")}` : undefined,
      filters.includes("tag") ? sql`${documents.tags} && ${sql.placeholder("tags")}::text[]` : undefined,
      filters.includes("public") ? eq(documents.isPublic, sql.placeholder("isPublic")) : undefined,
      filters.includes("kb") ? eq(documents.kbId, sql.placeholder("kbId")) : undefined,
      filters.includes("inkb") ? sql`${documents.kbId} is not null` : undefined,
      filters.includes("outkb") ? sql`${documents.kbId} is null` : undefined,
    );
  const [by, direction] = q.sort.split("_") as ["created" | "updated", "desc" | "asc"];
  return {
    from: documents,
    columns: ITEM_COLUMNS,
    shape: filters.join("_") || "owned",
    where,
    params,
    sort: [by === "created" ? "createdAt" : "updatedAt", "id"],
    direction,
    cursor: q.cursor,
    limit: q.limit,
  };
}

export function listDocuments(deps: Deps, userId: string, q: ListQuery) {
  return keysetPage(deps.db, docListQuery(userId, q), toDocItem);
}

export async function updateDocument(deps: Deps, userId: string, id: string, body: UpdateDocBody): Promise<DocumentRow> {
  const [row] = await deps.db
    .update(documents)
    .set({
      ...(body.title !== undefined && { title: body.title }),
      ...(body.isPublic !== undefined && { isPublic: body.isPublic }),
      ...(body.tags !== undefined && { tags: body.tags }),
      // In a KB, updatedAt is the version sync clients name as baseUpdatedAt: title, tags and
      // visibility do not travel in sync, so changing them must not make that base stale
      // (a client would be told REMOTE_NEWER for text that did not change).
      updatedAt: sql`case when ${documents.kbId} is null then ${deps.clock.now().toISOString()}::timestamptz else ${documents.updatedAt} end`,
    })
    .where(activeOwned(userId, id))
    .returning(docColumns);
  if (!row) throw notFound("document");
  return row;
}

/** DELETE /v1/docs/:id: the caller's active document to the trash (trash.ts). */
export async function deleteDocument(deps: Deps, userId: string, id: string): Promise<void> {
  const trashed = await trashDocuments(deps, userId, [id]);
  if (!trashed.has(id)) throw notFound("document");
}

/** POST /v1/docs/raw:batch: each id in input order, own (with a reader) or public; never says why one is missing. */
export async function rawBatch(deps: Deps, readerId: string | null, ids: readonly string[]) {
  // An id that cannot be a document's (a path, NUL, 300 characters) is not looked up and
  // is answered as an unknown one: the batch's other ids still come, and no answer tells a
  // malformed id from an unknown or another user's one.
  const asked = [...new Set(ids.filter(isId))];
  const rows = asked.length
    ? await deps.db
        .select(docColumns)
        .from(documents)
        .where(
          and(
            inArray(documents.id, asked),
            sql`${documents.deletedAt} is null`,
            documentsOnly,
            readerId ? sql`(${documents.isPublic} or ${documents.ownerId} = ${readerId})` : eq(documents.isPublic, true),
          ),
        )
    : [];
  const byId = new Map(rows.map((r) => [r.id, r]));
  const docs: { id: string; content: string; updatedAt: string; sourceHash: string }[] = [];
  const failed: { id: string; reason: "NOT_FOUND" | "CONTENT_FETCH_FAILED" }[] = [];
  type Fetched = { row: DocumentRow; content: string } | { id: string; reason: "NOT_FOUND" | "CONTENT_FETCH_FAILED" };
  const texts = await Promise.all(
    ids.map(async (id): Promise<Fetched> => {
      const row = byId.get(id);
      if (!row) return { id, reason: "NOT_FOUND" as const };
      try {
        return { row, content: await readContent(deps, row) };
      } catch (e) {
        if (e instanceof AppError) return { id, reason: "CONTENT_FETCH_FAILED" as const };
        throw e;
      }
    }),
  );
  for (const t of texts) {
    if ("reason" in t) failed.push(t);
    else docs.push({ id: t.row.id, content: t.content, updatedAt: iso(t.row.updatedAt), sourceHash: t.row.sourceHash });
  }
  return { docs, failed };
}
