// Keeps the job_runs record bounded: runs older than 30 days are deleted.
import { lt } from "drizzle-orm";
import { type Job, result } from "./job.ts";
import { jobRuns } from "./table.ts";

const JOB_RUN_RETENTION_DAYS = 30;

export const pruneJobRuns: Job = {
  name: "prune-job-runs",
  schedule: "17 3 * * *",
  description: `deletes job run records older than ${JOB_RUN_RETENTION_DAYS} days`,
  async run({ deps }) {
    const cutoff = new Date(deps.clock.nowMs() - JOB_RUN_RETENTION_DAYS * 86_400_000);
    const deleted = await deps.db.delete(jobRuns).where(lt(jobRuns.startedAt, cutoff)).returning({ id: jobRuns.id });
    return result({ deleted: deleted.length }, (c) => `deleted ${c.deleted} run records`);
  },
};
