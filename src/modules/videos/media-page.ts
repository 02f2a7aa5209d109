// The videos of one owner as the unified media listing (/v1/media) reads them: a page
// strictly after a (createdAt, id) key, read by the very statement GET /v1/videos pages
// with, and the delete (to the trash) DELETE /v1/videos/:id runs.
import type { Deps } from "../../core/deps.ts";
import { encodeCursor } from "../../core/cursor.ts";
import { AppError } from "../../core/errors.ts";
import type { VideoListItem } from "./model.ts";
import { listVideos } from "./service.ts";
import { trashVideo } from "./trash.ts";

/**
 * Up to `limit` of the owner's videos after `after` in GET /v1/videos's order (createdAt,
 * then id, descending, as the database compares them), as its list items with `type`.
 */
export async function videoMediaPage(
  deps: Deps,
  ownerId: string,
  after: { createdAt: Date; id: string } | null,
  limit: number,
): Promise<(VideoListItem & { type: "video" })[]> {
  // The key as the list's own cursor: the same prepared statement, the same index range.
  const cursor = after ? encodeCursor([after.createdAt.toISOString(), after.id]) : undefined;
  const { items } = await listVideos(deps, ownerId, { cursor, limit });
  return items.map((item) => ({ type: "video" as const, ...item }));
}

/** DELETE /v1/videos/:id's own delete (to the trash); false when the owner has no such video. */
export async function trashOwnVideo(deps: Deps, ownerId: string, id: string): Promise<boolean> {
  try {
    await trashVideo(deps, ownerId, id);
    return true;
  } catch (e) {
    if (e instanceof AppError && e.code === "NOT_FOUND") return false;
    throw e;
  }
}
