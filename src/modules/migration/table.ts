import { sql } from "drizzle-orm";
import { index, integer, jsonb, pgTable, primaryKey, text } from "drizzle-orm/pg-core";
import { bytes, ts } from "../../infra/db/columns.ts";
import { users } from "../identity/table.ts";

export const MIGRATION_STATES = ["queued", "running", "completed", "failed"] as const;
export type MigrationState = (typeof MIGRATION_STATES)[number];

/** One line of a report: an item of the archive and what became of it. */
export interface ReportEntry {
  kind: string;
  /** Its id in the archive. */
  sourceId: string;
  /** Its id here: the same where it was free. */
  id: string | null;
  name: string;
  reason?: string;
}

export interface MigrationReport {
  counts: { imported: number; skipped: number; revisions: number; kbs: number; collections: number; rewrittenLinks: number };
  imported: ReportEntry[];
  skipped: ReportEntry[];
  /** Why a failed import was refused: nothing of it was kept. */
  error: { code: string; message: string; member?: string } | null;
  /** The lists hold at most REPORT_MAX entries each; the counts are whole. */
  truncated: boolean;
}

/**
 * One row per account import (POST /v1/migration): the archive in the object store
 * (migrations/<owner>/<id>.zip, removed once the import ends), its progress and its report.
 * The row is also the work queue, as account exports are: a worker claims a queued import
 * (or one whose lease ran out) with FOR UPDATE SKIP LOCKED and renews its lease as it reads.
 */
export const migrations = pgTable(
  "account_imports",
  {
    id: text("id").primaryKey(),
    ownerId: text("owner_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    state: text("state", { enum: MIGRATION_STATES }).notNull().default("queued"),
    /** The archive while the import waits or runs; null once it ended and the archive was removed. */
    objectKey: text("object_key"),
    archiveBytes: bytes("archive_bytes").notNull(),
    /** The resumable upload (kind archive) that brought the archive, when one did. */
    uploadId: text("upload_id"),
    /** The address this instance's media is served at, as the request saw it (the worker has none). */
    mediaUrl: text("media_url").notNull(),
    itemsTotal: integer("items_total").notNull().default(0),
    itemsDone: integer("items_done").notNull().default(0),
    report: jsonb("report").$type<MigrationReport>(),
    attempts: integer("attempts").notNull().default(0),
    leaseOwner: text("lease_owner"),
    leaseUntil: ts("lease_until"),
    createdAt: ts("created_at").notNull(),
    startedAt: ts("started_at"),
    finishedAt: ts("finished_at"),
  },
  (t) => [
    index("account_imports_owner_created_idx").on(t.ownerId, t.createdAt.desc(), t.id.desc()),
    index("account_imports_owner_upload_idx").on(t.ownerId, t.uploadId),
    index("account_imports_due_idx").on(t.createdAt).where(sql`${t.state} in ('queued', 'running')`),
  ],
);
export type MigrationRow = typeof migrations.$inferSelect;

/**
 * What earlier imports made of an archive's items, per account: an item met again (the
 * same kind, id in the archive and bytes) whose thing is still here is skipped, so a re-run
 * does not duplicate, also where the first run had to give it a new id.
 */
export const migrationItems = pgTable(
  "account_import_items",
  {
    ownerId: text("owner_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    kind: text("kind").notNull(),
    sourceId: text("source_id").notNull(),
    sha256: text("sha256").notNull(),
    targetId: text("target_id").notNull(),
    /** The import that made it: a failed one's rows go with what it made. */
    migrationId: text("migration_id").notNull(),
    createdAt: ts("created_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.ownerId, t.kind, t.sourceId, t.sha256] })],
);
