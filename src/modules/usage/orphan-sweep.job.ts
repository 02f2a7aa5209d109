// No orphaned bytes. Objects are written before the rows that name them (an upload stores,
// then commits), so a process killed in between, or a delete whose object removal failed,
// leaves an object no row names. For each stored kind (the registry hands the list in):
//   - rows the kind says nothing needs any more (a KB file's bytes no path links) since
//     before the cutoff are released first, their counters given back, so their objects
//     are orphans of the step below;
//   - objects under its prefix that no row names and that are older than
//     ORPHAN_SWEEP_AFTER_H (by the store's last-modified time, against the clock) are
//     deleted; a younger one may be an upload in flight and is left alone, and so is one
//     whose age the store does not say. The objects of a user whose row is gone are such
//     objects too (their rows went with the user's).
//   - rows whose object is missing are counted and logged, never deleted: that is a
//     loss for an operator to look into, not for a job to paper over.
//   - multipart uploads under its prefix that were begun before the upload cutoff and
//     never completed (S3: a process killed mid-upload leaves its parts, stored and billed
//     but in no listing of objects) are aborted. The cutoff is ORPHAN_SWEEP_AFTER_H, and
//     never less than the longest upload deadline and an hour, so an upload still
//     arriving is never cut. The folder store has none.
// Idempotent: a second run finds nothing to delete.
import type { Deps } from "../../core/deps.ts";
import type { Log } from "../../infra/log.ts";
import type { StoredKind } from "./verify.ts";
import { type Job, type JobCounts, result } from "../../core/job.ts";

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

/** Multipart uploads begun before `cutoff` and never finished: aborted (their parts deleted). */
async function abortStaleUploads(deps: Deps, log: Log, kind: StoredKind, cutoff: number, c: JobCounts, signal: AbortSignal) {
  const store = deps.storage;
  if (!store.listUploads || !store.abortUpload) return;
  try {
    for await (const u of store.listUploads(kind.prefix)) {
      if (signal.aborted) return;
      if (u.initiated.getTime() > cutoff) {
        c.uploadsYoung!++;
        continue;
      }
      if (kind.keptUploads && (await kind.keptUploads(deps.db, [u])).has(u.uploadId)) {
        c.uploadsYoung!++;
        continue;
      }
      try {
        await store.abortUpload(u.key, u.uploadId);
      } catch (err) {
        log.warn("unfinished multipart upload abort failed", { kind: kind.name, key: u.key, uploadId: u.uploadId, err });
        c.uploadAbortFailed!++;
        continue;
      }
      log.info("unfinished multipart upload aborted", { kind: kind.name, key: u.key, uploadId: u.uploadId, initiated: u.initiated });
      c.uploadsAborted!++;
    }
  } catch (err) {
    // A store that cannot list them (some S3-compatible servers do not implement the call)
    // still has its objects swept.
    log.warn("unfinished multipart uploads could not be listed", { kind: kind.name, prefix: kind.prefix, err });
    c.uploadListFailed!++;
  }
}

/** How old an upload still arriving may be: the longest body deadline, and an hour for its last parts. */
const uploadCutoffMs = (config: Deps["config"]) =>
  Math.max(config.ORPHAN_SWEEP_AFTER_H * HOUR_MS, Math.max(config.UPLOAD_BODY_TIMEOUT_S, config.VIDEO_UPLOAD_TIMEOUT_S) * 1000 + HOUR_MS);

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

/** The sweep over `storedKinds`, every kind of stored thing (the job registry lists them). */
export const orphanSweepJob = (storedKinds: readonly StoredKind[]): Job => ({
  name: "orphan-sweep",
  schedule: "35 2 * * *",
  description:
    "deletes stored objects no row names once older than ORPHAN_SWEEP_AFTER_H hours and aborts multipart uploads left unfinished as long; counts and logs rows whose object is missing",
  async run({ deps, log, signal, progress }) {
    const now = deps.clock.nowMs();
    const cutoff = now - deps.config.ORPHAN_SWEEP_AFTER_H * HOUR_MS;
    const c: JobCounts = {
      released: 0,
      objects: 0,
      young: 0,
      deleted: 0,
      deletedBytes: 0,
      deleteFailed: 0,
      missing: 0,
      uploadsAborted: 0,
      uploadsYoung: 0,
      uploadAbortFailed: 0,
      uploadListFailed: 0,
    };
    for (const [i, kind] of storedKinds.entries()) {
      if (kind.releaseUnneeded) c.released! += await kind.releaseUnneeded(deps.db, new Date(cutoff), signal);
      await sweepObjects(deps, log, kind, cutoff, c, signal);
      await abortStaleUploads(deps, log, kind, now - uploadCutoffMs(deps.config), c, signal);
      await findMissing(deps, log, kind, c, signal);
      // A sweep of a large store takes a while: a line per kind swept, with the counts so far.
      progress?.({ ...c }, { kind: kind.name, step: i + 1, steps: storedKinds.length });
    }
    return result(
      c,
      (n) =>
        `looked at ${n.objects} objects: deleted ${n.deleted} orphans (${n.deletedBytes} bytes)${n.deleteFailed ? `, ${n.deleteFailed} failed to delete` : ""}, left ${n.young} younger than ${deps.config.ORPHAN_SWEEP_AFTER_H} h; aborted ${n.uploadsAborted} unfinished multipart uploads${n.uploadAbortFailed ? ` (${n.uploadAbortFailed} failed)` : ""}${n.uploadListFailed ? ` (not listed under ${n.uploadListFailed} prefixes)` : ""}, left ${n.uploadsYoung} younger than ${uploadCutoffMs(deps.config) / HOUR_MS} h; ${n.missing} rows name a missing object${n.released ? `; released ${n.released} unlinked KB files` : ""}`,
    );
  },
});
