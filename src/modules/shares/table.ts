import { index, integer, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { ts } from "../../infra/db/columns.ts";
import { users } from "../identity/table.ts";

/** What a link may open. A later kind (a collection) is one more value and one more reader in targets.ts. */
export const SHARE_KINDS = ["image", "video", "audio", "document", "kb"] as const;
export type ShareKind = (typeof SHARE_KINDS)[number];

/**
 * One row per share link. The target is a kind and an id of another module's table, not a
 * foreign key (it may name any of them): a link whose item is gone answers as a missing
 * one. A revoked link keeps its row (revokedAt set) so the owner's list says what it was.
 */
export const shares = pgTable(
  "shares",
  {
    /** 21 characters: names the link in the API, never in its URL. */
    id: text("id").primaryKey(),
    ownerId: text("owner_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    targetKind: text("target_kind", { enum: SHARE_KINDS }).notNull(),
    targetId: text("target_id").notNull(),
    /** A KB's folder, relative to its root ("" is the whole KB); null for other kinds. */
    targetPath: text("target_path"),
    /** 32 URL-safe random characters (192 bits): the link's URL is CENTER_URL/s/<token>. */
    token: text("token").notNull(),
    /** Bun.password's hash (argon2id); null when the link asks for none. */
    passwordHash: text("password_hash"),
    expiresAt: ts("expires_at"),
    revokedAt: ts("revoked_at"),
    viewCount: integer("view_count").notNull().default(0),
    createdAt: ts("created_at").notNull(),
    updatedAt: ts("updated_at").notNull(),
  },
  (t) => [uniqueIndex("shares_token_idx").on(t.token), index("shares_owner_created_idx").on(t.ownerId, t.createdAt.desc(), t.id.desc())],
);
export type ShareRow = typeof shares.$inferSelect;
