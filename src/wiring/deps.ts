// Builds every part from the Config: the one place where embedded or production parts
// are chosen. Everything downstream receives Deps and never looks at the environment.
// Deps holds the parts (and the plan table the config sets); the services built on them,
// once per process, are services.ts's.
import type { Config } from "../config.ts";
// The plan table file itself, not identity's public surface: every module's files import
// the Deps type, so Deps imports no module file that imports it back.
import { buildPlans, type Plans } from "../modules/identity/plans.ts";
import { availableParallelism } from "node:os";
import { createBudget, type Budget } from "../infra/budget.ts";
import { createBufferPool, type BufferPool } from "../infra/buffer-pool.ts";
import { createClock, type Clock } from "../infra/clock.ts";
import { createDatabase, type Database, type Db } from "../infra/db/index.ts";
import { createKv, type Kv } from "../infra/kv/index.ts";
import { createLog, type Log } from "../infra/log.ts";
import { createStorage, type Storage } from "../infra/storage/index.ts";
import { createTypstCompiler, type TypstCompiler } from "../infra/typst/index.ts";

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
  plans: Plans;
  /** Per-node limits on what untrusted uploads may hold at once (docs/security.md, "Hostile input"). */
  budgets: Budgets;
  /** Typst compiles in processes of their own, bounded in time and memory (src/infra/typst/). */
  typst: TypstCompiler;
}

interface Budgets {
  /** Bytes of upload bodies held in memory. */
  uploadMemory: Budget;
  /** The buffers those bodies are read into, reused (at most the same bytes are kept). */
  uploadBuffers: BufferPool;
  /** Decoded pixel bytes of images being decoded or encoded, and how many at once. */
  imageWork: Budget;
}

function createBudgets(config: Config): Budgets {
  return {
    uploadMemory: createBudget({ name: "upload memory", capacity: config.UPLOAD_MEMORY_BYTES, maxWaitMs: config.BUSY_WAIT_MS }),
    uploadBuffers: createBufferPool(config.UPLOAD_MEMORY_BYTES),
    imageWork: createBudget({
      name: "image work",
      capacity: config.IMAGE_WORK_PIXEL_BYTES,
      maxHolders: config.IMAGE_WORK_CONCURRENCY || availableParallelism(),
      maxWaitMs: config.BUSY_WAIT_MS,
    }),
  };
}

export async function createDeps(config: Config, opts: { log?: Log; migrate?: boolean; background?: boolean } = {}): Promise<Deps> {
  const log = opts.log ?? createLog(config.LOG_LEVEL);
  const clock = createClock(config.SHELF_TEST_NOW);
  const database = await createDatabase(config, log, { migrate: opts.migrate ?? config.MIGRATE_ON_START });
  try {
    if (!opts.background) await database.opened;
    const [kv, storage] = await Promise.all([createKv(config, log), createStorage(config)]);
    return {
      config,
      log,
      clock,
      database,
      db: database.db,
      ready: database.opened,
      kv,
      storage,
      plans: buildPlans(config.planOverrides),
      budgets: createBudgets(config),
      typst: createTypstCompiler({
        timeoutMs: config.TYPST_TIMEOUT_MS,
        memoryBytes: config.TYPST_MEMORY_MB * 1024 * 1024,
        concurrency: config.TYPST_CONCURRENCY,
        maxWaitMs: config.BUSY_WAIT_MS,
        log,
      }),
    };
  } catch (e) {
    await database.close().catch(() => {});
    throw e;
  }
}

export async function closeDeps(deps: Deps): Promise<void> {
  await Promise.allSettled([deps.kv.close(), deps.database.close()]);
}
