// What a scheduled job is: the contract between the modules, which define their jobs and
// export them from their public surface, and the one runner (jobs/runner.ts), which
// schedules every job the registry (jobs/index.ts) lists. It sits below both, so a module
// defines a job without importing the runner.
import type { Deps } from "./deps.ts";
import type { Log } from "../infra/log.ts";

interface JobContext {
  deps: Deps;
  /** Every line it writes names the job and the run (`job`, `runId`). */
  log: Log;
  /** Aborted when the worker shuts down: long jobs stop between units of work. */
  signal: AbortSignal;
  /**
   * A long job's progress, where it has steps (the orphan sweep's stored kinds): one
   * "job progress" line with what it has done so far. Optional for whoever runs a job
   * outside the runner (a test); the runner always gives it.
   */
  progress?(counts: JobCounts, fields?: Record<string, unknown>): void;
}

/** What a run did, by name (`{ deleted: 3, kept: 12 }`): stored with its run record. */
export type JobCounts = Record<string, number>;

/** A run's one-line summary and the counts it was made from. */
export interface JobResult {
  summary: string;
  counts: JobCounts;
}

export interface Job {
  name: string;
  /** Five-field cron pattern, evaluated in UTC. Minute granularity at most. */
  schedule: string;
  description: string;
  /**
   * Idempotent: a crash mid-run is repaired by the next run, and a run right after a
   * finished one finds nothing to do (its counts are zero). Returns what it did.
   */
  run(ctx: JobContext): Promise<JobResult | string | undefined>;
}

/** A result whose summary is written from its counts. */
export const result = (counts: JobCounts, summary: (c: JobCounts) => string): JobResult => ({ counts, summary: summary(counts) });

/**
 * The kv lease a run of `name` holds for as long as it runs: another job doing part of its
 * work (the month rollover settling the edge's bandwidth tallies) takes it too.
 */
export const jobLeaseKey = (name: string) => `job-lease:${name}`;
