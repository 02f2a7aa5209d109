import { sql } from "drizzle-orm";
import { boolean, index, integer, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { bytes, ts } from "../../infra/db/columns.ts";
import { users } from "../identity/table.ts";

/**
 * A knowledge base: a namespace of documents addressed by relative path.
 * docCount and sizeBytes are the active documents' and move in the transaction that
 * moves those documents; updatedAt bumps with every child add, replace and delete.
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
    sizeBytes: bytes("size_bytes").notNull().default(0),
    createdAt: ts("created_at").notNull(),
    updatedAt: ts("updated_at").notNull(),
  },
  (t) => [
    uniqueIndex("kbs_owner_slug_uq").on(t.ownerId, t.slug),
    // At most one default KB per user, whatever races.
    uniqueIndex("kbs_owner_default_uq").on(t.ownerId).where(sql`${t.isDefault}`),
    index("kbs_owner_updated_idx").on(t.ownerId, t.updatedAt.desc(), t.id.desc()),
    // The list sorted by name, read backwards (ascending) by keysetPage.
    index("kbs_owner_name_idx").on(t.ownerId, t.name.desc(), t.id.desc()),
  ],
);
export type KbRow = typeof kbs.$inferSelect;
