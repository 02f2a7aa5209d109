import { index, pgTable, primaryKey, text, uniqueIndex } from "drizzle-orm/pg-core";
import { bytes, ts } from "../../../infra/db/columns.ts";
import { users } from "../../identity/table.ts";

/**
 * A KB file's bytes (an attachment), one row per owner and SHA-256 however many paths,
 * branches or KBs link it: dedup is per owner, so no caller can learn of another's bytes
 * by their hash. Its bytes count once in img_storage, from the PUT that stored them until
 * the row goes (files/blobs.ts says when). What links it: an active documents row of
 * format `file` with its hash, or a pending conflict branch of kind `file` with it.
 *
 * The object key carries an id of its own beside the hash: a blob dropped and stored again
 * at once never shares its key with the object the drop is still removing.
 */
export const kbFiles = pgTable(
  "kb_files",
  {
    ownerId: text("owner_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** SHA-256 hex (lower case) of the bytes. */
    sha256: text("sha256").notNull(),
    sizeBytes: bytes("size_bytes").notNull(),
    /** Decided from the bytes when stored (files/content-type.ts). */
    contentType: text("content_type").notNull(),
    /** kb-files/<owner>/<sha256>/<id>. */
    objectKey: text("object_key").notNull(),
    createdAt: ts("created_at").notNull(),
    /** The last PUT of these bytes: an unlinked blob is swept ORPHAN_SWEEP_AFTER_H after it. */
    touchedAt: ts("touched_at").notNull(),
  },
  (t) => [
    primaryKey({ name: "kb_files_pk", columns: [t.ownerId, t.sha256] }),
    uniqueIndex("kb_files_object_key_uq").on(t.objectKey),
    // The sweep's question: which blobs were last stored before its cutoff.
    index("kb_files_touched_idx").on(t.touchedAt),
  ],
);
export type KbFileRow = typeof kbFiles.$inferSelect;
