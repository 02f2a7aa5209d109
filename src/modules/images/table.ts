import { sql } from "drizzle-orm";
import { boolean, index, integer, pgTable, primaryKey, text } from "drizzle-orm/pg-core";
import { bytes, ts } from "../../infra/db/columns.ts";
import { users } from "../identity/table.ts";
import { IMAGE_FORMATS } from "./formats.ts";

/**
 * One row per image. The objects it names are immutable: an id's bytes never change, so
 * the edge may cache them and hand out strong ETags derived from the id.
 */
export const images = pgTable(
  "images",
  {
    /** 11 characters; the public URL is MEDIA_URL/<id>.<ext>. */
    id: text("id").primaryKey(),
    ownerId: text("owner_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    filename: text("filename").notNull(),
    /** One of FORMATS, as the bytes said. */
    format: text("format", { enum: IMAGE_FORMATS }).notNull(),
    width: integer("width").notNull(),
    height: integer("height").notNull(),
    frames: integer("frames").notNull().default(1),
    isPublic: boolean("is_public").notNull().default(true),
    tags: text("tags").array().notNull().default(sql`'{}'::text[]`),
    /** The stored original's bytes (metadata stripped): the `size` of the API. */
    size: bytes("size").notNull(),
    /** The WebP rendition, for raster formats other than WebP itself. */
    webpSize: bytes("webp_size"),
    /**
     * ThumbHash of the picture (base64, about 30 bytes), painted by clients before the bytes
     * arrive. Null until made (images uploaded before it existed get it from the backfill
     * job); "" when the picture could not be rendered for it (not tried again).
     */
    placeholder: text("placeholder"),
    createdAt: ts("created_at").notNull(),
    updatedAt: ts("updated_at").notNull(),
    /** When it was moved to the trash (null: not trashed); it is purged TRASH_RETENTION_DAYS later (docs/api.md, "The trash"). */
    trashedAt: ts("trashed_at"),
  },
  (t) => [
    index("images_owner_created_idx").on(t.ownerId, t.createdAt.desc(), t.id.desc()),
    // The trash's page and its purge (trash module).
    index("images_owner_trashed_idx").on(t.ownerId, t.trashedAt.desc(), t.id.desc()).where(sql`${t.trashedAt} is not null`),
    // What the placeholder backfill walks (placeholders.job.ts): empty once it has run.
    index("images_placeholder_missing_idx").on(t.id).where(sql`${t.placeholder} is null`),
  ],
);
export type ImageRow = typeof images.$inferSelect;

/**
 * The sized renditions the edge made of an image (MEDIA_URL/<id>.<ext>?w=...), one row per
 * name (variants/params.ts): the object is images/<owner>/<id>/v/<name>. Recorded once the
 * object is written, so a node that finds the row serves it without making it again; the
 * row goes with the image (cascade) and the image's delete removes the objects. Not counted
 * in the owner's storage: a variant is a cache the edge may make again at any time, and the
 * allowed sizes bound how many an image can have.
 */
export const imageVariants = pgTable(
  "image_variants",
  {
    imageId: text("image_id")
      .notNull()
      .references(() => images.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    size: bytes("size").notNull(),
    createdAt: ts("created_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.imageId, t.name] })],
);
