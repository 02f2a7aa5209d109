// Schedules the jobs with croner in UTC and runs each run once across all workers:
// a scheduled run first claims its (name, scheduled minute) row, then holds a kv lease
// for as long as it runs, so a manual run and a scheduled one never overlap either.
import { Cron } from "croner";
import { desc, eq, lt, max } from "drizzle-orm";
import type { Deps } from "../src/core/deps.ts";
import { AppError, notFound } from "../src/core/errors.ts";
import { type Job, type JobCounts, jobLeaseKey, result } from "../src/core/job.ts";
import { epochMs } from "../src/infra/tracing.ts";
import { jobRuns } from "./table.ts";

const LEASE_MS = 60_000;
const RENEW_MS = 20_000;

type JobRun = typeof jobRuns.$inferSelect;

export interface JobRunner {
  /** Starts the croner schedules (worker role). */
  start(): void;
  /** Stops scheduling, aborts running jobs and waits for them to return. */
  stop(): Promise<void>;
  /** Runs a job now (operators); resolves with its recorded run. */
  runNow(name: string): Promise<JobRun>;
  /** What a schedule tick does: null when another worker already claimed this run. */
  runScheduled(name: string, scheduledFor: Date): Promise<JobRun | null>;
  recentRuns(name?: string, limit?: number): Promise<JobRun[]>;
  readonly jobs: readonly Job[];
}

export function createJobRunner(deps: Deps, jobs: readonly Job[]): JobRunner {
  const log = deps.log.child({ component: "jobs" });
  const abort = new AbortController();
  const crons: Cron[] = [];
  const running = new Set<Promise<unknown>>();

  async function execute(job: Job, trigger: "schedule" | "manual", scheduledFor: Date | null): Promise<JobRun | null> {
    const startedAt = deps.clock.now();
    const [claimed] = await deps.db
      .insert(jobRuns)
      .values({ name: job.name, trigger, scheduledFor, startedAt, outcome: "running" })
      .onConflictDoNothing()
      .returning();
    if (!claimed) return null; // another worker took this scheduled run

    const runId = claimed.id;
    const began = performance.now();
    const ms = () => Math.round(performance.now() - began);
    const traced = (outcome: string, error?: string) =>
      deps.tracing.record({
        name: `job ${job.name}`,
        kind: "internal",
        startMs: epochMs(began),
        endMs: epochMs(performance.now()),
        attributes: { "shelf.job": job.name, "shelf.job_run_id": runId, "shelf.trigger": trigger, "shelf.outcome": outcome },
        error,
      });
    const finish = async (outcome: JobRun["outcome"], fields: { error?: string; summary?: string; counts?: JobCounts }) => {
      const [row] = await deps.db
        .update(jobRuns)
        .set({ outcome, finishedAt: deps.clock.now(), ...fields })
        .where(eq(jobRuns.id, runId))
        .returning();
      return row!;
    };

    const leaseKey = jobLeaseKey(job.name);
    const token = await deps.kv.acquireLease(leaseKey, LEASE_MS);
    if (!token) {
      log.info("job skipped: another run of it is in progress", { job: job.name, runId, trigger });
      return finish("skipped", { error: "another run of this job is in progress" });
    }
    const renew = setInterval(() => {
      deps.kv.renewLease(leaseKey, token, LEASE_MS).catch((err) => log.warn("lease renewal failed", { job: job.name, runId, err }));
    }, RENEW_MS);
    // An operator's run is news; a scheduled one is the loop (its end says what it did).
    log[trigger === "manual" ? "info" : "debug"]("job started", { job: job.name, runId, trigger });
    const runLog = log.child({ job: job.name, runId });
    try {
      const done = await job.run({
        deps,
        log: runLog,
        signal: abort.signal,
        progress: (counts, fields) => runLog.info("job progress", { ...fields, counts, ms: ms() }),
      });
      const { summary, counts } = typeof done === "object" ? done : { summary: done, counts: undefined };
      // A run that found nothing to do (every count zero: the outbox every minute) at debug.
      const idle = counts !== undefined && Object.values(counts).every((n) => n === 0);
      log[idle ? "debug" : "info"]("job finished", { job: job.name, runId, trigger, outcome: "ok", ms: ms(), summary, counts });
      const run = await finish("ok", { summary, counts });
      deps.metrics.jobRun(job.name, "ok", (performance.now() - began) / 1000);
      deps.metrics.jobSucceeded(job.name, (run.finishedAt ?? deps.clock.now()).getTime());
      traced("ok");
      return run;
    } catch (err) {
      log.error("job failed", { job: job.name, runId, trigger, outcome: "failed", ms: ms(), err });
      deps.metrics.jobRun(job.name, "failed", (performance.now() - began) / 1000);
      const error = String((err as Error)?.message ?? err).slice(0, 2000);
      traced("failed", error);
      return await finish("failed", { error });
    } finally {
      clearInterval(renew);
      await deps.kv.releaseLease(leaseKey, token).catch(() => {});
    }
  }

  /**
   * Each job's period, and its last success as the job_runs table has it (any node's run):
   * a worker just started shows when its jobs last ran well, not nothing until they run.
   */
  async function seedMetrics() {
    for (const job of jobs) {
      const [next, after] = new Cron(job.schedule, { timezone: "UTC", paused: true }).nextRuns(2);
      if (next && after) deps.metrics.jobPeriod(job.name, (after.getTime() - next.getTime()) / 1000);
    }
    try {
      const rows = await deps.db
        .select({ name: jobRuns.name, at: max(jobRuns.finishedAt) })
        .from(jobRuns)
        .where(eq(jobRuns.outcome, "ok"))
        .groupBy(jobRuns.name);
      for (const { name, at } of rows) if (at && jobs.some((j) => j.name === name)) deps.metrics.jobSucceeded(name, new Date(at).getTime());
    } catch (err) {
      log.warn("reading the jobs' last successes for the metrics failed", { err });
    }
  }

  function track<T>(p: Promise<T>): Promise<T> {
    running.add(p);
    p.finally(() => running.delete(p)).catch(() => {});
    return p;
  }

  return {
    jobs,
    start() {
      for (const job of jobs) {
        crons.push(
          new Cron(job.schedule, { timezone: "UTC", protect: true, name: job.name }, async () => {
            // Workers fire within milliseconds of each other; the minute names the run.
            const minute = new Date(Math.round(Date.now() / 60_000) * 60_000);
            await track(execute(job, "schedule", minute)).catch((err) => log.error("job bookkeeping failed", { job: job.name, err }));
          }),
        );
      }
      log.info("job schedules started", { jobs: jobs.map((j) => `${j.name} (${j.schedule})`) });
      if (deps.metrics.enabled) void seedMetrics();
    },
    async stop() {
      for (const c of crons) c.stop();
      abort.abort();
      await Promise.allSettled([...running]);
    },
    async runNow(name) {
      const job = jobs.find((j) => j.name === name);
      if (!job) throw notFound("job");
      const run = await track(execute(job, "manual", null));
      if (!run) throw new AppError("INTERNAL", "manual run was not recorded");
      return run;
    },
    runScheduled(name, scheduledFor) {
      const job = jobs.find((j) => j.name === name);
      if (!job) throw notFound("job");
      return track(execute(job, "schedule", scheduledFor));
    },
    async recentRuns(name, limit = 20) {
      return deps.db
        .select()
        .from(jobRuns)
        .where(name ? eq(jobRuns.name, name) : undefined)
        .orderBy(desc(jobRuns.startedAt))
        .limit(limit);
    },
  };
}

/** Keeps the job_runs record bounded: runs older than 30 days are deleted. */
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
