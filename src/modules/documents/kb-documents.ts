// What the knowledge-base features (manifest, sync, raw by path, KB delete) need of the
// documents table, which this module owns: a path's row, locked; a new document at a
// path; a manifest page; and the purge of a KB's documents with everything they count.
// Each runs in the caller's transaction where it changes rows, so the books move with them.
import { and, eq, inArray, or, type SQL, type SQLWrapper, sql } from "drizzle-orm";
import { type KeysetQuery, keysetPage } from "../../http/cursor.ts";
import type { DbOrTx, Tx } from "../../infra/db/index.ts";
import { placeholders, prepared } from "../../infra/db/prepared.ts";
import { release } from "../usage/public.ts";
import { cleanTags, clip, formatOf, TITLE_MAX, withoutExtension } from "./create.ts";
import { countWords, readMarkdown } from "./markdown.ts";
import { typstTitle } from "./typst-title.ts";
import { type Actor, booksOf, type NextContent } from "./row-changes.ts";
import { type DocumentRow, docRevisions, docColumns, documents } from "./table.ts";
import type { StoredContent } from "./content.ts";

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
 * The fields a text stored at a KB path gets (sync stores text as given: no image
 * rewriting). The format comes from the path's extension (INVALID_FILE_TYPE otherwise);
 * the title from the frontmatter, the first H1 or the file name; tags from the
 * frontmatter. What the text does not say (visibility, tags without frontmatter ones)
 * is kept from the document it replaces: keptFrom().
 */
export function describeText(relativePath: string, text: string, hashes: { sourceHash: string; sizeBytes: number }, stored: StoredContent): DescribedText {
  const filename = relativePath.slice(relativePath.lastIndexOf("/") + 1);
  const format = formatOf(filename);
  const markdown = format === "markdown" ? readMarkdown(text) : null;
  return {
    ...stored,
    sourceHash: hashes.sourceHash,
    inputHash: hashes.sourceHash,
    sizeBytes: hashes.sizeBytes,
    wordCount: markdown ? markdown.wordCount : countWords(text),
    imageCount: markdown ? markdown.images.length : 0,
    rewrittenCount: 0,
    excerpt: markdown?.excerpt ?? "",
    coverUrl: markdown?.images.find((i) => i.url && !i.url.toLowerCase().startsWith("data:"))?.url ?? null,
    title:
      clip(markdown?.frontmatterTitle ?? markdown?.firstH1 ?? (format === "typst" ? typstTitle(text) : undefined) ?? withoutExtension(filename), TITLE_MAX) ||
      filename,
    tags: markdown?.frontmatterTags ? cleanTags(markdown.frontmatterTags) : [],
    isPublic: false,
    filename,
    format,
    relativePath,
    ownTags: !!markdown?.frontmatterTags,
  };
}

export interface DescribedText extends NextContent {
  /** The tags came from the text's frontmatter (else the replaced document's are kept). */
  ownTags: boolean;
}

/** The content for replacing `doc`: its visibility kept, and its tags unless the text names some. */
export function keptFrom({ ownTags, ...next }: DescribedText, doc?: Pick<DocumentRow, "tags" | "isPublic">): NextContent {
  if (!doc) return next;
  return { ...next, tags: ownTags ? next.tags : doc.tags, isPublic: doc.isPublic };
}

/** The columns of a new document at a KB path, each a placeholder of its name. */
const INSERTED = [
  "id",
  "ownerId",
  "kbId",
  "relativePath",
  "pathKey",
  "title",
  "filename",
  "format",
  "sourceHash",
  "inputHash",
  "sizeBytes",
  "wordCount",
  "imageCount",
  "rewrittenCount",
  "excerpt",
  "coverUrl",
  "isPublic",
  "tags",
  "content",
  "objectKey",
  "createdAt",
  "updatedAt",
] as const;
type Inserted = { [K in (typeof INSERTED)[number]]: DocumentRow[K] };

/** The insert of a new document at a KB path, a prepared statement (a sync batch runs it for every new path). */
const insertStatement = (db: DbOrTx) =>
  db
    .insert(documents)
    .values(placeholders(INSERTED) as unknown as typeof documents.$inferInsert)
    .returning(docColumns)
    .prepare("documents_insert_in_kb");

/** A new document at a free KB path: doc_count and img_storage reserved, the KB's counts moved and stamped. */
export async function insertInKb(
  tx: Tx,
  actor: Actor,
  place: { id: string; kbId: string; relativePath: string; pathKey: string },
  next: NextContent,
): Promise<DocumentRow> {
  const books = booksOf(actor);
  await books.reserve(tx, { docs: 1, imageBytes: next.sizeBytes });
  const stamp = await books.moveKb(tx, place.kbId, { docs: 1, bytes: next.sizeBytes });
  const values: Inserted = {
    ...place,
    ownerId: actor.userId,
    title: next.title,
    filename: next.filename,
    format: next.format,
    sourceHash: next.sourceHash,
    inputHash: next.inputHash,
    sizeBytes: next.sizeBytes,
    wordCount: next.wordCount,
    imageCount: next.imageCount,
    rewrittenCount: next.rewrittenCount,
    excerpt: next.excerpt,
    coverUrl: next.coverUrl,
    isPublic: next.isPublic,
    tags: next.tags,
    content: next.content,
    objectKey: next.objectKey,
    createdAt: actor.now,
    updatedAt: stamp,
  };
  if (books.insertLater) return books.insertLater({ ...values, deletedAt: null });
  const [row] = await prepared(tx, "documents_insert_in_kb", insertStatement).execute(values);
  return row!;
}

/**
 * Removes every document of a KB for good, with its history, in the transaction that
 * deletes the KB (which has written their tombstones and purged their conflict branches
 * first): what the active ones held (doc_count, img_storage) and every revision
 * (revision_count, revision_bytes) is given back, in a few statements whatever the KB's
 * size. Returns the objects to remove once the transaction has committed.
 */
export async function purgeKbDocuments(tx: Tx, userId: string, kbId: string): Promise<string[]> {
  const inKb = and(eq(documents.ownerId, userId), eq(documents.kbId, kbId));
  const revisions = await tx
    .delete(docRevisions)
    .where(sql`${docRevisions.ownerId} = ${userId} and ${docRevisions.docId} in (select ${documents.id} from ${documents} where ${inKb})`)
    .returning({ sizeBytes: docRevisions.sizeBytes, objectKey: docRevisions.objectKey });
  if (revisions.length) await release(tx, userId, { revisions: revisions.length, revisionBytes: revisions.reduce((n, r) => n + r.sizeBytes, 0) });
  const gone = await tx
    .delete(documents)
    .where(inKb)
    .returning({ sizeBytes: documents.sizeBytes, objectKey: documents.objectKey, deletedAt: documents.deletedAt });
  const active = gone.filter((d) => d.deletedAt === null);
  if (active.length) await release(tx, userId, { docs: active.length, imageBytes: active.reduce((n, d) => n + d.sizeBytes, 0) });
  return [...gone.map((d) => d.objectKey), ...revisions.map((r) => r.objectKey)].filter((k): k is string => !!k);
}

/**
 * One manifest page: the KB's documents, soft-deleted included, oldest change first, in
 * (updated_at, id) order after the cursor, changed after `since` when given. Walks the
 * index (kb_id, updated_at, id) backwards; the owner filter is checked on the rows read.
 */
export function manifestRows(db: DbOrTx, q: ManifestPageQuery) {
  return keysetPage(db, manifestQuery(q), (row) => row as unknown as ManifestRow);
}

/** A manifest entry's row: its times as the ISO text the answer prints (KeysetQuery.isoTimes). */
export type ManifestRow = Pick<DocumentRow, "id" | "relativePath" | "sourceHash" | "sizeBytes"> & { updatedAt: string; deletedAt: string | null };

interface ManifestPageQuery {
  userId: string;
  kbId: string;
  since?: Date;
  cursor?: string;
  limit: number;
}

/** The keyset query of a manifest page (its plan is tested: a walk of the KB's index). */
export function manifestQuery(
  q: ManifestPageQuery,
): KeysetQuery<typeof documents, "id" | "relativePath" | "sourceHash" | "sizeBytes" | "updatedAt" | "deletedAt"> {
  // After a cursor, `since` is left to it: a cursor of a `since` walk is past `since`
  // already, and a second bound on updated_at makes the planner sort a bitmap scan instead
  // of walking the index. (A cursor from another walk can only add entries, never drop one.)
  const since = q.cursor ? undefined : q.since;
  const params: Record<string, unknown> = { userId: q.userId, kbId: q.kbId };
  if (since) params.since = since.toISOString();
  return {
    from: documents,
    shape: since ? "manifest_since" : "manifest",
    where: () =>
      and(
        eq(documents.kbId, sql.placeholder("kbId")),
        eq(documents.ownerId, sql.placeholder("userId")),
        since ? sql`${documents.updatedAt} > ${sql.placeholder("since")}::timestamptz` : undefined,
      ),
    params,
    sort: ["updatedAt", "id"],
    columns: ["id", "relativePath", "sourceHash", "sizeBytes", "updatedAt", "deletedAt"],
    direction: "asc",
    isoTimes: true,
    cursor: q.cursor,
    limit: q.limit,
  };
}

/**
 * The active documents of a KB, as a subquery with the columns a tombstone keeps (id,
 * owner_id, kb_id, relative_path, path_key, source_hash): the KB side writes all their
 * tombstones in one statement when the KB goes.
 */
export const activeInKbSql = (userId: string, kbId: string): SQL =>
  sql`select ${documents.id} as id, ${documents.ownerId} as owner_id, ${documents.kbId} as kb_id, ${documents.relativePath} as relative_path,
         ${documents.pathKey} as path_key, ${documents.sourceHash} as source_hash
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
