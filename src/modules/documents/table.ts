import { sql } from "drizzle-orm";
import { boolean, check, index, integer, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { bytes, ts } from "../../infra/db/columns.ts";
import { users } from "../identity/table.ts";
import { kbs } from "../kbs/table.ts";

export const DOC_FORMATS = ["markdown", "typst"] as const;
export type DocFormat = (typeof DOC_FORMATS)[number];
export const REVISION_ORIGINS = ["upload", "sync", "restore"] as const;
export type RevisionOrigin = (typeof REVISION_ORIGINS)[number];

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
    kbId: text("kb_id").references(() => kbs.id, { onDelete: "cascade" }),
    /** NFC, as the client spelled it (path.ts). */
    relativePath: text("relative_path"),
    /** The case-folded path: unique within a KB (path.ts says why). */
    pathKey: text("path_key"),
    title: text("title").notNull(),
    filename: text("filename").notNull(),
    format: text("format", { enum: DOC_FORMATS }).notNull(),
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
  },
  (t) => [
    check("documents_place_ck", sql`(${t.kbId} is null) = (${t.relativePath} is null) and (${t.kbId} is null) = (${t.pathKey} is null)`),
    uniqueIndex("documents_kb_path_uq").on(t.ownerId, t.kbId, t.pathKey).where(sql`${t.kbId} is not null`),
    index("documents_owner_created_idx").on(t.ownerId, t.createdAt.desc(), t.id.desc()).where(sql`${t.deletedAt} is null`),
    index("documents_owner_updated_idx").on(t.ownerId, t.updatedAt.desc(), t.id.desc()).where(sql`${t.deletedAt} is null`),
    // The manifest walks a KB in (updated_at, id) order, soft-deleted rows included:
    // ascending, which keysetPage reads as this index backwards.
    index("documents_kb_updated_idx").on(t.kbId, t.updatedAt.desc(), t.id.desc()),
    // The idempotency look-up of an upload outside any KB.
    index("documents_owner_hash_idx").on(t.ownerId, t.sourceHash).where(sql`${t.kbId} is null and ${t.deletedAt} is null`),
    index("documents_owner_input_hash_idx").on(t.ownerId, t.inputHash).where(sql`${t.kbId} is null and ${t.deletedAt} is null`),
    // The orphan sweep asks which stored objects a row still names.
    index("documents_object_key_idx").on(t.objectKey).where(sql`${t.objectKey} is not null`),
  ],
);
export type DocumentRow = typeof documents.$inferSelect;

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

/**
 * A tombstone: a KB path whose document went away, by a delete (soft, hard or
 * the KB's cascade) or a move away from it, written in the transaction that removed it,
 * with the KB's stamp of that change as deletedAt. The v2 manifest lists them after a
 * `since`; the prune-tombstones job drops them past the owner's plan retention. No key to
 * the KB: a KB's cascade delete leaves its tombstones until they are pruned.
 */
export const docTombstones = pgTable(
  "doc_tombstones",
  {
    id: text("id").primaryKey(),
    ownerId: text("owner_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    kbId: text("kb_id").notNull(),
    docId: text("doc_id").notNull(),
    relativePath: text("relative_path").notNull(),
    pathKey: text("path_key").notNull(),
    sourceHash: text("source_hash").notNull(),
    deletedAt: ts("deleted_at").notNull(),
    /** When a client last confirmed it (tombstone_ack): analytics only. */
    ackedAt: ts("acked_at"),
  },
  (t) => [
    index("doc_tombstones_kb_deleted_idx").on(t.kbId, t.deletedAt),
    index("doc_tombstones_owner_deleted_idx").on(t.ownerId, t.deletedAt),
    index("doc_tombstones_kb_doc_idx").on(t.kbId, t.docId),
  ],
);
export type TombstoneRow = typeof docTombstones.$inferSelect;

export const BRANCH_STATUSES = ["pending", "adopted", "discarded"] as const;
export type BranchStatus = (typeof BRANCH_STATUSES)[number];
/** Why a branch was discarded: by its owner, at the end of its 30 days, or to end a quota overage. */
export const DISCARD_REASONS = ["user", "expired", "over_quota"] as const;
export type DiscardReason = (typeof DISCARD_REASONS)[number];

/**
 * A conflict branch: a client's content for a KB document, kept beside
 * its master when a sync op conflicted under preserve_both. Its content is stored as a
 * document's is (inline or one object of its own); the object passes to the document
 * when the branch is adopted and is deleted when it is discarded, so a resolved row keeps
 * neither (and is deleted by the job 60 days after the branch was opened, so at least 30
 * after it was resolved). While pending, its bytes count in img_storage and the row in
 * conflict_branches (usage ledger).
 */
export const conflictBranches = pgTable(
  "conflict_branches",
  {
    /** The branchId clients see; 21 characters. */
    id: text("id").primaryKey(),
    ownerId: text("owner_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    kbId: text("kb_id")
      .notNull()
      .references(() => kbs.id, { onDelete: "cascade" }),
    docId: text("doc_id")
      .notNull()
      .references(() => documents.id, { onDelete: "cascade" }),
    /** The path the client pushed to (the document may move later). */
    relativePath: text("relative_path").notNull(),
    content: text("content"),
    objectKey: text("object_key"),
    /** SHA-256 hex of the branch's content. */
    sourceHash: text("source_hash").notNull(),
    sizeBytes: bytes("size_bytes").notNull(),
    /** The master's hash when the branch was opened. */
    masterHash: text("master_hash").notNull(),
    status: text("status", { enum: BRANCH_STATUSES }).notNull().default("pending"),
    createdAt: ts("created_at").notNull(),
    /** Auto-discard: 30 days after creation. */
    expiresAt: ts("expires_at").notNull(),
    /** When the owner was told (through the outbox) that it expires in 7 days. */
    warnedAt: ts("warned_at"),
    adoptedAt: ts("adopted_at"),
    discardedAt: ts("discarded_at"),
    discardReason: text("discard_reason", { enum: DISCARD_REASONS }),
  },
  (t) => [
    // A KB's pending branches, oldest first (this index read backwards): the conflicts list.
    index("conflict_branches_kb_pending_idx").on(t.ownerId, t.kbId, t.createdAt.desc(), t.id.desc()).where(sql`${t.status} = 'pending'`),
    // A document's pending branches: its limit of 5.
    index("conflict_branches_doc_pending_idx").on(t.docId).where(sql`${t.status} = 'pending'`),
    // The jobs: warnings and auto-discard by expiry (force-discard by age, which is expiry less 30 days).
    index("conflict_branches_expiry_idx").on(t.expiresAt).where(sql`${t.status} = 'pending'`),
    // The job's prune of resolved rows, by age.
    index("conflict_branches_resolved_idx").on(t.createdAt).where(sql`${t.status} <> 'pending'`),
    index("conflict_branches_object_key_idx").on(t.objectKey).where(sql`${t.objectKey} is not null`),
  ],
);
export type BranchRow = typeof conflictBranches.$inferSelect;
