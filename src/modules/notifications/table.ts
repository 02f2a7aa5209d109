import { sql } from "drizzle-orm";
import { index, jsonb, pgTable, text } from "drizzle-orm/pg-core";
import { ts } from "../../infra/db/columns.ts";
import { users } from "../identity/table.ts";

/**
 * Messages to users waiting to be delivered (DESIGN: mail is an outbox table and a
 * transport). A feature writes a row in the transaction that decides to tell the user,
 * so a message is never lost nor written twice; the deliverer sets sentAt.
 */
export const outbox = pgTable(
  "outbox",
  {
    id: text("id").primaryKey(),
    /** What the message is about, e.g. conflict_branches_expiring. */
    kind: text("kind").notNull(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    payload: jsonb("payload").notNull(),
    createdAt: ts("created_at").notNull(),
    sentAt: ts("sent_at"),
  },
  (t) => [
    // The deliverer's queue: unsent messages, oldest first.
    index("outbox_unsent_idx").on(t.createdAt).where(sql`${t.sentAt} is null`),
    index("outbox_user_idx").on(t.userId, t.createdAt),
  ],
);
export type OutboxRow = typeof outbox.$inferSelect;
