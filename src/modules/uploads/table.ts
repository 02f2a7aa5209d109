import { index, integer, jsonb, pgTable, text } from "drizzle-orm/pg-core";
import { bytes, ts } from "../../infra/db/columns.ts";
import { users } from "../identity/table.ts";

/** `archive`: an account export's zip, which starts an import (the migration module) once it is in. */
export const UPLOAD_KINDS = ["video", "audio", "image", "archive"] as const;
export type UploadKind = (typeof UPLOAD_KINDS)[number];
/**
 * uploading: bytes still arriving; processing: every byte is in and the file is being
 * handed to its kind's pipeline; complete: the resource exists; failed: the pipeline
 * refused the file; expired: not finished in time, its bytes gone.
 */
export const UPLOAD_STATUSES = ["uploading", "processing", "complete", "failed", "expired"] as const;
export type UploadStatus = (typeof UPLOAD_STATUSES)[number];

/** One S3 part already stored: its number, ETag and size. */
export interface StoredPart {
  n: number;
  etag: string;
  size: number;
}

/**
 * One resumable (tus) upload. Everything a node needs to take the next PATCH is here and
 * in the object store, never in a node's memory or disk: any api node resumes it.
 */
export const uploads = pgTable(
  "uploads",
  {
    id: text("id").primaryKey(),
    ownerId: text("owner_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    kind: text("kind", { enum: UPLOAD_KINDS }).notNull(),
    /** Upload-Metadata as sent, decoded: filename, kind, title, isPublic, tags. */
    metadata: jsonb("metadata").$type<Record<string, string>>().notNull(),
    /** Upload-Length: the whole file's bytes. */
    length: bytes("length").notNull(),
    /** Upload-Offset: the bytes stored so far. */
    offset: bytes("offset").notNull().default(0),
    status: text("status", { enum: UPLOAD_STATUSES }).notNull(),
    /** Bytes held in the usage ledger (media_storage or img_storage) for it; 0 once given back. */
    reserved: bytes("reserved").notNull(),
    /** Where the file's bytes go: appended to (folder store) or assembled at (S3). */
    dataKey: text("data_key").notNull(),
    /** S3: the multipart upload its parts belong to; null before the first part and once assembled. */
    multipartId: text("multipart_id"),
    parts: jsonb("parts").$type<StoredPart[]>().notNull().default([]),
    /** S3: bytes past the last part (under 5 MiB), kept in the tail object until the next PATCH. */
    tailBytes: integer("tail_bytes").notNull().default(0),
    resourceId: text("resource_id"),
    /** The resource's answer as its kind gave it when the upload completed. */
    resource: jsonb("resource").$type<Record<string, unknown>>(),
    /** Why the pipeline refused it: the error's code and message. */
    failure: jsonb("failure").$type<{ code: string; message: string }>(),
    expiresAt: ts("expires_at").notNull(),
    createdAt: ts("created_at").notNull(),
    updatedAt: ts("updated_at").notNull(),
  },
  (t) => [index("uploads_status_expires_idx").on(t.status, t.expiresAt), index("uploads_owner_idx").on(t.ownerId)],
);
export type UploadRow = typeof uploads.$inferSelect;
