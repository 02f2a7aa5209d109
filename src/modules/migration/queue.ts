// The import queue is the migrations table itself, as the export queue is the exports
// table (backup/queue.ts): a worker claims the oldest due import (queued, or running under
// a lease that ran out) with FOR UPDATE SKIP LOCKED and renews its lease with each progress.
import { eq, sql } from "drizzle-orm";
import type { DbOrTx } from "../../infra/db/index.ts";
import { heldBy, oldestDue } from "../../infra/db/leased-queue.ts";
import { type MigrationReport, type MigrationRow, migrations } from "./table.ts";

/** An import is claimed this many times in all (a worker that died, the store away), then it fails. */
export const MAX_ATTEMPTS = 3;

export async function claim(db: DbOrTx, worker: string, now: Date, leaseMs: number): Promise<MigrationRow | null> {
  const at = now.toISOString();
  const [row] = await db
    .update(migrations)
    .set({
      state: "running",
      leaseOwner: worker,
      leaseUntil: new Date(now.getTime() + leaseMs),
      attempts: sql`${migrations.attempts} + 1`,
      startedAt: sql`coalesce(${migrations.startedAt}, ${at}::timestamptz)`,
      itemsDone: 0,
    })
    .where(eq(migrations.id, oldestDue(migrations, migrations, at)))
    .returning();
  return row ?? null;
}

const held = (id: string, worker: string) => heldBy(migrations, id, worker);

/** Writes progress and extends the lease; false when the import is no longer this worker's. */
export async function heldUpdate(
  db: DbOrTx,
  id: string,
  worker: string,
  now: Date,
  leaseMs: number,
  set: Partial<Pick<MigrationRow, "itemsDone" | "itemsTotal">> = {},
) {
  const rows = await db
    .update(migrations)
    .set({ ...set, leaseUntil: new Date(now.getTime() + leaseMs) })
    .where(held(id, worker))
    .returning({ id: migrations.id });
  return rows.length > 0;
}

/** Ends the import (completed or failed) with its report; its archive's key is let go of. */
export async function finish(db: DbOrTx, id: string, worker: string, state: "completed" | "failed", report: MigrationReport, now: Date): Promise<boolean> {
  const rows = await db
    .update(migrations)
    .set({ state, report, objectKey: null, finishedAt: now, leaseOwner: null, leaseUntil: null })
    .where(held(id, worker))
    .returning({ id: migrations.id });
  return rows.length > 0;
}

/** Puts the import back in the queue, due after a back-off (the lease column says when); its archive stays. */
export async function retryLater(db: DbOrTx, row: MigrationRow, worker: string, now: Date): Promise<void> {
  await db
    .update(migrations)
    .set({ state: "queued", itemsDone: 0, leaseOwner: null, leaseUntil: new Date(now.getTime() + 60_000 * 2 ** Math.min(row.attempts, 5)) })
    .where(held(row.id, worker));
}
