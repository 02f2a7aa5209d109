import { index, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { ts } from "../../infra/db/columns.ts";
import { users } from "../auth/table.ts";

/** Only the SHA-256 of a key is stored; the key itself is shown once and never again. */
export const apiKeys = pgTable(
  "api_keys",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    keyHash: text("key_hash").notNull(),
    last4: text("last4").notNull(),
    scopes: text("scopes").array().notNull(),
    lastUsedAt: ts("last_used_at"),
    revokedAt: ts("revoked_at"),
    createdAt: ts("created_at").notNull(),
  },
  (t) => [uniqueIndex("api_keys_hash_uq").on(t.keyHash), index("api_keys_user_idx").on(t.userId, t.createdAt)],
);
