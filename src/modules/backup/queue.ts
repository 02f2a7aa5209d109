// The export queue is the exports table itself. A worker claims the oldest due export
// (queued, or running under a lease that ran out: its worker died) with FOR UPDATE SKIP
// LOCKED, and holds it by renewing its lease with each progress it writes. Every write of
// a held export names the worker, so one that lost it (another worker took it over, or
// its owner deleted it) is told so and stops.
import { eq, sql } from "drizzle-orm";
import type { DbOrTx } from "../../infra/db/index.ts";
import { heldBy, oldestDue } from "../../infra/db/leased-queue.ts";
import { notify } from "../notifications/public.ts";
import { accountExports, type ExportRow } from "./table.ts";

/** A transient failure (the store away) is tried again this many claims in all, then the export fails. */
export const MAX_ATTEMPTS = 3;

export async function claim(db: DbOrTx, worker: string, now: Date, leaseMs: number): Promise<ExportRow | null> {
  const at = now.toISOString();
  const [row] = await db
    .update(accountExports)
    .set({
      state: "running",
      leaseOwner: worker,
      leaseUntil: new Date(now.getTime() + leaseMs),
      attempts: sql`${accountExports.attempts} + 1`,
      startedAt: sql`coalesce(${accountExports.startedAt}, ${at}::timestamptz)`,
      itemsDone: 0,
      bytesDone: 0,
    })
    .where(eq(accountExports.id, oldestDue(accountExports, accountExports, at)))
    .returning();
  return row ?? null;
}

const held = (id: string, worker: string) => heldBy(accountExports, id, worker);

/** Writes progress (or the totals) and extends the lease; false when the export is no longer this worker's. */
export async function heldUpdate(
  db: DbOrTx,
  id: string,
  worker: string,
  now: Date,
  leaseMs: number,
  set: Partial<Pick<ExportRow, "itemsDone" | "bytesDone" | "itemsTotal" | "bytesTotal">> = {},
): Promise<boolean> {
  const rows = await db
    .update(accountExports)
    .set({ ...set, leaseUntil: new Date(now.getTime() + leaseMs) })
    .where(held(id, worker))
    .returning({ id: accountExports.id });
  return rows.length > 0;
}

/** Marks the export ready and tells its owner, in one transaction; false when it was no longer held. */
export async function markReady(
  db: DbOrTx,
  row: ExportRow,
  worker: string,
  done: { objectKey: string; archiveBytes: number; items: number; bytes: number },
  now: Date,
  retentionMs: number,
): Promise<boolean> {
  const expiresAt = new Date(now.getTime() + retentionMs);
  return db.transaction(async (tx) => {
    const rows = await tx
      .update(accountExports)
      .set({
        state: "ready",
        objectKey: done.objectKey,
        archiveBytes: done.archiveBytes,
        itemsDone: done.items,
        bytesDone: done.bytes,
        finishedAt: now,
        expiresAt,
        leaseOwner: null,
        leaseUntil: null,
      })
      .where(held(row.id, worker))
      .returning({ id: accountExports.id });
    if (!rows.length) return false;
    await notify(
      tx,
      [{ kind: "export_ready", userId: row.ownerId, payload: { exportId: row.id, archiveBytes: done.archiveBytes, expiresAt: expiresAt.toISOString() } }],
      now,
    );
    return true;
  });
}

/** Fails the export for good (with why) and tells its owner; false when it was no longer held. */
export async function markFailed(db: DbOrTx, row: ExportRow, worker: string, reason: string, now: Date): Promise<boolean> {
  return db.transaction(async (tx) => {
    const rows = await tx
      .update(accountExports)
      .set({ state: "failed", failureReason: reason.slice(0, 500), finishedAt: now, leaseOwner: null, leaseUntil: null })
      .where(held(row.id, worker))
      .returning({ id: accountExports.id });
    if (!rows.length) return false;
    await notify(tx, [{ kind: "export_failed", userId: row.ownerId, payload: { exportId: row.id, reason: reason.slice(0, 500) } }], now);
    return true;
  });
}

/** Puts the export back in the queue, due after a back-off (the lease column says when). */
export async function retryLater(db: DbOrTx, row: ExportRow, worker: string, now: Date): Promise<void> {
  await db
    .update(accountExports)
    .set({ state: "queued", leaseOwner: null, leaseUntil: new Date(now.getTime() + 60_000 * 2 ** Math.min(row.attempts, 5)) })
    .where(held(row.id, worker));
}
