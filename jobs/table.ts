import { sql } from "drizzle-orm";
import { index, jsonb, pgTable, text, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { ts } from "../src/infra/db/columns.ts";

/** One row per job run. A scheduled run claims (name, scheduled_for) so it happens once across workers. */
export const jobRuns = pgTable(
  "job_runs",
  {
    id: uuid("id").primaryKey().default(sql`gen_random_uuid()`),
    name: text("name").notNull(),
    trigger: text("trigger", { enum: ["schedule", "manual"] }).notNull(),
    scheduledFor: ts("scheduled_for"),
    startedAt: ts("started_at").notNull(),
    finishedAt: ts("finished_at"),
    outcome: text("outcome", { enum: ["running", "ok", "failed", "skipped"] }).notNull(),
    error: text("error"),
    summary: text("summary"),
    /** What the run did, by name (`{ deleted: 3 }`): null while running, or for a run that failed or was skipped. */
    counts: jsonb("counts").$type<Record<string, number>>(),
  },
  (t) => [uniqueIndex("job_runs_schedule_uq").on(t.name, t.scheduledFor), index("job_runs_started_idx").on(t.name, t.startedAt)],
);
