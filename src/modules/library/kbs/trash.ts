// Knowledge bases in the trash (docs/api.md, "The trash"). DELETE /v1/kbs/:id (with
// cascade=true when it holds anything) trashes the KB as one item: the KB's row is set
// trashed_at, so every KB lookup, list, manifest and sync answers 404 for it; its active
// documents are trashed with it (deleted, so no document list or search shows them, kept
// in it); its files stay as they are, reachable through the KB only. A restore brings the
// KB back with exactly those documents; a purge is the old cascade delete (manage.ts).
import { and, asc, eq, isNotNull, isNull, lt, or, sql } from "drizzle-orm";
import type { Deps } from "../../../core/deps.ts";
import { AppError } from "../../../core/errors.ts";
import { type TrashEntry, type TrashKey, type TrashedRef, trashPageWhere } from "../../../core/trash.ts";
import { newestFirst } from "../../../core/cursor.ts";
import type { DbOrTx, Tx } from "../../../infra/db/index.ts";
import { holdInTrash, release } from "../../usage/public.ts";
import { documents } from "../documents/table.ts";
import { lockKb } from "./service.ts";
import { kbs } from "./table.ts";

/** What a trashed KB holds in the trash's bytes: the documents trashed with it and its files. */
export async function trashedKbBytes(db: DbOrTx, userId: string, kbId: string): Promise<number> {
  const [r] = await db
    .select({ n: sql<string>`coalesce(sum(${documents.sizeBytes}), 0)` })
    .from(documents)
    .where(
      and(
        eq(documents.ownerId, userId),
        eq(documents.kbId, kbId),
        or(isNotNull(documents.trashedAt), and(eq(documents.format, "file"), isNull(documents.deletedAt))),
      ),
    );
  return Number(r?.n ?? 0);
}

/**
 * Moves the caller's KB to the trash. 409 KB_NOT_EMPTY while it holds documents or files
 * and `cascade` is not set, as the delete answered before; 404 when there is no such KB.
 * A default KB stops being the default.
 */
export async function trashKb(deps: Deps, userId: string, id: string, cascade: boolean): Promise<void> {
  const now = deps.clock.now();
  await deps.db.transaction(async (tx) => {
    const kb = await lockKb(tx, { userId, id });
    if ((kb.docCount > 0 || kb.fileCount > 0) && !cascade) {
      throw new AppError("KB_NOT_EMPTY", "the knowledge base holds documents or files; delete them first or pass cascade=true", {
        docCount: kb.docCount,
        fileCount: kb.fileCount,
      });
    }
    await tx
      .update(documents)
      .set({ deletedAt: now, trashedAt: now })
      .where(and(eq(documents.ownerId, userId), eq(documents.kbId, id), isNull(documents.deletedAt), sql`${documents.format} <> 'file'`));
    await tx.update(kbs).set({ trashedAt: now, isDefault: false }).where(eq(kbs.id, id));
    await holdInTrash(tx, userId, await trashedKbBytes(tx, userId, id));
  });
}

/** Makes the documents trashed with a KB active again (its restore, and its purge before the cascade). */
export async function untrashKbDocuments(tx: Tx, userId: string, kbId: string): Promise<void> {
  await tx
    .update(documents)
    .set({ deletedAt: null, trashedAt: null })
    .where(and(eq(documents.ownerId, userId), eq(documents.kbId, kbId), isNotNull(documents.trashedAt)));
}

/** Brings a trashed KB back with the documents trashed with it; false when there is no such KB in the trash. */
export async function restoreKb(deps: Deps, userId: string, id: string): Promise<boolean> {
  return deps.db.transaction(async (tx) => {
    const [kb] = await tx
      .select({ id: kbs.id })
      .from(kbs)
      .where(and(eq(kbs.id, id), eq(kbs.ownerId, userId), isNotNull(kbs.trashedAt)))
      .for("update");
    if (!kb) return false;
    const held = await trashedKbBytes(tx, userId, id);
    await untrashKbDocuments(tx, userId, id);
    await tx.update(kbs).set({ trashedAt: null }).where(eq(kbs.id, id));
    await release(tx, userId, { trashBytes: held });
    return true;
  });
}

/** The owner's trashed KBs after `after`, newest trashed first; a KB's size is what its documents and files held. */
export async function kbTrashPage(deps: Deps, ownerId: string, after: TrashKey | null, limit: number): Promise<TrashEntry[]> {
  const rows = await deps.db
    .select({ id: kbs.id, name: kbs.name, size: kbs.sizeBytes, trashedAt: kbs.trashedAt })
    .from(kbs)
    .where(trashPageWhere(kbs, ownerId, after))
    .orderBy(...newestFirst(kbs.trashedAt, kbs.id))
    .limit(limit);
  return rows.map((r) => ({ id: r.id, kind: "kb", name: r.name, size: r.size, trashedAt: r.trashedAt! }));
}

/** KBs trashed before `before`, oldest first: what the purge job removes. */
export async function expiredKbs(deps: Deps, before: Date, limit: number): Promise<TrashedRef[]> {
  return deps.db.select({ ownerId: kbs.ownerId, id: kbs.id }).from(kbs).where(lt(kbs.trashedAt, before)).orderBy(asc(kbs.trashedAt)).limit(limit);
}
