// The export worker of the worker role: claims queued exports (queue.ts) and writes their
// archives (archive.ts), up to EXPORT_CONCURRENCY at once per node. step() runs one export
// to its end and is what tests drive; start() loops it until stop(). As the transcode
// worker does, it renews its lease with every progress and on a heartbeat, so a long
// member (a 2 GB video) keeps it and a dead node's export is taken over within a minute.
import type { Deps } from "../../core/deps.ts";
import { newId } from "../../infra/ids.ts";
import { storeUnreachable } from "../../infra/storage/types.ts";
import { audioExportTotals } from "../audio/public.ts";
import { imageExportTotals } from "../images/public.ts";
import { libraryExportTotals } from "../library/public.ts";
import { videoExportTotals } from "../videos/public.ts";
import { archiveKey, ExportFailure, writeArchive } from "./archive.ts";
import { claim, heldUpdate, MAX_ATTEMPTS, markFailed, markReady, retryLater } from "./queue.ts";
import type { ExportRow } from "./table.ts";
import { workLoop } from "../../infra/work-loop.ts";

const LEASE_MS = 60_000;
const HEARTBEAT_MS = 15_000;
const IDLE_MS = 2_000;
/** Progress is written at most this often (and always for the first member), with the lease. */
const PROGRESS_EVERY_MS = 250;

class LeaseLost extends Error {
  override name = "LeaseLost";
}

export interface ExportWorker {
  /** Claims one due export and writes it; false when none was due. */
  step(): Promise<boolean>;
  start(concurrency: number): void;
  stop(): Promise<void>;
}

export interface ExportWorkerOptions {
  id?: string;
  heartbeatMs?: number;
  /** Told each progress once it is written: what a test waits on. */
  onProgress?: (exportId: string, done: { items: number; bytes: number }) => void;
}

async function totalsOf(deps: Deps, row: ExportRow) {
  const k = new Set(row.kinds);
  const none = { items: 0, bytes: 0 };
  const parts = await Promise.all([
    k.has("images") ? imageExportTotals(deps.db, row.ownerId) : none,
    k.has("videos") ? videoExportTotals(deps.db, row.ownerId) : none,
    k.has("audio") ? audioExportTotals(deps.db, row.ownerId) : none,
    libraryExportTotals(deps.db, row.ownerId, { documents: k.has("documents"), kbIds: k.has("kbs") ? row.kbIds : false }),
  ]);
  return parts.reduce((a, b) => ({ items: a.items + b.items, bytes: a.bytes + b.bytes }), none);
}

export function createExportWorker(deps: Deps, o: ExportWorkerOptions = {}): ExportWorker {
  const worker = o.id ?? `export-${newId()}`;
  const stopping = new AbortController();
  const loops: Promise<void>[] = [];
  const log = deps.log.child({ component: "export" });
  const retentionMs = deps.config.EXPORT_RETENTION_H * 3_600_000;

  async function run(row: ExportRow) {
    const renew = (set = {}) => heldUpdate(deps.db, row.id, worker, deps.clock.now(), LEASE_MS, set);
    const totals = await totalsOf(deps, row);
    if (!(await renew({ itemsTotal: totals.items, bytesTotal: totals.bytes }))) throw new LeaseLost();
    let last = Number.NEGATIVE_INFINITY;
    let copied = { items: 0, bytes: 0 };
    const archiveBytes = await writeArchive(deps, row, {
      async progress(done) {
        copied = done;
        if (stopping.signal.aborted) throw new LeaseLost("the worker is stopping");
        if (performance.now() - last < PROGRESS_EVERY_MS) return;
        last = performance.now();
        if (!(await renew({ itemsDone: done.items, bytesDone: done.bytes }))) throw new LeaseLost();
        o.onProgress?.(row.id, done);
      },
    });
    const key = archiveKey(row);
    if (!(await markReady(deps.db, row, worker, { objectKey: key, archiveBytes, ...copied }, deps.clock.now(), retentionMs))) {
      // Deleted (or taken over) while it was written: nobody may download this one.
      await deps.storage.delete(key).catch(() => {});
      throw new LeaseLost();
    }
    o.onProgress?.(row.id, copied);
    return { archiveBytes, ...copied };
  }

  async function step(): Promise<boolean> {
    const row = await claim(deps.db, worker, deps.clock.now(), LEASE_MS);
    if (!row) return false;
    const began = performance.now();
    const ids = { exportId: row.id, userId: row.ownerId };
    if (row.attempts > MAX_ATTEMPTS) {
      await markFailed(deps.db, row, worker, `the export was tried ${MAX_ATTEMPTS} times and did not finish`, deps.clock.now());
      log.error("export given up", { ...ids, attempts: row.attempts });
      return true;
    }
    log.info("export started", { ...ids, attempt: row.attempts, kinds: row.kinds });
    const heartbeat = setInterval(() => void heldUpdate(deps.db, row.id, worker, deps.clock.now(), LEASE_MS).catch(() => {}), o.heartbeatMs ?? HEARTBEAT_MS);
    try {
      const end = await run(row);
      log.info("export finished", { ...ids, ...end, ms: Math.round(performance.now() - began) });
    } catch (err) {
      if (err instanceof LeaseLost) {
        log.warn("export stopped: no longer held (deleted, taken over or shutting down)", { ...ids });
        // A stop leaves it running under a lease that runs out: the next worker takes it.
        return true;
      }
      const lastTry = row.attempts >= MAX_ATTEMPTS;
      // What a retry cannot mend fails at once; anything else (the store away, a write it
      // refused) is tried again after a back-off, MAX_ATTEMPTS times in all.
      if (err instanceof ExportFailure || lastTry) {
        const reason =
          err instanceof ExportFailure ? err.message : storeUnreachable(err) ? "the object store could not be reached" : "the archive could not be written";
        log.error("export failed", { ...ids, reason, err });
        await deps.storage.delete(archiveKey(row)).catch(() => {});
        await markFailed(deps.db, row, worker, reason, deps.clock.now());
      } else {
        log.warn("export failed; retrying later", { ...ids, attempt: row.attempts, err });
        await retryLater(deps.db, row, worker, deps.clock.now());
      }
    } finally {
      clearInterval(heartbeat);
    }
    return true;
  }

  const loop = () => workLoop(step, { signal: stopping.signal, idleMs: IDLE_MS, onError: (err) => log.error("export worker step failed", { err }) });

  return {
    step,
    start(concurrency) {
      if (concurrency <= 0) return;
      log.info("export worker started", { concurrency });
      for (let i = 0; i < concurrency; i++) loops.push(loop());
    },
    async stop() {
      stopping.abort();
      await Promise.allSettled(loops);
    },
  };
}
