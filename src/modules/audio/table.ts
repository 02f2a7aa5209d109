import { sql } from "drizzle-orm";
import { boolean, index, integer, jsonb, pgTable, real, text } from "drizzle-orm/pg-core";
import { bytes, ts } from "../../infra/db/columns.ts";
import { users } from "../identity/table.ts";
import { AUDIO_FORMATS } from "./formats.ts";
import type { EmbeddedTags } from "./metadata.ts";

/**
 * One row per audio file; ready from the moment it exists (no transcoding). Its objects
 * (layout.ts) never change: the edge may cache them for good.
 */
export const audio = pgTable(
  "audio",
  {
    /** 21 characters. */
    id: text("id").primaryKey(),
    ownerId: text("owner_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    title: text("title").notNull(),
    filename: text("filename").notNull(),
    /** What the first bytes said (mp3, m4a, wav, flac, ogg); the MIME type follows from it. */
    format: text("format", { enum: AUDIO_FORMATS }).notNull(),
    isPublic: boolean("is_public").notNull().default(true),
    /** The stored file's bytes: what media_storage counts. */
    sizeBytes: bytes("size_bytes").notNull(),
    /** Null when the file does not say. */
    durationSeconds: real("duration_seconds"),
    /** kbps. */
    bitrate: integer("bitrate"),
    sampleRate: integer("sample_rate"),
    channels: integer("channels"),
    codec: text("codec"),
    /** The file's own tags (title, artist, album, ...), as read at upload. */
    embeddedTags: jsonb("embedded_tags").$type<EmbeddedTags>().notNull().default({}),
    objectKey: text("object_key").notNull(),
    /** The embedded cover as a JPEG; null: the format's default thumbnail. */
    coverKey: text("cover_key"),
    /** The cover's ThumbHash, base64; null until made, "" for no cover or one that gives none. */
    placeholder: text("placeholder"),
    /** The cover's bytes, counted against image storage. */
    coverBytes: bytes("cover_bytes").notNull().default(0),
    createdAt: ts("created_at").notNull(),
    updatedAt: ts("updated_at").notNull(),
    /** When it was moved to the trash (null: not trashed); it is purged TRASH_RETENTION_DAYS later (docs/api.md, "The trash"). */
    trashedAt: ts("trashed_at"),
  },
  (t) => [
    index("audio_owner_created_idx").on(t.ownerId, t.createdAt.desc(), t.id.desc()),
    index("audio_owner_trashed_idx").on(t.ownerId, t.trashedAt.desc(), t.id.desc()).where(sql`${t.trashedAt} is not null`),
  ],
);
export type AudioRow = typeof audio.$inferSelect;
