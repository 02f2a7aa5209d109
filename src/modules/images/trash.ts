// Images in the trash (docs/api.md, "The trash"): DELETE /v1/images/:id sets trashed_at,
// and from then on every read, the edge and the export pass the image by; the trash lists
// it, restores it (same id, URL and tags) or purges it (service.ts, purgeImage).
import { and, asc, eq, isNotNull, isNull, lt } from "drizzle-orm";
import type { Deps } from "../../core/deps.ts";
import { notFound } from "../../core/errors.ts";
import { type TrashEntry, type TrashKey, type TrashedRef, trashPageWhere } from "../../core/trash.ts";
import { newestFirst } from "../../core/cursor.ts";
import { invalidateImage } from "../edge/public.ts";
import { countAgain, holdInTrash, release } from "../usage/public.ts";
import { storedBytes } from "./service.ts";
import { images } from "./table.ts";

/** Moves the owner's image to the trash; 404 when they have no such image (or it is trashed already). */
export async function trashImage(deps: Deps, userId: string, id: string): Promise<void> {
  const now = deps.clock.now();
  await deps.db.transaction(async (tx) => {
    const [row] = await tx
      .update(images)
      .set({ trashedAt: now })
      .where(and(eq(images.id, id), eq(images.ownerId, userId), isNull(images.trashedAt)))
      .returning({ size: images.size, webpSize: images.webpSize });
    if (!row) throw notFound("image");
    // It leaves the list, and the list's total (image_count); its bytes stay counted.
    await release(tx, userId, { images: 1 });
    await holdInTrash(tx, userId, storedBytes(row));
  });
  // Every edge node stops serving it now, not when its cache expires.
  await invalidateImage(deps, id);
}

/** Brings a trashed image back as it was; false when the owner has no such image in the trash. */
export async function restoreImage(deps: Deps, userId: string, id: string): Promise<boolean> {
  const done = await deps.db.transaction(async (tx) => {
    const [row] = await tx
      .update(images)
      .set({ trashedAt: null })
      .where(and(eq(images.id, id), eq(images.ownerId, userId), isNotNull(images.trashedAt)))
      .returning({ size: images.size, webpSize: images.webpSize });
    if (!row) return false;
    await release(tx, userId, { trashBytes: storedBytes(row) });
    await countAgain(tx, userId, { images: 1 });
    return true;
  });
  if (done) await invalidateImage(deps, id);
  return done;
}

/** The owner's trashed images after `after`, newest trashed first. */
export async function imageTrashPage(deps: Deps, ownerId: string, after: TrashKey | null, limit: number): Promise<TrashEntry[]> {
  const rows = await deps.db
    .select({ id: images.id, name: images.filename, size: images.size, webpSize: images.webpSize, trashedAt: images.trashedAt })
    .from(images)
    .where(trashPageWhere(images, ownerId, after))
    .orderBy(...newestFirst(images.trashedAt, images.id))
    .limit(limit);
  return rows.map((r) => ({ id: r.id, kind: "image", name: r.name, size: storedBytes(r), trashedAt: r.trashedAt! }));
}

/** Images trashed before `before`, oldest first: what the purge job removes. */
export async function expiredImages(deps: Deps, before: Date, limit: number): Promise<TrashedRef[]> {
  return deps.db
    .select({ ownerId: images.ownerId, id: images.id })
    .from(images)
    .where(lt(images.trashedAt, before))
    .orderBy(asc(images.trashedAt))
    .limit(limit);
}
