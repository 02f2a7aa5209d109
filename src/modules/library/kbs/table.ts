import { sql } from "drizzle-orm";
import { boolean, index, integer, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { bytes, ts } from "../../../infra/db/columns.ts";
import { documents } from "../documents/table.ts";
import { users } from "../../identity/table.ts";

/** What a KB path holds, as the v2 manifest and the branch APIs name it. */
export const ENTRY_KINDS = ["document", "file"] as const;
export type EntryKind = (typeof ENTRY_KINDS)[number];

/**
 * A knowledge base: a namespace of documents (and files) addressed by relative path.
 * docCount (active documents), fileCount (active files) and sizeBytes (the bytes of both)
 * move in the transaction that moves those rows; updatedAt bumps with every child add,
 * replace and delete.
 */
export const kbs = pgTable(
  "kbs",
  {
    id: text("id").primaryKey(),
    ownerId: text("owner_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    slug: text("slug").notNull(),
    description: text("description"),
    isDefault: boolean("is_default").notNull().default(false),
    docCount: integer("doc_count").notNull().default(0),
    fileCount: integer("file_count").notNull().default(0),
    sizeBytes: bytes("size_bytes").notNull().default(0),
    createdAt: ts("created_at").notNull(),
    updatedAt: ts("updated_at").notNull(),
    /** When it was moved to the trash (null: not trashed); it is purged TRASH_RETENTION_DAYS later (docs/api.md, "The trash"). */
    trashedAt: ts("trashed_at"),
  },
  (t) => [
    index("kbs_owner_trashed_idx").on(t.ownerId, t.trashedAt.desc(), t.id.desc()).where(sql`${t.trashedAt} is not null`),
    uniqueIndex("kbs_owner_slug_uq").on(t.ownerId, t.slug),
    // At most one default KB per user, whatever races.
    uniqueIndex("kbs_owner_default_uq").on(t.ownerId).where(sql`${t.isDefault}`),
    index("kbs_owner_updated_idx").on(t.ownerId, t.updatedAt.desc(), t.id.desc()),
    // The list sorted by name, read backwards (ascending) by keysetPage.
    index("kbs_owner_name_idx").on(t.ownerId, t.name.desc(), t.id.desc()),
  ],
);
export type KbRow = typeof kbs.$inferSelect;

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
    /** What was at the path: a document or a file (the v2 manifest's tombstones say which). */
    kind: text("kind", { enum: ENTRY_KINDS }).notNull().default("document"),
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
 * conflict_branches (usage ledger). A branch of kind `file` holds no content of its own:
 * its sourceHash names the owner's blob (files/table.ts), which it keeps while pending,
 * and whose bytes are counted once with the blob.
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
    /** SHA-256 hex of the branch's content (a file branch's: of its blob's bytes). */
    sourceHash: text("source_hash").notNull(),
    kind: text("kind", { enum: ENTRY_KINDS }).notNull().default("document"),
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
    // The pending file branches that keep a blob (files/blobs.ts).
    index("conflict_branches_file_idx").on(t.ownerId, t.sourceHash).where(sql`${t.kind} = 'file' and ${t.status} = 'pending'`),
  ],
);
export type BranchRow = typeof conflictBranches.$inferSelect;

/**
 * The accounts that still call sync protocol v1 (manifest or sync), one row each: when it
 * was last seen and with what credential, kept cheaply (a node writes an account's row at
 * most once an hour), so the final reminder before the v1 sunset knows whom to tell.
 * `remindedAt` makes that reminder once per account, whichever node sends it.
 */
export const syncV1Callers = pgTable("sync_v1_callers", {
  userId: text("user_id")
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  lastSeenAt: ts("last_seen_at").notNull(),
  /** "api_key", "jwt" or "oauth". */
  via: text("via").notNull(),
  keyId: text("key_id"),
  clientId: text("client_id"),
  remindedAt: ts("reminded_at"),
});
