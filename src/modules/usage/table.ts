import { sql, type SQL } from "drizzle-orm";
import { pgTable, primaryKey, text } from "drizzle-orm/pg-core";
import { bytes, ts } from "../../infra/db/columns.ts";
import { users } from "../identity/table.ts";

/**
 * The usage ledger: one counter per user, dimension (dimensions.ts) and period key
 * ("total", "YYYY-MM" or "YYYY-MM-DD", UTC), moved in the same transaction as the rows it
 * counts. A counter exists once something was counted in it; absent reads as zero. The
 * key puts the period before the dimension, so a snapshot reads this day's, this month's
 * and the total counters by three index probes, however many old days and months a user
 * has.
 */
export const usageCounters = pgTable(
  "usage_counters",
  {
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    period: text("period").notNull(),
    dimension: text("dimension").notNull(),
    value: bytes("value").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.userId, t.period, t.dimension] })],
);

/** Whether a user still exists: counts for a user deleted meanwhile are dropped, not an error. */
export const userExists = (userId: SQL) => sql`exists (select from ${users} where ${users.id} = ${userId})`;

/**
 * Batches of served bandwidth already added to usage_counters, by the id the attribution
 * job gave the batch: committed in the same transaction as the counts, so a batch retried
 * after a crash is never counted twice.
 */
export const bandwidthClaims = pgTable("bandwidth_claims", {
  id: text("id").primaryKey(),
  committedAt: ts("committed_at").notNull(),
});
