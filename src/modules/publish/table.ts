import { index, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { ts } from "../../infra/db/columns.ts";
import { users } from "../identity/table.ts";

/**
 * One row per published site: a KB, or a folder of it, served read-only at
 * CENTER_URL/p/<slug>. The KB is named by id, not by a foreign key (another module's
 * table): a site whose KB is in the trash or gone answers 404. Unpublishing deletes the row.
 */
export const publishedSites = pgTable(
  "published_sites",
  {
    /** 21 characters: names the site in the API. */
    id: text("id").primaryKey(),
    ownerId: text("owner_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    kbId: text("kb_id").notNull(),
    /** The published folder, relative to the KB's root ("" is the whole KB). */
    path: text("path").notNull().default(""),
    /** A DNS label, unique on the server: the site's URL is CENTER_URL/p/<slug>. */
    slug: text("slug").notNull(),
    createdAt: ts("created_at").notNull(),
  },
  (t) => [uniqueIndex("published_sites_slug_idx").on(t.slug), index("published_sites_owner_created_idx").on(t.ownerId, t.createdAt.desc(), t.id.desc())],
);
export type PublishedSiteRow = typeof publishedSites.$inferSelect;
