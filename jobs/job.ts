import type { Deps } from "../src/deps.ts";
import type { Log } from "../src/infra/log.ts";

interface JobContext {
  deps: Deps;
  log: Log;
  /** Aborted when the worker shuts down: long jobs stop between units of work. */
  signal: AbortSignal;
}

export interface Job {
  name: string;
  /** Five-field cron pattern, evaluated in UTC. Minute granularity at most. */
  schedule: string;
  description: string;
  /** Idempotent: a crash mid-run is repaired by the next run. Returns a one-line summary. */
  run(ctx: JobContext): Promise<string | undefined>;
}
