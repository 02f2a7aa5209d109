// Ending a conflict branch: adopted (its content becomes the master, the
// previous master kept as a revision when history is on) or discarded (by its owner, by the jobs, or with
// its KB). Either gives back what it held in the usage ledger, in the transaction that
// ends it; its object passes to the document, or is removed once that has committed. A
// file branch's blob passes to the document too, or is dropped with the branch when
// nothing else links it (files/blobs.ts); such a transaction holds the owner's files lock
// before it locks a branch.
import { and, eq, inArray } from "drizzle-orm";
import type { Deps } from "../../../core/deps.ts";
import { AppError, notFound } from "../../../core/errors.ts";
import type { Tx } from "../../../infra/db/index.ts";
import { requireUser, planActive } from "../../identity/public.ts";
import { getKb, lockKb } from "./service.ts";
import { release } from "../../usage/public.ts";
import { branchBytes, pendingBranch } from "./branches.ts";
import { type Actor, lockDocument, replaceContent } from "../documents/row-changes.ts";
import { describeFile, describeText, keptFrom } from "../documents/kb-documents.ts";
import { isFileRow } from "../documents/table.ts";
import { readContent, removeObjects } from "../documents/content.ts";
import { dropUnlinked, heldBlob, lockOwnerFiles } from "../files/blobs.ts";
import { type BranchRow, conflictBranches, type DiscardReason } from "./table.ts";

/**
 * Discards the given pending branches of one user (rows the caller locked, holding the
 * owner's files lock), giving back what they held, and drops the blobs of file branches
 * nothing else links. Returns the objects to remove once the transaction has committed.
 */
export async function discardLocked(tx: Tx, userId: string, rows: readonly BranchRow[], reason: DiscardReason, now: Date): Promise<string[]> {
  const pending = rows.filter((r) => r.status === "pending" && r.ownerId === userId);
  if (!pending.length) return [];
  await tx
    .update(conflictBranches)
    .set({ status: "discarded", discardedAt: now, discardReason: reason, content: null, objectKey: null })
    .where(
      and(
        eq(conflictBranches.ownerId, userId),
        inArray(
          conflictBranches.id,
          pending.map((r) => r.id),
        ),
      ),
    );
  await release(tx, userId, { branches: pending.length, imageBytes: branchBytes(pending) });
  const blobs = await dropUnlinked(
    tx,
    userId,
    pending.flatMap((r) => (r.kind === "file" ? [r.sourceHash] : [])),
  );
  return [...pending.flatMap((r) => (r.objectKey ? [r.objectKey] : [])), ...blobs];
}

/** DELETE /v1/kbs/:id/conflicts/:branchId: the branch is discarded for good (allowed whatever the plan). */
export async function discardBranch(deps: Deps, q: { userId: string; kbId: string; id: string }): Promise<void> {
  const now = deps.clock.now();
  const freed = await deps.db.transaction(async (tx) => {
    await getKb(tx, { userId: q.userId, id: q.kbId });
    await lockOwnerFiles(tx, q.userId);
    const branch = await pendingBranch(tx, q, true);
    return discardLocked(tx, q.userId, [branch], "user", now);
  });
  await removeObjects(deps, freed);
}

/**
 * POST /v1/kbs/:id/conflicts/:branchId/accept: in one transaction the branch's content
 * becomes its document's master (a master deleted since is revived), the previous master
 * is kept as a revision when the user's version history is on (a content
 * replacement at a path, decided as sync and upload decide it), and the branch is adopted. The document's other pending branches stay.
 * Needs an active plan (403 PLAN_INACTIVE), as sync does.
 */
export async function acceptBranch(deps: Deps, q: { userId: string; kbId: string; id: string }) {
  const user = await requireUser(deps.db, q.userId);
  const now = deps.clock.now();
  if (!planActive(user, now)) throw new AppError("PLAN_INACTIVE", "accepting a conflict branch needs an active plan", { plan: user.plan });
  await getKb(deps.db, { userId: q.userId, id: q.kbId });
  const seen = await pendingBranch(deps.db, q);
  const text = seen.kind === "file" ? "" : await readContent(deps, seen);
  // The branch's bytes are counted already: adopting them gives back the master's, so
  // img_storage only shrinks and is not checked (a user whose branches took the storage
  // past its limit can still resolve them). doc_count is, for a master deleted since.
  const limits = deps.plans[user.plan];
  const actor: Actor = {
    userId: q.userId,
    limits: { ...limits, imageStorageBytes: -1 },
    history: { enabled: user.docVersioningEnabled, max: user.docVersioningMax },
    now,
  };
  // A refusal (doc_count, for a master deleted since) reaches the HTTP core as it is: it
  // answers the 403 and tells the owner a full quota.
  const out = await deps.db.transaction(async (tx) => {
    await lockKb(tx, { userId: q.userId, id: q.kbId });
    await lockOwnerFiles(tx, q.userId);
    const branch = await pendingBranch(tx, q, true);
    // Its content cannot change while pending: what was read is what it holds.
    if (branch.objectKey !== seen.objectKey || branch.sourceHash !== seen.sourceHash) throw new Error("a pending branch changed its content");
    const doc = await lockDocument(tx, q.userId, branch.docId);
    if (!doc?.relativePath) throw notFound("document");
    await release(tx, q.userId, { branches: 1, imageBytes: branchBytes([branch]) });
    await tx.update(conflictBranches).set({ status: "adopted", adoptedAt: now, content: null, objectKey: null }).where(eq(conflictBranches.id, branch.id));
    const file = branch.kind === "file";
    if (!doc.deletedAt && doc.sourceHash === branch.sourceHash && isFileRow(doc) === file) {
      // The master holds this content already: nothing to replace, the branch's copy goes.
      return { doc, revision: null, freed: branch.objectKey ? [branch.objectKey] : [] };
    }
    // A file branch's blob is held while the branch is pending, and the files lock keeps it.
    const blob = file ? await heldBlob(tx, q.userId, branch.sourceHash) : undefined;
    if (file && !blob) throw new Error("a pending file branch names a blob its owner does not hold");
    const next = blob
      ? describeFile(doc.relativePath, blob)
      : describeText(doc.relativePath, text, { sourceHash: branch.sourceHash, sizeBytes: branch.sizeBytes }, branch);
    const changed = await replaceContent(tx, actor, doc, keptFrom(next, doc), "sync");
    const dropped = await dropUnlinked(tx, q.userId, changed.unlinked);
    return { doc: changed.row, revision: changed.revision, freed: [...changed.freed, ...dropped] };
  });
  await removeObjects(deps, out.freed);
  return { branch: seen, ...out };
}
