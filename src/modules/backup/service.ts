// The rules of account exports: asking for one (counted against the plan's exports a day,
// never against storage), listing, reading and deleting the caller's own. Every query
// filters by the owner: another user's export is 404 like one that does not exist.
import { and, eq, sql } from "drizzle-orm";
import type { Deps } from "../../core/deps.ts";
import { keysetPage } from "../../core/cursor.ts";
import { notFound } from "../../core/errors.ts";
import type { Scope } from "../../core/scopes.ts";
import { iso, isoOrNull } from "../../infra/clock.ts";
import type { DbOrTx } from "../../infra/db/index.ts";
import { newId } from "../../infra/ids.ts";
import { logStoreFailure } from "../../infra/storage/outages.ts";
import { requireUser } from "../identity/public.ts";
import { kbsForExport } from "../library/public.ts";
import { reserve } from "../usage/public.ts";
import { archiveFilename } from "./archive.ts";
import type { ExportView } from "./model.ts";
import { accountExports, EXPORT_KINDS, type ExportKind, type ExportRow, type ExportState } from "./table.ts";

/** The read scope each kind of thing needs: an export holds no more than its credential may read. */
const SCOPE_OF: Record<ExportKind, Scope> = { images: "media.read", videos: "media.read", audio: "media.read", documents: "kb.read", kbs: "kb.read" };
export const scopesOf = (kinds: readonly ExportKind[]): Scope[] => [...new Set(kinds.map((k) => SCOPE_OF[k]))].sort();

export interface NewExport {
  userId: string;
  kinds?: ExportKind[];
  kbIds?: string[];
  publicUrl: string;
  mediaUrl: string;
}

/** Queues an export (202): the KBs named must be the caller's; one more of the day's exports is counted. */
export async function createExport(deps: Deps, e: NewExport): Promise<ExportRow> {
  // In the one order of EXPORT_KINDS, whatever order they were asked in, and each once.
  const kinds = e.kinds ? EXPORT_KINDS.filter((k) => e.kinds!.includes(k)) : [...EXPORT_KINDS];
  const kbIds = e.kbIds ? [...new Set(e.kbIds)] : null;
  if (kbIds) {
    const found = new Set((await kbsForExport(deps.db, e.userId, kbIds)).map((k) => k.id));
    if (kbIds.some((id) => !found.has(id))) throw notFound("kb");
  }
  const user = await requireUser(deps.db, e.userId);
  const now = deps.clock.now();
  return deps.db.transaction(async (tx) => {
    await reserve(tx, e.userId, deps.plans[user.plan], { exports: 1 }, now);
    const [row] = await tx
      .insert(accountExports)
      .values({ id: newId(), ownerId: e.userId, kinds, kbIds, publicUrl: e.publicUrl, mediaUrl: e.mediaUrl, createdAt: now })
      .returning();
    return row!;
  });
}

/** The state a client sees: a ready export past its expiry is expired, whether or not the job removed it yet. */
export const stateAt = (r: Pick<ExportRow, "state" | "expiresAt">, now: Date): ExportState =>
  r.state === "ready" && r.expiresAt !== null && r.expiresAt <= now ? "expired" : r.state;

export function toView(r: ExportRow, now: Date, downloadUrl: ((r: ExportRow) => string) | null): ExportView {
  const state = stateAt(r, now);
  return {
    id: r.id,
    state,
    kinds: r.kinds,
    kbIds: r.kbIds,
    progress: { itemsDone: r.itemsDone, itemsTotal: r.itemsTotal, bytesDone: r.bytesDone, bytesTotal: r.bytesTotal },
    archiveBytes: state === "ready" ? r.archiveBytes : null,
    filename: archiveFilename(r),
    downloadUrl: state === "ready" && downloadUrl ? downloadUrl(r) : null,
    expiresAt: state === "ready" || state === "expired" ? isoOrNull(r.expiresAt) : null,
    failureReason: state === "failed" ? r.failureReason : null,
    createdAt: iso(r.createdAt),
    startedAt: isoOrNull(r.startedAt),
    finishedAt: isoOrNull(r.finishedAt),
  };
}

export async function getExport(db: DbOrTx, userId: string, id: string): Promise<ExportRow> {
  const [row] = await db
    .select()
    .from(accountExports)
    .where(and(eq(accountExports.id, id), eq(accountExports.ownerId, userId)));
  if (!row) throw notFound("export");
  return row;
}

/** The caller's exports, newest first. */
export function listExports(db: DbOrTx, userId: string, q: { cursor?: string; limit: number }) {
  return keysetPage(
    db,
    {
      from: accountExports,
      where: () => eq(accountExports.ownerId, sql.placeholder("userId")),
      params: { userId },
      sort: ["createdAt", "id"],
      cursor: q.cursor,
      limit: q.limit,
    },
    (r) => r as ExportRow,
  );
}

/**
 * Deletes the caller's export: its row at once (a worker writing it stops at its next
 * progress and removes what it wrote), then its archive. The day's count is not given back.
 */
export async function deleteExport(deps: Deps, userId: string, id: string): Promise<void> {
  const [row] = await deps.db
    .delete(accountExports)
    .where(and(eq(accountExports.id, id), eq(accountExports.ownerId, userId)))
    .returning({ objectKey: accountExports.objectKey });
  if (!row) throw notFound("export");
  if (row.objectKey) await removeArchive(deps, row.objectKey);
}

/** Removes an archive; a failure is logged and left to the orphan sweep (no row names it any more). */
export async function removeArchive(deps: Deps, key: string): Promise<void> {
  try {
    await deps.storage.delete(key);
  } catch (err) {
    logStoreFailure(deps.log, "export archive delete failed", { key }, err);
  }
}
