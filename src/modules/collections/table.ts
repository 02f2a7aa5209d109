import { index, integer, pgTable, primaryKey, text } from "drizzle-orm/pg-core";
import { ts } from "../../infra/db/columns.ts";
import { users } from "../identity/table.ts";

/** The media kinds a collection may hold. */
export const ITEM_KINDS = ["image", "video", "audio"] as const;
export type ItemKind = (typeof ITEM_KINDS)[number];

/** One row per collection: an ordered set of its owner's media (an album, a playlist, a series). */
export const collections = pgTable(
  "collections",
  {
    /** 21 characters. */
    id: text("id").primaryKey(),
    ownerId: text("owner_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    title: text("title").notNull(),
    description: text("description"),
    /**
     * The item chosen as the cover; both null when none was chosen (the first item is shown).
     * Not a foreign key: the item is another module's row, and a cover that is no longer an
     * item of the collection is passed by when read.
     */
    coverKind: text("cover_kind", { enum: ITEM_KINDS }),
    coverId: text("cover_id"),
    createdAt: ts("created_at").notNull(),
    updatedAt: ts("updated_at").notNull(),
  },
  (t) => [index("collections_owner_created_idx").on(t.ownerId, t.createdAt.desc(), t.id.desc())],
);
export type CollectionRow = typeof collections.$inferSelect;

/**
 * The items of a collection, an item at most once per collection (the key) and in any
 * number of collections. `position` is the item's place, 0 to n-1 with no gap: every change
 * of a collection's items takes the collection's row lock and leaves them so. The item is a
 * row of the images, videos or audio module, referred to by kind and id only (no foreign
 * key: those modules delete their rows without knowing of collections; an item gone is
 * passed by when read, and its membership removed then).
 */
export const collectionItems = pgTable(
  "collection_items",
  {
    collectionId: text("collection_id")
      .notNull()
      .references(() => collections.id, { onDelete: "cascade" }),
    kind: text("kind", { enum: ITEM_KINDS }).notNull(),
    itemId: text("item_id").notNull(),
    position: integer("position").notNull(),
    addedAt: ts("added_at").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.collectionId, t.kind, t.itemId] }),
    // The items page reads it backwards (position ascending).
    index("collection_items_order_idx").on(t.collectionId, t.position.desc(), t.itemId.desc()),
  ],
);
export type CollectionItemRow = typeof collectionItems.$inferSelect;
