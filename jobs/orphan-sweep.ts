// No orphaned bytes. Objects are written before the rows that name them (an upload stores,
// then commits), so a process killed in between, or a delete whose object removal failed,
// leaves an object no row names. For each stored kind (stored-kinds.ts):
//   - objects under its prefix that no row names and that are older than
//     ORPHAN_SWEEP_AFTER_H (by the store's last-modified time, against the clock) are
//     deleted; a younger one may be an upload in flight and is left alone, and so is one
//     whose age the store does not say. The objects of a user whose row is gone are such
//     objects too (their rows went with the user's).
//   - rows whose object is missing are counted and logged, never deleted: that is a
//     loss for an operator to look into, not for a job to paper over.
// Idempotent: a second run finds nothing to delete.
import type { Deps } from "../src/deps.ts";
import type { Log } from "../src/infra/log.ts";
import type { StoredKind } from "../src/modules/usage/public.ts";
import { type Job, type JobCounts, result } from "./job.ts";
import { storedKinds } from "./stored-kinds.ts";

const BATCH = 500;
const HEAD_CONCURRENCY = 8;
const HOUR_MS = 3_600_000;

type Listed = { key: string; size: number; lastModified?: Date };

async function sweepBatch(deps: Deps, log: Log, kind: StoredKind, batch: Listed[], cutoff: number, c: JobCounts) {
  const old = batch.filter((o) => o.lastModified !== undefined && o.lastModified.getTime() <= cutoff);
  c.young! += batch.length - old.length;
  if (!old.length) return;
  const named = await kind.referenced(
    deps.db,
    old.map((o) => o.key),
  );
  for (const o of old) {
    if (named.has(o.key)) continue;
    try {
      await deps.storage.delete(o.key);
    } catch (err) {
      // Left for the next run; the others go on.
      log.warn("orphaned object delete failed", { kind: kind.name, key: o.key, err });
      c.deleteFailed!++;
      continue;
    }
    log.info("orphaned object deleted", { kind: kind.name, key: o.key, size: o.size, lastModified: o.lastModified });
    c.deleted!++;
    c.deletedBytes! += o.size;
  }
}

async function sweepObjects(deps: Deps, log: Log, kind: StoredKind, cutoff: number, c: JobCounts, signal: AbortSignal) {
  let batch: Listed[] = [];
  for await (const o of deps.storage.list(kind.prefix)) {
    c.objects!++;
    batch.push(o);
    if (batch.length < BATCH) continue;
    if (signal.aborted) return;
    await sweepBatch(deps, log, kind, batch, cutoff, c);
    batch = [];
  }
  await sweepBatch(deps, log, kind, batch, cutoff, c);
}

/** Rows naming an object the store does not have: counted and logged (a row deleted meanwhile is not). */
async function findMissing(deps: Deps, log: Log, kind: StoredKind, c: JobCounts, signal: AbortSignal) {
  let after: string | null = null;
  do {
    if (signal.aborted) return;
    const page = await kind.namedKeys(deps.db, after, BATCH);
    const absent: string[] = [];
    for (let i = 0; i < page.keys.length; i += HEAD_CONCURRENCY) {
      const keys = page.keys.slice(i, i + HEAD_CONCURRENCY);
      const heads = await Promise.all(keys.map((k) => deps.storage.head(k)));
      absent.push(...keys.filter((_, j) => heads[j] === null));
    }
    if (absent.length) {
      for (const key of await kind.referenced(deps.db, absent)) {
        log.warn("a row names an object the store does not have", { kind: kind.name, key });
        c.missing!++;
      }
    }
    after = page.next;
  } while (after !== null);
}

export const orphanSweep: Job = {
  name: "orphan-sweep",
  schedule: "35 2 * * *",
  description: "deletes stored objects no row names once older than ORPHAN_SWEEP_AFTER_H hours; counts and logs rows whose object is missing",
  async run({ deps, log, signal }) {
    const cutoff = deps.clock.nowMs() - deps.config.ORPHAN_SWEEP_AFTER_H * HOUR_MS;
    const c: JobCounts = { objects: 0, young: 0, deleted: 0, deletedBytes: 0, deleteFailed: 0, missing: 0 };
    for (const kind of storedKinds) {
      await sweepObjects(deps, log, kind, cutoff, c, signal);
      await findMissing(deps, log, kind, c, signal);
    }
    return result(
      c,
      (n) =>
        `looked at ${n.objects} objects: deleted ${n.deleted} orphans (${n.deletedBytes} bytes)${n.deleteFailed ? `, ${n.deleteFailed} failed to delete` : ""}, left ${n.young} younger than ${deps.config.ORPHAN_SWEEP_AFTER_H} h; ${n.missing} rows name a missing object`,
    );
  },
};
