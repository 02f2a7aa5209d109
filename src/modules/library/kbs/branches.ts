// Conflict branches: a client's content kept beside a KB document's
// master when a sync op conflicted under conflictResolution=preserve_both, the master
// untouched. Opened here inside the sync batch's transaction; listed and read for the
// conflicts endpoints; the manifest asks which documents have one. Adopting and
// discarding are in branch-resolve.ts, the jobs' sweeps in branch-expiry.ts.
//
// The limits: 5 pending per document (counted under the document's row lock, which the
// batch holds), 100 per user and the bytes of img_storage (both through the usage ledger,
// whose row locks make them exact across KBs and nodes), and a size per plan. A branch's
// bytes count in img_storage like a document's, and may take it up to 20% past the plan's
// limit: a user at the edge of the quota still loses no text to a conflict. A file branch
// (kind `file`) names the owner's blob by its hash and holds no bytes of its own: it keeps
// the blob while pending, is counted as a branch, and adds nothing to img_storage (the
// blob's bytes are counted once, with the blob), so no size limit applies to it.
import { and, count, eq, type SQL, sql } from "drizzle-orm";
import type { Deps } from "../../../core/deps.ts";
import { keysetPage } from "../../../core/cursor.ts";
import { AppError, notFound } from "../../../core/errors.ts";
import { iso } from "../../../infra/clock.ts";
import type { DbOrTx, Tx } from "../../../infra/db/index.ts";
import { prepared } from "../../../infra/db/prepared.ts";
import { newId } from "../../../infra/ids.ts";
import { LimitRefusal } from "../../../core/refusal.ts";
import type { PlanLimits } from "../../identity/public.ts";
import { getKb } from "./service.ts";
import { release, reserve } from "../../usage/public.ts";
import type { DocumentRow } from "../documents/table.ts";
import { documentOf } from "../documents/kb-rows.ts";
import { readContent, type StoredContent } from "../documents/content.ts";
import { notify } from "../../notifications/public.ts";
import { emitEvents } from "../../webhooks/public.ts";
import { type BranchRow, conflictBranches, type EntryKind } from "./table.ts";

const DAY_MS = 86_400_000;
/** Pending branches per document. */
const BRANCHES_PER_DOC = 5;
/** A pending branch is discarded automatically after 30 days. */
export const BRANCH_LIFETIME_MS = 30 * DAY_MS;
/** The share of img_storage pending branches may take past the plan's limit. */
const BRANCH_OVERAGE = 0.2;

/** The plan's limits as opening a branch sees them: img_storage 20% larger. */
function withBranchOverage(limits: PlanLimits): PlanLimits {
  const cap = limits.imageStorageBytes;
  return { ...limits, imageStorageBytes: cap < 0 ? cap : Math.floor(cap * (1 + BRANCH_OVERAGE)) };
}

export interface BranchInput {
  /** The master, locked by the caller (under its KB's lock); active or soft-deleted. */
  doc: DocumentRow;
  /** The path the client pushed to. */
  relativePath: string;
  /** The content, stored before the transaction (storeContent); kept by the branch. A file's: none (null, null). */
  stored: StoredContent;
  sourceHash: string;
  sizeBytes: number;
  /** A file branch names a blob the owner holds (locked by the caller's files lock). Default: a document's text. */
  kind?: EntryKind;
}

const pendingOfDoc = (db: DbOrTx) =>
  db
    .select({ n: count() })
    .from(conflictBranches)
    .where(and(eq(conflictBranches.docId, sql.placeholder("docId")), eq(conflictBranches.status, "pending")))
    .prepare("conflict_branches_pending_of_doc");

/**
 * Keeps `input` as a pending branch of its document, in the caller's transaction (which
 * holds the KB's lock and the document's row lock); the master is not touched. 422
 * CONFLICT_BRANCH_LIMIT_SIZE / _PER_DOC / _PER_USER past a limit; past the img_storage
 * overage the ledger's LimitRefusal (403 QUOTA_EXCEEDED). The caller removes the stored
 * object if its transaction fails.
 */
export async function openBranch(tx: Tx, actor: { userId: string; limits: PlanLimits; now: Date }, input: BranchInput): Promise<BranchRow> {
  const { doc } = input;
  const kind = input.kind ?? "document";
  if (doc.ownerId !== actor.userId || !doc.kbId) throw new Error("a branch is opened on the caller's own KB document");
  const max = actor.limits.maxBranchBytes;
  if (kind === "document" && max >= 0 && input.sizeBytes > max) {
    throw new AppError("CONFLICT_BRANCH_LIMIT_SIZE", `a conflict branch may hold at most ${max} bytes on this plan`, {
      limit: max,
      size: input.sizeBytes,
      docId: doc.id,
      relativePath: input.relativePath,
    });
  }
  const [{ n } = { n: 0 }] = await prepared(tx, "conflict_branches_pending_of_doc", pendingOfDoc).execute({ docId: doc.id });
  if (n >= BRANCHES_PER_DOC) {
    throw new AppError("CONFLICT_BRANCH_LIMIT_PER_DOC", `a document may have at most ${BRANCHES_PER_DOC} pending conflict branches; accept or discard one`, {
      limit: BRANCHES_PER_DOC,
      docId: doc.id,
      relativePath: input.relativePath,
    });
  }
  try {
    // Quota e-mails measure against the plan's own limit, not the overage.
    const need = { branches: 1, imageBytes: kind === "document" ? input.sizeBytes : 0 };
    await reserve(tx, actor.userId, withBranchOverage(actor.limits), need, actor.now, actor.limits);
  } catch (e) {
    if (e instanceof LimitRefusal && e.dimension === "conflict_branches") {
      throw new AppError("CONFLICT_BRANCH_LIMIT_PER_USER", `at most ${e.limit} conflict branches may be pending; accept or discard some`, {
        limit: e.limit,
        used: e.used,
        docId: doc.id,
        relativePath: input.relativePath,
      });
    }
    throw e;
  }
  const [row] = await tx
    .insert(conflictBranches)
    .values({
      id: newId(),
      ownerId: actor.userId,
      kbId: doc.kbId,
      docId: doc.id,
      relativePath: input.relativePath,
      content: input.stored.content,
      objectKey: input.stored.objectKey,
      sourceHash: input.sourceHash,
      kind,
      sizeBytes: input.sizeBytes,
      masterHash: doc.sourceHash,
      createdAt: actor.now,
      expiresAt: new Date(actor.now.getTime() + BRANCH_LIFETIME_MS),
    })
    .returning();
  const payload = { branchId: row!.id, kbId: row!.kbId, docId: row!.docId, relativePath: row!.relativePath };
  await notify(tx, [{ kind: "conflict_branch_created", userId: actor.userId, payload }], actor.now);
  await emitEvents(tx, [{ ownerId: actor.userId, type: "kb.conflict", data: payload }], actor.now);
  return row!;
}

const pendingDocsOfKb = (db: DbOrTx) =>
  db
    .selectDistinct({ docId: conflictBranches.docId })
    .from(conflictBranches)
    .where(
      and(eq(conflictBranches.ownerId, sql.placeholder("userId")), eq(conflictBranches.kbId, sql.placeholder("kbId")), eq(conflictBranches.status, "pending")),
    )
    .prepare("conflict_branches_pending_docs_of_kb");

/**
 * The documents of a KB that have pending branches (what a manifest entry reports). One
 * small read whatever the page's size: a user has at most 100 pending branches.
 */
export async function pendingBranchDocIds(db: DbOrTx, q: { userId: string; kbId: string }): Promise<Set<string>> {
  const rows = await prepared(db, "conflict_branches_pending_docs_of_kb", pendingDocsOfKb).execute(q);
  return new Set(rows.map((r) => r.docId));
}

interface BranchItem {
  branchId: string;
  docId: string;
  relativePath: string;
  kind: EntryKind;
  sourceHash: string;
  sizeBytes: number;
  createdAt: string;
  expiresAt: string;
}

const toBranchItem = (r: Pick<BranchRow, "id" | "docId" | "relativePath" | "kind" | "sourceHash" | "sizeBytes" | "createdAt" | "expiresAt">): BranchItem => ({
  branchId: r.id,
  docId: r.docId,
  relativePath: r.relativePath,
  kind: r.kind,
  sourceHash: r.sourceHash,
  sizeBytes: r.sizeBytes,
  createdAt: iso(r.createdAt),
  expiresAt: iso(r.expiresAt),
});

/** A page of the caller's pending branches in a KB, oldest (soonest to expire) first; 404 for a KB not the caller's. */
export async function listBranches(db: DbOrTx, userId: string, kbId: string, q: { cursor?: string; limit: number }) {
  await getKb(db, { userId, id: kbId });
  return keysetPage(
    db,
    {
      from: conflictBranches,
      shape: "kb_pending",
      where: () =>
        and(
          eq(conflictBranches.ownerId, sql.placeholder("userId")),
          eq(conflictBranches.kbId, sql.placeholder("kbId")),
          eq(conflictBranches.status, "pending"),
        ),
      params: { userId, kbId },
      columns: ["id", "docId", "relativePath", "kind", "sourceHash", "sizeBytes", "createdAt", "expiresAt"],
      sort: ["createdAt", "id"],
      direction: "asc",
      cursor: q.cursor,
      limit: q.limit,
    },
    toBranchItem,
  );
}

/** The caller's pending branch in a KB (404 NOT_FOUND, entity conflict_branch, otherwise), locked when `db` is a transaction that asks. */
export async function pendingBranch(db: DbOrTx, q: { userId: string; kbId: string; id: string }, lock = false): Promise<BranchRow> {
  const query = db
    .select()
    .from(conflictBranches)
    .where(
      and(eq(conflictBranches.id, q.id), eq(conflictBranches.ownerId, q.userId), eq(conflictBranches.kbId, q.kbId), eq(conflictBranches.status, "pending")),
    );
  const [row] = lock ? await query.for("update") : await query;
  if (!row) throw notFound("conflict_branch");
  return row;
}

/**
 * A pending branch with its content and what the client needs to merge it: its master's
 * state now (null hash and time when the master was deleted since). A file branch has no
 * content here (null): its bytes are the blob its sourceHash names. 404 for a KB or branch
 * not the caller's.
 */
export async function readBranch(deps: Deps, q: { userId: string; kbId: string; id: string }) {
  const db = deps.db;
  await getKb(db, { userId: q.userId, id: q.kbId });
  const branch = await pendingBranch(db, q);
  const master = await documentOf(db, { userId: q.userId, id: branch.docId });
  const active = master && !master.deletedAt;
  return {
    ...toBranchItem(branch),
    masterHash: branch.masterHash,
    currentMasterHash: active ? master.sourceHash : null,
    currentMasterUpdatedAt: active ? iso(master.updatedAt) : null,
    currentMasterPath: master?.relativePath ?? null,
    content: branch.kind === "file" ? null : await readContent(deps, branch),
  };
}

/** The img_storage bytes pending branches count: a document branch its own, a file branch none (its blob counts them). */
export const branchBytes = (pending: readonly Pick<BranchRow, "kind" | "sizeBytes">[]) =>
  pending.reduce((n, b) => n + (b.kind === "file" ? 0 : b.sizeBytes), 0);

/**
 * Deletes the branches `where` names, giving back what the pending ones held; returns their
 * objects. The blobs of file branches are the caller's to drop (it knows which it let go).
 */
async function purgeBranches(tx: Tx, userId: string, where: SQL | undefined): Promise<string[]> {
  const gone = await tx
    .delete(conflictBranches)
    .where(and(eq(conflictBranches.ownerId, userId), where))
    .returning({ status: conflictBranches.status, kind: conflictBranches.kind, sizeBytes: conflictBranches.sizeBytes, objectKey: conflictBranches.objectKey });
  const pending = gone.filter((b) => b.status === "pending");
  if (pending.length) await release(tx, userId, { branches: pending.length, imageBytes: branchBytes(pending) });
  return gone.flatMap((b) => (b.objectKey ? [b.objectKey] : []));
}

/**
 * Deletes every branch of a KB, in the transaction that deletes the KB with its
 * documents; what the pending ones held is given back. Returns their objects.
 */
export const purgeKbBranches = (tx: Tx, userId: string, kbId: string) => purgeBranches(tx, userId, eq(conflictBranches.kbId, kbId));

/** Deletes a document's branches, in the transaction that deletes the document for good. Returns their objects. */
export const purgeDocBranches = (tx: Tx, userId: string, docId: string) => purgeBranches(tx, userId, eq(conflictBranches.docId, docId));

/**
 * Hands the pending branches of a deleted document to the document that takes its path
 * (a move onto it), in the move's transaction: they hold text pushed to that path, which
 * must not go with the row that gives the path up. (The receiver may then have more than
 * 5 pending: the limit is checked when a branch is opened.)
 */
export async function handBranchesTo(tx: Tx, userId: string, fromDocId: string, toDocId: string): Promise<void> {
  await tx
    .update(conflictBranches)
    .set({ docId: toDocId })
    .where(and(eq(conflictBranches.ownerId, userId), eq(conflictBranches.docId, fromDocId), eq(conflictBranches.status, "pending")));
}
