// Documents in the trash (docs/api.md, "The trash"). DELETE /v1/docs/:id (and the batch)
// trashes: the row is deleted (deleted_at, so every query of active documents, search and
// the raw batch pass it by) but keeps its content, tags and history, and stays counted in
// doc_count and img_storage (and trash_bytes) until purged. One in a KB leaves its path as a
// move does (a tombstone and a soft-deleted row there, which the manifests report) and
// remembers it, so a restore puts it back at the same path, stamped as a change.
import { and, asc, eq, inArray, isNotNull, isNull, lt } from "drizzle-orm";
import type { Deps } from "../../../core/deps.ts";
import { AppError } from "../../../core/errors.ts";
import { type TrashEntry, type TrashKey, type TrashedRef, trashPageWhere } from "../../../core/trash.ts";
import { newestFirst } from "../../../core/cursor.ts";
import type { Tx } from "../../../infra/db/index.ts";
import { newId } from "../../../infra/ids.ts";
import { holdInTrash, release } from "../../usage/public.ts";
import { purgeDocBranches } from "../kbs/branches.ts";
import { lockKb } from "../kbs/service.ts";
import { writeTombstone } from "../kbs/tombstones.ts";
import { removeObjects } from "./content.ts";
import { directBooks } from "./counters.ts";
import { normalizePath } from "./path.ts";
import { documentChanged } from "./events.ts";
import { hardDelete, tombstoneOf } from "./row-changes.ts";
import { type DocumentRow, docColumns, documents, documentsOnly } from "./table.ts";

/** Moves a locked, active document to the trash, in the caller's transaction (its KB locked too). Returns objects to remove. */
async function trashRow(tx: Tx, userId: string, now: Date, doc: DocumentRow): Promise<string[]> {
  await holdInTrash(tx, userId, doc.sizeBytes);
  await documentChanged(tx, doc, "deleted", now);
  if (!doc.kbId) {
    await tx.update(documents).set({ deletedAt: now, trashedAt: now }).where(eq(documents.id, doc.id));
    return [];
  }
  const stamp = await directBooks({ userId, now }).moveKb(tx, doc.kbId, { docs: -1, bytes: -doc.sizeBytes });
  // Off its path first (the path's key is unique in the KB), then the path's own remnant.
  await tx
    .update(documents)
    .set({ kbId: null, relativePath: null, pathKey: null, trashedKbId: doc.kbId, trashedPath: doc.relativePath, deletedAt: stamp, trashedAt: now })
    .where(eq(documents.id, doc.id));
  await writeTombstone(tx, tombstoneOf(doc, stamp));
  await tx
    .insert(documents)
    .values({ ...doc, id: newId(), content: null, objectKey: null, tags: [], isPublic: false, createdAt: stamp, updatedAt: stamp, deletedAt: stamp });
  // A pending conflict branch waits for a document that is no longer at its path: it goes.
  return purgeDocBranches(tx, userId, doc.id);
}

/** Moves the caller's active documents to the trash; the ids that went. */
export async function trashDocuments(deps: Deps, userId: string, ids: readonly string[]): Promise<Set<string>> {
  const now = deps.clock.now();
  const { trashed, freed } = await deps.db.transaction(async (tx) => {
    // KBs first, in id order, as every other change of a KB's documents takes them.
    const inKbs = await tx
      .selectDistinct({ kbId: documents.kbId })
      .from(documents)
      .where(and(inArray(documents.id, [...ids]), eq(documents.ownerId, userId), isNotNull(documents.kbId), isNull(documents.deletedAt)));
    for (const kbId of inKbs.map((r) => r.kbId!).sort()) await lockKb(tx, { userId, id: kbId });
    const rows = await tx
      .select(docColumns)
      .from(documents)
      .where(and(inArray(documents.id, [...ids]), eq(documents.ownerId, userId), isNull(documents.deletedAt), documentsOnly))
      .orderBy(documents.id)
      .for("update");
    const freed: string[] = [];
    for (const row of rows) freed.push(...(await trashRow(tx, userId, now, row)));
    return { trashed: new Set(rows.map((r) => r.id)), freed };
  });
  await removeObjects(deps, freed);
  return trashed;
}

/** The caller's document trashed on its own (not with its KB), locked. */
async function lockTrashed(tx: Tx, userId: string, id: string): Promise<DocumentRow | undefined> {
  const [row] = await tx
    .select(docColumns)
    .from(documents)
    .where(and(eq(documents.id, id), eq(documents.ownerId, userId), isNotNull(documents.trashedAt), isNull(documents.kbId)))
    .for("update");
  return row;
}

/**
 * Brings a trashed document back: the same id, content, tags and history; one from a KB at
 * its path again, stamped as a change there (so sync clients fetch it). 409 TRASH_KB_GONE
 * when that KB is trashed or deleted, 409 TRASH_PATH_TAKEN when another document holds the
 * path now (a deleted one's remnant there gives way). False when there is no such item.
 */
export async function restoreDocument(deps: Deps, userId: string, id: string): Promise<boolean> {
  const now = deps.clock.now();
  const result = await deps.db.transaction(async (tx) => {
    // Read first, locked after its KB: every change in a KB locks the KB before its rows.
    const [probe] = await tx
      .select({ trashedKbId: documents.trashedKbId })
      .from(documents)
      .where(and(eq(documents.id, id), eq(documents.ownerId, userId), isNotNull(documents.trashedAt), isNull(documents.kbId)));
    if (!probe) return null;
    if (!probe.trashedKbId) {
      const alone = await lockTrashed(tx, userId, id);
      if (!alone) return null;
      await tx.update(documents).set({ deletedAt: null, trashedAt: null }).where(eq(documents.id, id));
      await release(tx, userId, { trashBytes: alone.sizeBytes });
      return [];
    }
    const kbId = probe.trashedKbId;
    await lockKb(tx, { userId, id: kbId }).catch((e) => {
      if (e instanceof AppError && e.code === "NOT_FOUND") {
        throw new AppError("TRASH_KB_GONE", "the knowledge base this document was in is deleted or in the trash; restore the knowledge base first", { kbId });
      }
      throw e;
    });
    const doc = await lockTrashed(tx, userId, id);
    // Restored or purged meanwhile.
    if (!doc) return null;
    const place = normalizePath(doc.trashedPath!);
    if (!place.ok) throw new Error("a trashed KB document keeps a valid path");
    const [there] = await tx
      .select(docColumns)
      .from(documents)
      .where(and(eq(documents.ownerId, userId), eq(documents.kbId, kbId), eq(documents.pathKey, place.key)))
      .for("update");
    if (there && !there.deletedAt) {
      throw new AppError("TRASH_PATH_TAKEN", `another document is at ${doc.trashedPath} now; move it or delete it first`, {
        kbId,
        path: doc.trashedPath,
        id: there.id,
      });
    }
    const freed = there ? await hardDelete(tx, { userId, now }, there) : [];
    const stamp = await directBooks({ userId, now }).moveKb(tx, kbId, { docs: 1, bytes: doc.sizeBytes });
    await tx
      .update(documents)
      .set({
        kbId,
        relativePath: doc.trashedPath,
        pathKey: place.key,
        trashedKbId: null,
        trashedPath: null,
        deletedAt: null,
        trashedAt: null,
        updatedAt: stamp,
      })
      .where(eq(documents.id, id));
    await release(tx, userId, { trashBytes: doc.sizeBytes });
    return freed;
  });
  if (!result) return false;
  await removeObjects(deps, result);
  return true;
}

/** Deletes a trashed document for good, with its history; false when there is no such item. */
export async function purgeDocument(deps: Deps, userId: string, id: string): Promise<boolean> {
  const now = deps.clock.now();
  const freed = await deps.db.transaction(async (tx) => {
    const doc = await lockTrashed(tx, userId, id);
    return doc ? hardDelete(tx, { userId, now }, doc) : null;
  });
  if (!freed) return false;
  await removeObjects(deps, freed);
  return true;
}

const trashedAlone = and(isNotNull(documents.trashedAt), isNull(documents.kbId));

/** The owner's documents trashed on their own after `after`, newest trashed first. */
export async function documentTrashPage(deps: Deps, ownerId: string, after: TrashKey | null, limit: number): Promise<TrashEntry[]> {
  const rows = await deps.db
    .select({ id: documents.id, name: documents.title, size: documents.sizeBytes, trashedAt: documents.trashedAt })
    .from(documents)
    .where(and(trashPageWhere(documents, ownerId, after), isNull(documents.kbId)))
    .orderBy(...newestFirst(documents.trashedAt, documents.id))
    .limit(limit);
  return rows.map((r) => ({ id: r.id, kind: "document", name: r.name, size: r.size, trashedAt: r.trashedAt! }));
}

/** Documents trashed on their own before `before`, oldest first: what the purge job removes. */
export async function expiredDocuments(deps: Deps, before: Date, limit: number): Promise<TrashedRef[]> {
  return deps.db
    .select({ ownerId: documents.ownerId, id: documents.id })
    .from(documents)
    .where(and(trashedAlone, lt(documents.trashedAt, before)))
    .orderBy(asc(documents.trashedAt))
    .limit(limit);
}
