// The import worker of the worker role: claims queued imports (queue.ts), copies each
// archive from the object store to a file of its own (the zip reader needs to seek: it
// reads the central directory first), and runs the import (run.ts). An import ends
// completed or failed, with its report, and its archive is removed either way.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { AppError } from "../../core/errors.ts";
import { refusalError } from "../../core/refusal.ts";
import { newId } from "../../infra/ids.ts";
import { storeUnreachable } from "../../infra/storage/types.ts";
import { workLoop } from "../../infra/work-loop.ts";
import type { ImageDeps } from "../images/public.ts";
import { type Archive, ArchiveRefusal, openArchive } from "./archive.ts";
import { readManifest } from "./manifest.ts";
import { claim, finish, heldUpdate, MAX_ATTEMPTS, retryLater } from "./queue.ts";
import { runImport } from "./run.ts";
import type { MigrationReport, MigrationRow } from "./table.ts";

const LEASE_MS = 60_000;
const HEARTBEAT_MS = 15_000;
const IDLE_MS = 2_000;
const PROGRESS_EVERY_MS = 250;

class LeaseLost extends Error {
  override name = "LeaseLost";
}

export interface MigrationWorker {
  /** Claims one due import and runs it; false when none was due. */
  step(): Promise<boolean>;
  start(concurrency: number): void;
  stop(): Promise<void>;
}

const failedReport = (error: MigrationReport["error"]): MigrationReport => ({
  counts: { imported: 0, skipped: 0, revisions: 0, kbs: 0, collections: 0, rewrittenLinks: 0 },
  imported: [],
  skipped: [],
  error,
  truncated: false,
});

/** Why an import failed, as its report says: a refusal's own code, else what went wrong. */
function errorOf(err: unknown): NonNullable<MigrationReport["error"]> {
  if (err instanceof ArchiveRefusal) return { code: err.code, message: err.message, ...(err.member ? { member: err.member } : {}) };
  const refused = refusalError(err) ?? err;
  if (refused instanceof AppError) return { code: refused.code, message: refused.message };
  if (storeUnreachable(err)) return { code: "STORAGE_ERROR", message: "the object store could not be reached; nothing was imported" };
  return { code: "INTERNAL", message: "the import failed; nothing was imported" };
}

export function createMigrationWorker(deps: ImageDeps, o: { id?: string; heartbeatMs?: number } = {}): MigrationWorker {
  const worker = o.id ?? `import-${newId()}`;
  const stopping = new AbortController();
  const loops: Promise<void>[] = [];
  const log = deps.log.child({ component: "import" });

  async function copyArchive(row: MigrationRow, path: string) {
    const body = row.objectKey ? await deps.storage.get(row.objectKey) : null;
    if (!body) throw new AppError("STORAGE_ERROR", "the archive is missing from the object store");
    const out = Bun.file(path).writer({ highWaterMark: 1024 * 1024 });
    let size = 0;
    for await (const chunk of body) {
      size += chunk.length;
      out.write(chunk);
      await out.flush();
    }
    await out.end();
    return size;
  }

  async function run(row: MigrationRow): Promise<MigrationReport> {
    const dir = await mkdtemp(join(tmpdir(), "shelf-import-"));
    let archive: Archive | undefined;
    try {
      const path = join(dir, "archive.zip");
      const size = await copyArchive(row, path);
      archive = await openArchive(path, size);
      const manifest = await readManifest(archive);
      let last = Number.NEGATIVE_INFINITY;
      const renew = (set = {}) => heldUpdate(deps.db, row.id, worker, deps.clock.now(), LEASE_MS, set);
      if (!(await renew({ itemsTotal: manifest.items.length }))) throw new LeaseLost();
      return await runImport(deps, row, archive, manifest, {
        async progress(done, total) {
          if (stopping.signal.aborted) throw new LeaseLost("the worker is stopping");
          if (done < total && performance.now() - last < PROGRESS_EVERY_MS) return;
          last = performance.now();
          if (!(await renew({ itemsDone: done }))) throw new LeaseLost();
        },
      });
    } finally {
      archive?.close();
      await rm(dir, { recursive: true, force: true }).catch(() => {});
    }
  }

  async function step(): Promise<boolean> {
    const row = await claim(deps.db, worker, deps.clock.now(), LEASE_MS);
    if (!row) return false;
    const ids = { migrationId: row.id, userId: row.ownerId };
    const began = performance.now();
    const heartbeat = setInterval(() => void heldUpdate(deps.db, row.id, worker, deps.clock.now(), LEASE_MS).catch(() => {}), o.heartbeatMs ?? HEARTBEAT_MS);
    let report: MigrationReport;
    let state: "completed" | "failed" = "completed";
    try {
      if (row.attempts > MAX_ATTEMPTS) throw new AppError("INTERNAL", `the import was started ${MAX_ATTEMPTS} times and did not finish`);
      log.info("import started", { ...ids, attempt: row.attempts });
      report = await run(row);
      log.info("import finished", { ...ids, ...report.counts, ms: Math.round(performance.now() - began) });
    } catch (err) {
      if (err instanceof LeaseLost) {
        log.warn("import stopped: no longer held (taken over or shutting down)", ids);
        clearInterval(heartbeat);
        return true;
      }
      // A refusal is for good; anything else (the store or the database away) took back what
      // it made, and the import is tried again after a back-off, MAX_ATTEMPTS times in all.
      const refused = err instanceof ArchiveRefusal || refusalError(err) !== undefined || (err instanceof AppError && err.status < 500);
      if (!refused && row.attempts < MAX_ATTEMPTS) {
        log.warn("import failed; retrying later", { ...ids, attempt: row.attempts, err });
        clearInterval(heartbeat);
        await retryLater(deps.db, row, worker, deps.clock.now());
        return true;
      }
      state = "failed";
      report = failedReport(errorOf(err));
      const expected = refused;
      (expected ? log.warn : log.error).call(log, "import failed", { ...ids, code: report.error!.code, ...(expected ? {} : { err }) });
    } finally {
      clearInterval(heartbeat);
    }
    if (await finish(deps.db, row.id, worker, state, report, deps.clock.now())) {
      if (row.objectKey) await deps.storage.delete(row.objectKey).catch((err) => log.warn("import archive delete failed", { ...ids, err }));
    }
    return true;
  }

  const loop = () => workLoop(step, { signal: stopping.signal, idleMs: IDLE_MS, onError: (err) => log.error("import worker step failed", { err }) });

  return {
    step,
    start(concurrency) {
      if (concurrency <= 0) return;
      log.info("import worker started", { concurrency });
      for (let i = 0; i < concurrency; i++) loops.push(loop());
    },
    async stop() {
      stopping.abort();
      await Promise.allSettled(loops);
    },
  };
}
