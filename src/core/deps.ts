// What every module is handed: the parts (database, kv, object store, mail's outbox through
// the database, clock, log), the plan table and the node's budgets. The wiring builds them
// (src/wiring/deps.ts); modules, jobs and http read this interface only.
import type { Config } from "../config.ts";
import type { Budget } from "../infra/budget.ts";
import type { BufferPool } from "../infra/buffer-pool.ts";
import type { Clock } from "../infra/clock.ts";
import type { Database, Db } from "../infra/db/index.ts";
import type { Kv } from "../infra/kv/index.ts";
import type { Log } from "../infra/log.ts";
import type { Metrics } from "../infra/metrics.ts";
import type { Tracing } from "../infra/tracing.ts";
import type { Storage } from "../infra/storage/index.ts";
import type { TypstCompiler } from "../infra/typst/index.ts";
import type { Plans } from "./plans.ts";

export interface Deps {
  config: Config;
  log: Log;
  clock: Clock;
  database: Database;
  db: Db;
  /**
   * The database open and migrated. createDeps awaits it unless asked to return at once
   * (`background`, src/wiring/cli/index.ts), so that the app is built while the embedded
   * database opens; `serve` then awaits it (src/wiring/server.ts).
   */
  ready?: Promise<void>;
  kv: Kv;
  storage: Storage;
  /** The node's Prometheus metrics: every hook a no-op when they are off (src/infra/metrics.ts). */
  metrics: Metrics;
  /** Spans of requests, jobs and transcodes, sent when OTEL_EXPORTER_OTLP_ENDPOINT is set; no-ops otherwise. */
  tracing: Tracing;
  plans: Plans;
  /** Per-node limits on what untrusted uploads may hold at once (docs/security.md, "Hostile input"). */
  budgets: Budgets;
  /** Typst compiles in processes of their own, bounded in time and memory (src/infra/typst/). */
  typst: TypstCompiler;
}

export interface Budgets {
  /** Bytes of upload bodies held in memory. */
  uploadMemory: Budget;
  /** The buffers those bodies are read into, reused (at most the same bytes are kept). */
  uploadBuffers: BufferPool;
  /** Decoded pixel bytes of images being decoded or encoded, and how many at once. */
  imageWork: Budget;
}
