// Builds every part from the Config: the one place where embedded or production parts
// are chosen. Everything downstream receives Deps and never looks at the environment.
// Deps holds the parts (and the plan table the config sets); the services built on them,
// once per process, are services.ts's.
import type { Config } from "../config.ts";
import type { Budgets, Deps } from "../core/deps.ts";
import { buildPlans } from "../core/plans.ts";
import { availableParallelism } from "node:os";
import { createBudget } from "../infra/budget.ts";
import { createBufferPool } from "../infra/buffer-pool.ts";
import { createClock } from "../infra/clock.ts";
import { createDatabase } from "../infra/db/index.ts";
import { createKv } from "../infra/kv/index.ts";
import { createLog, type Log } from "../infra/log.ts";
import { createMetrics, noMetrics } from "../infra/metrics.ts";
import { createTracing } from "../infra/tracing.ts";
import { VERSION } from "../infra/version.ts";
import { createStorage } from "../infra/storage/index.ts";
import { createTypstCompiler } from "../infra/typst/index.ts";

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

export type { Deps };

export async function createDeps(config: Config, opts: { log?: Log; migrate?: boolean; background?: boolean } = {}): Promise<Deps> {
  const log = opts.log ?? createLog(config.LOG_LEVEL);
  const clock = createClock(config.SHELF_TEST_NOW);
  const database = await createDatabase(config, log, { migrate: opts.migrate ?? config.MIGRATE_ON_START });
  try {
    if (!opts.background) await database.opened;
    const [kv, storage, tracing] = await Promise.all([
      createKv(config, log),
      createStorage(config),
      createTracing({ endpoint: config.OTEL_EXPORTER_OTLP_ENDPOINT, serviceName: config.OTEL_SERVICE_NAME, version: VERSION, log }),
    ]);
    return {
      config,
      log,
      clock,
      database,
      db: database.db,
      ready: database.opened,
      kv,
      storage,
      metrics: config.METRICS_TOKEN || config.METRICS_ADDRESS ? createMetrics({ version: VERSION }) : noMetrics,
      tracing,
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
  await Promise.allSettled([deps.kv.close(), deps.database.close(), deps.tracing.close()]);
}
