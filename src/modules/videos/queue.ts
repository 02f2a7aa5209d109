// The durable work queue of video providers: a transcode after an upload, a cleanup after
// a delete. Rows are inserted in the transaction that records (or deletes) the video, so
// work is queued exactly when the change commits. A worker claims a job with FOR UPDATE
// SKIP LOCKED and a lease it renews while it works; a worker that dies leaves a lease that
// runs out, and the job is claimed again. What a job has already achieved rides in its
// payload (a transcode's result), so a second run goes on from there instead of redoing it.
import { and, count, eq, inArray, sql } from "drizzle-orm";
import type { DbOrTx, Tx } from "../../infra/db/index.ts";
import { newId } from "../../infra/ids.ts";
import { type TranscodeJobKind, type TranscodeJobRow, transcodeJobs, type VideoProviderName } from "./table.ts";

/** After this many claims a job is given up (failed): a poison job must not loop forever. */
const MAX_ATTEMPTS = 5;

export async function enqueue(
  tx: Tx,
  job: { kind: TranscodeJobKind; videoId: string; ownerId: string; provider: VideoProviderName; payload?: Record<string, unknown> },
  now: Date,
): Promise<void> {
  await tx
    .insert(transcodeJobs)
    .values({ id: newId(), ...job, payload: job.payload ?? {}, runAfter: now, createdAt: now })
    .onConflictDoNothing();
}

/**
 * What a delete job needs of a hosted provider to delete the video's asset there: the
 * asset's id once known, else the direct upload still making it (`upload:<id>`).
 */
function hostedRef(v: { providerAssetId: string | null }): Record<string, string> {
  const ref = v.providerAssetId;
  if (!ref) return {};
  return ref.startsWith("upload:") ? { uploadId: ref.slice("upload:".length) } : { assetId: ref };
}

/** Whether a transcode of this video was ever queued here, with this provider. */
export async function transcodedHere(db: DbOrTx, videoId: string, provider: VideoProviderName): Promise<boolean> {
  const [row] = await db
    .select({ id: transcodeJobs.id })
    .from(transcodeJobs)
    .where(and(eq(transcodeJobs.videoId, videoId), eq(transcodeJobs.kind, "transcode"), eq(transcodeJobs.provider, provider)))
    .limit(1);
  return Boolean(row);
}

/** Queues the cleanup of each deleted video: its objects, and a hosted provider's asset. */
export async function enqueueDeletes(
  tx: Tx,
  gone: { id: string; ownerId: string; provider: VideoProviderName; providerAssetId: string | null }[],
  now: Date,
): Promise<void> {
  for (const v of gone) await enqueue(tx, { kind: "delete", videoId: v.id, ownerId: v.ownerId, provider: v.provider, payload: hostedRef(v) }, now);
}

/**
 * Claims the oldest job that is due: queued, or running under a lease that ran out (its
 * worker died). Null when there is none.
 */
export async function claim(db: DbOrTx, worker: string, now: Date, leaseMs: number): Promise<TranscodeJobRow | null> {
  const until = new Date(now.getTime() + leaseMs);
  const [row] = await db
    .update(transcodeJobs)
    .set({ state: "running", leaseOwner: worker, leaseUntil: until, attempts: sql`${transcodeJobs.attempts} + 1` })
    .where(
      eq(
        transcodeJobs.id,
        sql`(select ${transcodeJobs.id} from ${transcodeJobs}
              where ${transcodeJobs.runAfter} <= ${now.toISOString()}
                and (${transcodeJobs.state} = 'queued' or (${transcodeJobs.state} = 'running' and ${transcodeJobs.leaseUntil} < ${now.toISOString()}))
              order by ${transcodeJobs.runAfter}, ${transcodeJobs.id}
              limit 1
              for update skip locked)`,
      ),
    )
    .returning();
  return row ?? null;
}

/** Jobs waiting (due or not) and running, fleet-wide: the metrics' queue depth. */
export async function queueDepth(db: DbOrTx): Promise<{ queued: number; running: number }> {
  const rows = await db
    .select({ state: transcodeJobs.state, n: count() })
    .from(transcodeJobs)
    .where(inArray(transcodeJobs.state, ["queued", "running"]))
    .groupBy(transcodeJobs.state);
  const of = (state: string) => rows.find((r) => r.state === state)?.n ?? 0;
  return { queued: of("queued"), running: of("running") };
}

const held = (job: Pick<TranscodeJobRow, "id">, worker: string) =>
  and(eq(transcodeJobs.id, job.id), eq(transcodeJobs.state, "running"), eq(transcodeJobs.leaseOwner, worker));

/** Extends the lease; false when it was lost (another worker took the job): stop working on it. */
export async function renew(db: DbOrTx, job: Pick<TranscodeJobRow, "id">, worker: string, now: Date, leaseMs: number): Promise<boolean> {
  const rows = await db
    .update(transcodeJobs)
    .set({ leaseUntil: new Date(now.getTime() + leaseMs) })
    .where(held(job, worker))
    .returning({ id: transcodeJobs.id });
  return rows.length > 0;
}

/** Records what the job achieved so far (while holding it); false when the lease was lost. */
export async function checkpoint(db: DbOrTx, job: Pick<TranscodeJobRow, "id">, worker: string, payload: Record<string, unknown>): Promise<boolean> {
  const rows = await db.update(transcodeJobs).set({ payload }).where(held(job, worker)).returning({ id: transcodeJobs.id });
  return rows.length > 0;
}

export async function complete(db: DbOrTx, job: Pick<TranscodeJobRow, "id">, worker: string, now: Date): Promise<boolean> {
  const rows = await db
    .update(transcodeJobs)
    .set({ state: "done", finishedAt: now, leaseOwner: null, leaseUntil: null })
    .where(held(job, worker))
    .returning({ id: transcodeJobs.id });
  return rows.length > 0;
}

/** Whether a failure of this claim of the job is its last (retryLater gives it up). */
export const givesUp = (job: Pick<TranscodeJobRow, "attempts" | "kind">) => job.kind === "transcode" && job.attempts >= MAX_ATTEMPTS;

/**
 * Puts the job back for a later attempt (backing off, up to about half an hour), or gives
 * a transcode up after MAX_ATTEMPTS. A cleanup is never given up: it is cheap, idempotent,
 * and may have to wait for a long transcode of the same video.
 */
export async function retryLater(db: DbOrTx, job: Pick<TranscodeJobRow, "id" | "attempts" | "kind">, worker: string, now: Date, error: string): Promise<void> {
  const giveUp = givesUp(job);
  await db
    .update(transcodeJobs)
    .set({
      state: giveUp ? "failed" : "queued",
      lastError: error.slice(0, 2000),
      runAfter: new Date(now.getTime() + 30_000 * 2 ** Math.min(job.attempts, 6)),
      leaseOwner: null,
      leaseUntil: null,
      finishedAt: giveUp ? now : null,
    })
    .where(held(job, worker));
}

/** The video's latest job of a kind (reconciliation reads how its transcode went). */
export async function latestJob(db: DbOrTx, videoId: string, kind: TranscodeJobKind): Promise<TranscodeJobRow | null> {
  const [row] = await db
    .select()
    .from(transcodeJobs)
    .where(and(eq(transcodeJobs.videoId, videoId), eq(transcodeJobs.kind, kind)))
    .orderBy(sql`${transcodeJobs.createdAt} desc`)
    .limit(1);
  return row ?? null;
}
