import { sql } from "drizzle-orm";
import { boolean, index, integer, pgTable, text } from "drizzle-orm/pg-core";
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
    createdAt: ts("created_at").notNull(),
    updatedAt: ts("updated_at").notNull(),
  },
  (t) => [index("images_owner_created_idx").on(t.ownerId, t.createdAt.desc(), t.id.desc())],
);
export type ImageRow = typeof images.$inferSelect;
