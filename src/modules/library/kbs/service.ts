// The rules of knowledge bases that documents need: a KB the caller owns, locked while a
// document in it changes, and its cached counts and stamp moved with the documents.
import { and, eq, isNull, sql } from "drizzle-orm";
import type { Deps } from "../../../core/deps.ts";
import { notFound } from "../../../core/errors.ts";
import type { DbOrTx, Tx } from "../../../infra/db/index.ts";
import { newId } from "../../../infra/ids.ts";
import { prepared } from "../../../infra/db/prepared.ts";
import { type KbRow, kbs } from "./table.ts";

/** Creates a KB as given, without the rules of POST /v1/kbs (manage.ts): what fixtures and benchmarks build on. */
export async function createKb(deps: Deps, input: { ownerId: string; name: string; slug: string; description?: string | null }): Promise<KbRow> {
  const now = deps.clock.now();
  const [row] = await deps.db
    .insert(kbs)
    .values({ id: newId(), ownerId: input.ownerId, name: input.name, slug: input.slug, description: input.description ?? null, createdAt: now, updatedAt: now })
    .returning();
  return row!;
}

/** A KB by id and owner, a prepared statement (every manifest page and sync batch reads it). */
const kbByOwner = (db: DbOrTx) =>
  db
    .select()
    .from(kbs)
    .where(and(eq(kbs.id, sql.placeholder("id")), eq(kbs.ownerId, sql.placeholder("userId")), isNull(kbs.trashedAt)))
    .prepare("kb_by_owner");

/** The caller's KB; 404 NOT_FOUND (entity kb) when it is absent, in the trash or another user's. */
export async function getKb(db: DbOrTx, q: { userId: string; id: string }): Promise<KbRow> {
  const [row] = await prepared(db, "kb_by_owner", kbByOwner).execute({ id: q.id, userId: q.userId });
  if (!row) throw notFound("kb");
  return row;
}

/**
 * Locks the caller's KB row until the transaction ends: every change of a document in it
 * takes turns on this lock, so its counts and updatedAt are exact. 404 as getKb.
 */
export async function lockKb(tx: Tx, q: { userId: string; id: string }): Promise<KbRow> {
  const [row] = await tx
    .select()
    .from(kbs)
    .where(and(eq(kbs.id, q.id), eq(kbs.ownerId, q.userId), isNull(kbs.trashedAt)))
    .for("update");
  if (!row) throw notFound("kb");
  return row;
}

/** How a change moves a KB's counts (`files`: its KB files; none when absent). */
export interface KbDelta {
  docs: number;
  files?: number;
  bytes: number;
}

/**
 * Moves a KB's active-document counts and stamps the change, in the documents' transaction
 * (which holds the KB's row lock). The stamp is the KB's new updatedAt, and becomes the
 * changed document's updatedAt: `now`, or 1 ms past the KB's last stamp when the clock has
 * not passed it (or this node's clock is behind another's). Stamps so follow the order in
 * which changes take the lock, which is the order in which they commit. The manifest relies on it (see
 * manifest.ts): a change that commits after a read gets a stamp above what that read saw.
 */
export async function moveKbCounts(tx: Tx, kbId: string, delta: KbDelta, now: Date): Promise<Date> {
  const [row] = await tx
    .update(kbs)
    .set({
      docCount: sql`greatest(0, ${kbs.docCount} + ${delta.docs})`,
      fileCount: sql`greatest(0, ${kbs.fileCount} + ${delta.files ?? 0})`,
      sizeBytes: sql`greatest(0, ${kbs.sizeBytes} + ${delta.bytes})`,
      updatedAt: nextStamp(now),
    })
    .where(eq(kbs.id, kbId))
    .returning({ updatedAt: kbs.updatedAt });
  return row!.updatedAt;
}

/** The KB's next stamp: now, or 1 ms past its last one when the clock has not passed it. */
export const nextStamp = (now: Date) => sql`greatest(${now.toISOString()}::timestamptz, ${kbs.updatedAt} + interval '1 millisecond')`;

/** nextStamp, for a transaction that holds the KB's lock and so knows its last stamp. */
export const nextStampAfter = (last: Date, now: Date) => new Date(Math.max(now.getTime(), last.getTime() + 1));

/**
 * Writes what a batch of changes moved of a KB's counts, and its last stamp, in the
 * transaction that holds the KB's lock and computed the stamps (nextStampAfter).
 */
export async function setKbMoves(tx: Tx, kbId: string, delta: KbDelta, stamp: Date): Promise<void> {
  await tx
    .update(kbs)
    .set({
      docCount: sql`greatest(0, ${kbs.docCount} + ${delta.docs})`,
      fileCount: sql`greatest(0, ${kbs.fileCount} + ${delta.files ?? 0})`,
      sizeBytes: sql`greatest(0, ${kbs.sizeBytes} + ${delta.bytes})`,
      updatedAt: stamp,
    })
    .where(eq(kbs.id, kbId));
}
