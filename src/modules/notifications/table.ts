import { sql } from "drizzle-orm";
import { index, integer, jsonb, pgTable, primaryKey, text } from "drizzle-orm/pg-core";
import { ts } from "../../infra/db/columns.ts";
import { users } from "../identity/table.ts";

/**
 * Messages to users waiting to be delivered (mail is an outbox table and a transport,
 * docs/architecture.md, "Background work"). A feature writes a row in the transaction
 * that decides to tell the user, so a message is never lost nor written twice. The
 * deliverer claims due rows (moving nextAttemptAt past a lease, under a claim token),
 * sends, and settles them.
 */
export const outbox = pgTable(
  "outbox",
  {
    id: text("id").primaryKey(),
    /** What the message is about, e.g. conflict_branches_expiring (templates.ts). */
    kind: text("kind").notNull(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    payload: jsonb("payload").notNull(),
    createdAt: ts("created_at").notNull(),
    /** pending until sent, failed (attempts used up or no template) or suppressed (the user opted out). */
    status: text("status", { enum: ["pending", "sent", "failed", "suppressed"] })
      .notNull()
      .default("pending"),
    /** Sends tried, counted when a deliverer claims the row. */
    attempts: integer("attempts").notNull().default(0),
    /** When a deliverer may take it: now for a new row, the backoff after a failure, the lease end while claimed. */
    nextAttemptAt: ts("next_attempt_at").notNull().defaultNow(),
    /** The deliverer holding it; only that one settles it. */
    claimToken: text("claim_token"),
    lastError: text("last_error"),
    sentAt: ts("sent_at"),
  },
  (t) => [
    // The deliverer's queue: pending messages by when they are due.
    index("outbox_due_idx").on(t.nextAttemptAt).where(sql`${t.status} = 'pending'`),
    index("outbox_user_idx").on(t.userId, t.createdAt),
  ],
);
export type OutboxRow = typeof outbox.$inferSelect;

/**
 * Which thresholds have been told, one row per (user, dimension, period, mark): the
 * insert that wins the key is the one whose message is queued, so a crossing seen by
 * several transactions, nodes or job runs is told once. period is "total" for counters
 * kept until given back (a storage mark may be told again: notify.ts), "YYYY-MM" for a
 * month's bandwidth (told again next month under the next key).
 */
export const quotaMarks = pgTable(
  "quota_marks",
  {
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    dimension: text("dimension").notNull(),
    period: text("period").notNull(),
    /** Percent of the limit: 80, 100, 110, 120. */
    mark: integer("mark").notNull(),
    markedAt: ts("marked_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.dimension, t.period, t.mark] })],
);

/**
 * The in-app list (GET /v1/notifications): one row per event told to a user who keeps that
 * kind in-app, written with the outbox row of the same event (inbox.ts). title and body are
 * rendered when the event is recorded, so a list reads rows and renders nothing.
 */
export const notifications = pgTable(
  "notifications",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    kind: text("kind").notNull(),
    title: text("title").notNull(),
    body: text("body").notNull(),
    /** The event's own fields (ids of the video, key, branch...), for a client to link from. */
    data: jsonb("data").notNull(),
    createdAt: ts("created_at").notNull(),
    readAt: ts("read_at"),
  },
  (t) => [
    // The list, newest first, and the same with unread only (and the unread count).
    index("notifications_user_idx").on(t.userId, t.createdAt.desc(), t.id.desc()),
    index("notifications_unread_idx").on(t.userId, t.createdAt.desc(), t.id.desc()).where(sql`${t.readAt} is null`),
    // The prune job's range.
    index("notifications_created_idx").on(t.createdAt),
  ],
);
