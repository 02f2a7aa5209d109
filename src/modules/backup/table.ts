import { sql } from "drizzle-orm";
import { index, integer, pgTable, text } from "drizzle-orm/pg-core";
import { bytes, ts } from "../../infra/db/columns.ts";
import { users } from "../identity/table.ts";

export const EXPORT_KINDS = ["images", "videos", "audio", "documents", "kbs"] as const;
export type ExportKind = (typeof EXPORT_KINDS)[number];
/** As stored; `expired` is also what a ready export past its expiresAt is answered as before the job marks it. */
export const EXPORT_STATES = ["queued", "running", "ready", "failed", "expired"] as const;
export type ExportState = (typeof EXPORT_STATES)[number];

/**
 * One row per account export: the request, its progress, and once ready the archive in the
 * object store (exports/<owner>/<id>.zip), which counts against no storage quota and is
 * removed when the export expires or is deleted. The row is also the work queue: a worker
 * claims a queued export (or one whose lease ran out: its worker died) with FOR UPDATE SKIP
 * LOCKED and renews its lease as it writes.
 */
export const accountExports = pgTable(
  "account_exports",
  {
    /** 21 characters. */
    id: text("id").primaryKey(),
    ownerId: text("owner_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    state: text("state", { enum: EXPORT_STATES }).notNull().default("queued"),
    /** What the archive holds. */
    kinds: text("kinds", { enum: EXPORT_KINDS }).array().notNull(),
    /** The KBs it holds; null: every KB. */
    kbIds: text("kb_ids").array(),
    /** The addresses the items' URLs are written with: the request's, as the worker has none. */
    publicUrl: text("public_url").notNull(),
    mediaUrl: text("media_url").notNull(),
    /** Counted when the worker starts: the items and bytes to copy. */
    itemsTotal: integer("items_total").notNull().default(0),
    bytesTotal: bytes("bytes_total").notNull().default(0),
    itemsDone: integer("items_done").notNull().default(0),
    bytesDone: bytes("bytes_done").notNull().default(0),
    objectKey: text("object_key"),
    archiveBytes: bytes("archive_bytes"),
    failureReason: text("failure_reason"),
    attempts: integer("attempts").notNull().default(0),
    leaseOwner: text("lease_owner"),
    leaseUntil: ts("lease_until"),
    createdAt: ts("created_at").notNull(),
    startedAt: ts("started_at"),
    finishedAt: ts("finished_at"),
    /** When a ready archive stops being served and is removed (EXPORT_RETENTION_H after it was made). */
    expiresAt: ts("expires_at"),
  },
  (t) => [
    index("account_exports_owner_created_idx").on(t.ownerId, t.createdAt.desc(), t.id.desc()),
    index("account_exports_due_idx").on(t.createdAt).where(sql`${t.state} in ('queued', 'running')`),
    index("account_exports_expiry_idx").on(t.expiresAt).where(sql`${t.state} = 'ready'`),
  ],
);
export type ExportRow = typeof accountExports.$inferSelect;
