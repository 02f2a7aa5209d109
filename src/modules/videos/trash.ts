// Videos in the trash (docs/api.md, "The trash"): DELETE /v1/videos/:id sets trashed_at; from
// then on every read, lock, signed URL, the edge and the export pass the video by, and
// its bytes stay counted until the trash restores it or purges it (service.ts, purgeVideo).
import { and, asc, eq, isNotNull, isNull, lt } from "drizzle-orm";
import type { Deps } from "../../core/deps.ts";
import { notFound } from "../../core/errors.ts";
import { type TrashEntry, type TrashKey, type TrashedRef, trashPageWhere } from "../../core/trash.ts";
import { newestFirst } from "../../core/cursor.ts";
import { invalidate } from "../edge/public.ts";
import { holdInTrash, release } from "../usage/public.ts";
import { VIDEO_KIND } from "./edge-resolver.ts";
import { heldBytes } from "./service.ts";
import { videos } from "./table.ts";

const HELD = { originalKey: videos.originalKey, sizeBytes: videos.sizeBytes, thumbnailBytes: videos.thumbnailBytes, captionBytes: videos.captionBytes };

/** Moves the owner's video to the trash; 404 when they have no such video (or it is trashed already). */
export async function trashVideo(deps: Deps, userId: string, id: string): Promise<void> {
  const now = deps.clock.now();
  await deps.db.transaction(async (tx) => {
    const [row] = await tx
      .update(videos)
      .set({ trashedAt: now })
      .where(and(eq(videos.id, id), eq(videos.ownerId, userId), isNull(videos.trashedAt)))
      .returning(HELD);
    if (!row) throw notFound("video");
    await holdInTrash(tx, userId, heldBytes(row));
  });
  // No edge node may go on serving it from its cache.
  await invalidate(deps, VIDEO_KIND, id);
}

/** Brings a trashed video back as it was; false when the owner has no such video in the trash. */
export async function restoreVideo(deps: Deps, userId: string, id: string): Promise<boolean> {
  const done = await deps.db.transaction(async (tx) => {
    const [row] = await tx
      .update(videos)
      .set({ trashedAt: null })
      .where(and(eq(videos.id, id), eq(videos.ownerId, userId), isNotNull(videos.trashedAt)))
      .returning(HELD);
    if (row) await release(tx, userId, { trashBytes: heldBytes(row) });
    return !!row;
  });
  if (done) await invalidate(deps, VIDEO_KIND, id);
  return done;
}

/** The owner's trashed videos after `after`, newest trashed first. */
export async function videoTrashPage(deps: Deps, ownerId: string, after: TrashKey | null, limit: number): Promise<TrashEntry[]> {
  const rows = await deps.db
    .select({ id: videos.id, name: videos.title, trashedAt: videos.trashedAt, ...HELD })
    .from(videos)
    .where(trashPageWhere(videos, ownerId, after))
    .orderBy(...newestFirst(videos.trashedAt, videos.id))
    .limit(limit);
  return rows.map((r) => ({ id: r.id, kind: "video", name: r.name, size: heldBytes(r), trashedAt: r.trashedAt! }));
}

/** Videos trashed before `before`, oldest first: what the purge job removes. */
export async function expiredVideos(deps: Deps, before: Date, limit: number): Promise<TrashedRef[]> {
  return deps.db
    .select({ ownerId: videos.ownerId, id: videos.id })
    .from(videos)
    .where(lt(videos.trashedAt, before))
    .orderBy(asc(videos.trashedAt))
    .limit(limit);
}
