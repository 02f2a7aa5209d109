// An owner's blobs: the bytes of KB files, one row and one object per owner and hash
// (table.ts). What links a blob is an active file row with its hash (any KB of the owner)
// or a pending file branch with it. A blob is counted in img_storage from the PUT that
// stored it until its row goes, which happens:
//   - when its last link goes, at the end of the transaction that removed the link
//     (dropUnlinked: a sync batch, a KB delete, a branch resolved), so a batch that deletes
//     one path and links the same bytes at another keeps them;
//   - when it was stored and never linked (or linked and let go by no transaction that
//     asked), ORPHAN_SWEEP_AFTER_H after its last PUT (sweepUnlinked, the orphan sweep);
//   - with its owner's account (the rows cascade; the sweep then removes the objects).
// Every transaction that links or unlinks an owner's blobs takes the owner's files lock
// first (after its KB's lock, before any branch or counter row), so a blob is never
// dropped between a link's look-up and its commit.
import { and, eq, inArray, lt, sql } from "drizzle-orm";
import type { Db, DbOrTx, Tx } from "../../../infra/db/index.ts";
import { rowsOf } from "../../../infra/db/index.ts";
import { prepared } from "../../../infra/db/prepared.ts";
import { release } from "../../usage/public.ts";
import { documents } from "../documents/table.ts";
import { conflictBranches } from "../kbs/table.ts";
import { type KbFileRow, kbFiles } from "./table.ts";

/** The lock every change of an owner's file links takes, for the transaction's length. */
export async function lockOwnerFiles(tx: Tx, ownerId: string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`kb-files:${ownerId}`}))`);
}

const blobQuery = (db: DbOrTx) =>
  db
    .select()
    .from(kbFiles)
    .where(and(eq(kbFiles.ownerId, sql.placeholder("ownerId")), eq(kbFiles.sha256, sql.placeholder("sha256"))))
    .prepare("kb_file_by_hash");

/** The owner's blob with these bytes, if the owner holds one. */
export async function heldBlob(db: DbOrTx, ownerId: string, sha256: string): Promise<KbFileRow | undefined> {
  const [row] = await prepared(db, "kb_file_by_hash", blobQuery).execute({ ownerId, sha256 });
  return row;
}

/** The owner's blobs of these hashes, by hash. */
export async function heldBlobs(db: DbOrTx, ownerId: string, hashes: readonly string[]): Promise<Map<string, KbFileRow>> {
  if (!hashes.length) return new Map();
  const rows = await db
    .select()
    .from(kbFiles)
    .where(and(eq(kbFiles.ownerId, ownerId), inArray(kbFiles.sha256, [...new Set(hashes)])));
  return new Map(rows.map((r) => [r.sha256, r]));
}

/** A new blob's row; false when the owner already holds these bytes (a PUT of them won meanwhile). */
export async function insertBlob(tx: Tx, row: KbFileRow): Promise<boolean> {
  const added = await tx.insert(kbFiles).values(row).onConflictDoNothing().returning({ sha256: kbFiles.sha256 });
  return added.length > 0;
}

/** A PUT of bytes the owner holds: the sweep counts the blob's unlinked time from now. */
export async function touchBlob(db: DbOrTx, ownerId: string, sha256: string, now: Date): Promise<void> {
  await db
    .update(kbFiles)
    .set({ touchedAt: now })
    .where(and(eq(kbFiles.ownerId, ownerId), eq(kbFiles.sha256, sha256)));
}

/** A blob row's condition: nothing of its owner links it. */
const unlinked = sql`not exists (select 1 from ${documents} d where d.owner_id = ${kbFiles.ownerId} and d.format = 'file'
      and d.deleted_at is null and d.source_hash = ${kbFiles.sha256})
  and not exists (select 1 from ${conflictBranches} b where b.owner_id = ${kbFiles.ownerId} and b.kind = 'file'
      and b.status = 'pending' and b.source_hash = ${kbFiles.sha256})`;

/**
 * Deletes the owner's blobs among `hashes` that nothing links any more and gives back the
 * bytes they counted, in the caller's transaction (which holds the owner's files lock and
 * has written its rows). Returns their objects, to remove once it has committed.
 */
export async function dropUnlinked(tx: Tx, ownerId: string, hashes: Iterable<string>): Promise<string[]> {
  const asked = [...new Set(hashes)];
  if (!asked.length) return [];
  const gone = await tx
    .delete(kbFiles)
    .where(and(eq(kbFiles.ownerId, ownerId), inArray(kbFiles.sha256, asked), unlinked))
    .returning({ sizeBytes: kbFiles.sizeBytes, objectKey: kbFiles.objectKey });
  if (gone.length) await release(tx, ownerId, { imageBytes: gone.reduce((n, b) => n + b.sizeBytes, 0) });
  return gone.map((b) => b.objectKey);
}

/** Owners per round of the sweep (each in its own transaction). */
const OWNERS_PER_ROUND = 100;

/**
 * The orphan sweep's part: blobs last stored before `before` that nothing links, dropped
 * owner by owner under the owner's files lock (a link committed meanwhile keeps its blob).
 * Returns the objects of the blobs dropped, to remove.
 */
export async function sweepUnlinked(db: Db, before: Date, signal?: AbortSignal): Promise<string[]> {
  const freed: string[] = [];
  let after = "";
  for (;;) {
    const owners = rowsOf<{ owner_id: string }>(
      await db.execute(sql`select distinct ${kbFiles.ownerId} as owner_id from ${kbFiles}
        where ${kbFiles.touchedAt} < ${before.toISOString()}::timestamptz and ${kbFiles.ownerId} > ${after} and ${unlinked}
        order by 1 limit ${OWNERS_PER_ROUND}`),
    ).map((r) => r.owner_id);
    for (const ownerId of owners) {
      if (signal?.aborted) return freed;
      const keys = await db.transaction(async (tx) => {
        await lockOwnerFiles(tx, ownerId);
        const stale = await tx
          .select({ sha256: kbFiles.sha256 })
          .from(kbFiles)
          .where(and(eq(kbFiles.ownerId, ownerId), lt(kbFiles.touchedAt, before)));
        return dropUnlinked(
          tx,
          ownerId,
          stale.map((s) => s.sha256),
        );
      });
      freed.push(...keys);
    }
    if (owners.length < OWNERS_PER_ROUND) return freed;
    after = owners.at(-1)!;
  }
}

/** The hashes a KB's active files and pending file branches link: what its delete may let go of. */
export async function kbFileHashes(tx: Tx, ownerId: string, kbId: string): Promise<string[]> {
  const rows = rowsOf<{ h: string }>(
    await tx.execute(sql`select ${documents.sourceHash} as h from ${documents}
      where ${documents.ownerId} = ${ownerId} and ${documents.kbId} = ${kbId} and ${documents.format} = 'file' and ${documents.deletedAt} is null
      union select ${conflictBranches.sourceHash} from ${conflictBranches}
      where ${conflictBranches.ownerId} = ${ownerId} and ${conflictBranches.kbId} = ${kbId} and ${conflictBranches.kind} = 'file'
        and ${conflictBranches.status} = 'pending'`),
  );
  return rows.map((r) => r.h);
}
