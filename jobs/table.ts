import { sql } from "drizzle-orm";
import { index, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";

/** One row per job run. A scheduled run claims (name, scheduled_for) so it happens once across workers. */
export const jobRuns = pgTable(
  "job_runs",
  {
    id: uuid("id").primaryKey().default(sql`gen_random_uuid()`),
    name: text("name").notNull(),
    trigger: text("trigger", { enum: ["schedule", "manual"] }).notNull(),
    scheduledFor: timestamp("scheduled_for", { withTimezone: true, mode: "date", precision: 3 }),
    startedAt: timestamp("started_at", { withTimezone: true, mode: "date", precision: 3 }).notNull(),
    finishedAt: timestamp("finished_at", { withTimezone: true, mode: "date", precision: 3 }),
    outcome: text("outcome", { enum: ["running", "ok", "failed", "skipped"] }).notNull(),
    error: text("error"),
    summary: text("summary"),
  },
  (t) => [uniqueIndex("job_runs_schedule_uq").on(t.name, t.scheduledFor), index("job_runs_started_idx").on(t.name, t.startedAt)],
);
