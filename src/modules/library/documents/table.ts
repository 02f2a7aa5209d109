import { getTableColumns, sql } from "drizzle-orm";
import { boolean, check, index, integer, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { bytes, ts, tsvector } from "../../../infra/db/columns.ts";
import { users } from "../../identity/table.ts";

export const DOC_FORMATS = ["markdown", "typst"] as const;
export type DocFormat = (typeof DOC_FORMATS)[number];
/**
 * What a row holds: a document's text, or a KB file (an attachment), whose bytes are a
 * blob of the owner's named by its hash (files/table.ts). A file is a row of this table so
 * that paths, their case-folded keys, moves, tombstones, the manifest walk and conflicts
 * are the documents' own; the rules of a text (title, words, images, search, revisions)
 * pass it by (docs/decisions/sync.md, "KB files").
 */
export const ROW_FORMATS = [...DOC_FORMATS, "file"] as const;
export type RowFormat = (typeof ROW_FORMATS)[number];
/** Whether a row is a KB file rather than a document. */
export const isFileRow = (r: { format: RowFormat }) => r.format === "file";
/** The format of a row a query of documents read (files are left out of every such query). */
export function docFormat(r: { format: RowFormat }): DocFormat {
  if (r.format === "file") throw new Error("a KB file is not a document");
  return r.format;
}
export const REVISION_ORIGINS = ["upload", "sync", "restore"] as const;
export type RevisionOrigin = (typeof REVISION_ORIGINS)[number];

/**
 * The key of the KB a document is in: the kbs table's id, named here rather than imported,
 * so that documents depends on nothing of kbs (kbs, the KB side of documents, depends on
 * documents). Only its name and key matter: it is not part of the schema drizzle reads.
 */
const kbKey = pgTable("kbs", { id: text("id").primaryKey() });

/**
 * One row per document. Content is inline (`content`) up to 256 KiB, else in the object
 * store under `object_key`; each object belongs to exactly one row (a replacement hands
 * the old object to the revision that keeps it), so deleting a row deletes its object.
 *
 * A document is in a KB at a relative path (kb_id, relative_path, path_key: all or none)
 * or outside any KB. One row per (KB, case-folded path), soft-deleted or not: a delete
 * keeps the row (deleted_at) so the manifest can report it, and an upsert at that path
 * revives it.
 */
export const documents = pgTable(
  "documents",
  {
    /** 21 characters. */
    id: text("id").primaryKey(),
    ownerId: text("owner_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    kbId: text("kb_id").references(() => kbKey.id, { onDelete: "cascade" }),
    /** NFC, as the client spelled it (path.ts). */
    relativePath: text("relative_path"),
    /** The case-folded path: unique within a KB (path.ts says why). */
    pathKey: text("path_key"),
    title: text("title").notNull(),
    filename: text("filename").notNull(),
    format: text("format", { enum: ROW_FORMATS }).notNull(),
    /** SHA-256 hex of the stored content (after image rewriting). */
    sourceHash: text("source_hash").notNull(),
    /** SHA-256 hex of the content as it was sent (before rewriting): what a re-upload is recognised by. */
    inputHash: text("input_hash").notNull(),
    sizeBytes: bytes("size_bytes").notNull(),
    wordCount: integer("word_count").notNull(),
    imageCount: integer("image_count").notNull(),
    rewrittenCount: integer("rewritten_count").notNull(),
    excerpt: text("excerpt").notNull().default(""),
    coverUrl: text("cover_url"),
    isPublic: boolean("is_public").notNull().default(false),
    tags: text("tags").array().notNull().default(sql`'{}'::text[]`),
    content: text("content"),
    objectKey: text("object_key"),
    createdAt: ts("created_at").notNull(),
    updatedAt: ts("updated_at").notNull(),
    deletedAt: ts("deleted_at"),
    /**
     * When it was moved to the trash. A trashed row is also deleted (deleted_at), so every
     * query of active rows leaves it out, but it keeps its content and history. One trashed
     * on its own leaves its KB (kb_id null, a soft-deleted row and a tombstone at its path,
     * as a move does) and keeps where it was in trashed_kb_id and trashed_path; one trashed
     * with its KB stays in it (kb_id set), and comes back with it.
     */
    trashedAt: ts("trashed_at"),
    trashedKbId: text("trashed_kb_id"),
    trashedPath: text("trashed_path"),
    /**
     * What GET /v1/docs/search matches (search.ts): the title (weight A), the KB path with
     * its separators as spaces (B) and the inline content (C). A document whose content is
     * in the object store is found by its title and path only. The 'simple' configuration:
     * no stemming or stop words, as documents are in any language.
     */
    search: tsvector("search").generatedAlwaysAs(
      sql`setweight(to_tsvector('simple', title), 'A') || setweight(to_tsvector('simple', coalesce(translate(relative_path, '/.-_', '    '), '')), 'B') || setweight(to_tsvector('simple', coalesce(content, '')), 'C')`,
    ),
  },
  (t) => [
    check("documents_place_ck", sql`(${t.kbId} is null) = (${t.relativePath} is null) and (${t.kbId} is null) = (${t.pathKey} is null)`),
    uniqueIndex("documents_kb_path_uq").on(t.ownerId, t.kbId, t.pathKey).where(sql`${t.kbId} is not null`),
    index("documents_owner_trashed_idx").on(t.ownerId, t.trashedAt.desc(), t.id.desc()).where(sql`${t.trashedAt} is not null and ${t.kbId} is null`),
    index("documents_owner_created_idx").on(t.ownerId, t.createdAt.desc(), t.id.desc()).where(sql`${t.deletedAt} is null`),
    index("documents_owner_updated_idx").on(t.ownerId, t.updatedAt.desc(), t.id.desc()).where(sql`${t.deletedAt} is null`),
    // The manifest walks a KB in (updated_at, id) order, soft-deleted rows included:
    // ascending, which keysetPage reads as this index backwards.
    index("documents_kb_updated_idx").on(t.kbId, t.updatedAt.desc(), t.id.desc()),
    // A KB's documents listed newest first (GET /v1/docs?kbId=): a page reads its own rows,
    // not the whole KB sorted.
    index("documents_kb_created_idx").on(t.kbId, t.createdAt.desc(), t.id.desc()).where(sql`${t.kbId} is not null and ${t.deletedAt} is null`),
    // The idempotency look-up of an upload outside any KB.
    index("documents_owner_hash_idx").on(t.ownerId, t.sourceHash).where(sql`${t.kbId} is null and ${t.deletedAt} is null`),
    index("documents_owner_input_hash_idx").on(t.ownerId, t.inputHash).where(sql`${t.kbId} is null and ${t.deletedAt} is null`),
    // Which active files link a blob (files/blobs.ts): asked whenever a link may have gone.
    index("documents_owner_file_idx").on(t.ownerId, t.sourceHash).where(sql`${t.format} = 'file' and ${t.deletedAt} is null`),
    // The orphan sweep asks which stored objects a row still names.
    index("documents_object_key_idx").on(t.objectKey).where(sql`${t.objectKey} is not null`),
    // Search looks at an owner's active documents only; deleted rows stay out of the index.
    // The owner is a key of the index beside the words (as a one-element array: GIN has no
    // operator class for a bare text without the btree_gin extension), so a search reads
    // the entries of that owner's documents that hold the words, however many other owners'
    // do (search.ts names it so).
    index("documents_owner_search_idx").using("gin", sql`(array[${t.ownerId}])`, t.search).where(sql`${t.deletedAt} is null`),
  ],
);

/** The condition that keeps a query to documents (/v1/docs does not show KB files). */
export const documentsOnly = sql`${documents.format} <> 'file'`;

/**
 * Every column a document row is read as: all but the search vector, which only the
 * database reads (it is about as large as the content). Selects and returnings of whole
 * rows name these, never the table's default of every column.
 */
const { search: _search, ...rowColumns } = getTableColumns(documents);
export const docColumns = rowColumns;
export type DocumentRow = Omit<typeof documents.$inferSelect, "search">;

/** A previous content of a document, kept while version history is on. */
export const docRevisions = pgTable(
  "doc_revisions",
  {
    id: text("id").primaryKey(),
    docId: text("doc_id")
      .notNull()
      .references(() => documents.id, { onDelete: "cascade" }),
    ownerId: text("owner_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    revNumber: integer("rev_number").notNull(),
    origin: text("origin", { enum: REVISION_ORIGINS }).notNull(),
    sourceHash: text("source_hash").notNull(),
    sizeBytes: bytes("size_bytes").notNull(),
    content: text("content"),
    objectKey: text("object_key"),
    createdAt: ts("created_at").notNull(),
  },
  (t) => [
    uniqueIndex("doc_revisions_doc_rev_uq").on(t.docId, t.revNumber),
    // Clear-all deletes a user's oldest first, 200 at a time.
    index("doc_revisions_owner_created_idx").on(t.ownerId, t.createdAt, t.id),
    index("doc_revisions_object_key_idx").on(t.objectKey).where(sql`${t.objectKey} is not null`),
  ],
);
export type RevisionRow = typeof docRevisions.$inferSelect;

/** The operator's allow-list of CDN hosts whose images a document may link without a warning. */
export const docCdnHosts = pgTable("doc_cdn_hosts", {
  /** A bare lower-case hostname, or one with a leading dot for the host and its subdomains. */
  pattern: text("pattern").primaryKey(),
});
