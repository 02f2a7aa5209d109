import { integer, pgTable, primaryKey, text } from "drizzle-orm/pg-core";
import { bytes, ts } from "../../infra/db/columns.ts";
import { users } from "../identity/table.ts";

/**
 * The usage ledger: what the quotas need, moved in the same transaction as the rows
 * they count. One row per user for totals, one per user and month, one per user and day.
 */
export const usageTotals = pgTable("usage_totals", {
  userId: text("user_id")
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  imageStorageBytes: bytes("image_storage_bytes").notNull().default(0),
  mediaStorageBytes: bytes("media_storage_bytes").notNull().default(0),
  docCount: integer("doc_count").notNull().default(0),
  revisionCount: integer("revision_count").notNull().default(0),
  revisionBytes: bytes("revision_bytes").notNull().default(0),
  updatedAt: ts("updated_at").notNull(),
});

export const usageMonthly = pgTable(
  "usage_monthly",
  {
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** "YYYY-MM", UTC. */
    month: text("month").notNull(),
    imageBandwidthBytes: bytes("image_bandwidth_bytes").notNull().default(0),
    mediaBandwidthBytes: bytes("media_bandwidth_bytes").notNull().default(0),
    uploads: integer("uploads").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.userId, t.month] })],
);

export const usageDaily = pgTable(
  "usage_daily",
  {
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** "YYYY-MM-DD", UTC. */
    day: text("day").notNull(),
    uploads: integer("uploads").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.userId, t.day] })],
);

/**
 * Batches of served bandwidth already added to usage_monthly, by the id the attribution
 * job gave the batch: committed in the same transaction as the counts, so a batch retried
 * after a crash is never counted twice.
 */
export const bandwidthClaims = pgTable("bandwidth_claims", {
  id: text("id").primaryKey(),
  committedAt: ts("committed_at").notNull(),
});
