// The unified media listing and batch delete. Each kind (video, audio) is one entry of
// KINDS: a page of the owner's items strictly after a (createdAt, id) key, newest first,
// and the kind's own single delete, so a batch moves counters, thumbnails and edge caches
// exactly as the single deletes do.
import type { Deps } from "../../deps.ts";
import { decodeCursor, toPage } from "../../http/cursor.ts";
import { deleteOwnVideo, videoMediaPage } from "../videos/public.ts";
import { MEDIA_TYPES, type ListMediaQuery, type MediaBatchDeleteResult, type MediaType } from "./model.ts";

type Key = { createdAt: Date; id: string };

interface MediaKind<I extends { id: string; createdAt: string }> {
  /** Up to `limit` of the owner's items older than `after`, ordered by (createdAt desc, id desc), ids in byte order. */
  page(deps: Deps, ownerId: string, after: Key | null, limit: number): Promise<I[]>;
  /** The kind's single delete; false when the owner has nothing of this kind with the id. */
  remove(deps: Deps, ownerId: string, id: string): Promise<boolean>;
}

const KINDS = {
  video: { page: videoMediaPage, remove: deleteOwnVideo },
} satisfies Record<MediaType, MediaKind<{ id: string; createdAt: string }>>;

type Item = Awaited<ReturnType<(typeof KINDS)[MediaType]["page"]>>[number];

/**
 * Newest first; on the same instant the greater id first, compared as the pages' SQL
 * compares them (collation "C": bytes). Ids are ASCII, where JavaScript's code-unit order
 * is byte order.
 */
function newestFirst(a: Item, b: Item): number {
  const at = Date.parse(b.createdAt) - Date.parse(a.createdAt);
  if (at !== 0) return at;
  return a.id < b.id ? 1 : a.id > b.id ? -1 : 0;
}

/**
 * One page across the kinds asked for: `limit + 1` of each after the cursor's key, merged,
 * the first `limit` kept. The cursor is the last item's key, so items created later (all
 * newer than any key handed out) never shift a page: paging neither repeats nor skips.
 */
export async function listMedia(deps: Deps, ownerId: string, q: ListMediaQuery) {
  const limit = q.limit ?? 20;
  const after = q.cursor ? keyOf(decodeCursor(q.cursor, ["d", "s"] as const)) : null;
  const kinds = q.type ? [q.type] : MEDIA_TYPES;
  const pages = await Promise.all(kinds.map((k) => KINDS[k].page(deps, ownerId, after, limit + 1)));
  const merged = pages
    .flat()
    .sort(newestFirst)
    .slice(0, limit + 1);
  return toPage(
    merged,
    limit,
    (i) => [i.createdAt, i.id],
    (i) => i,
  );
}

const keyOf = ([createdAt, id]: readonly [Date, string]): Key => ({ createdAt, id });

/**
 * Deletes each id through the kind that has it, in request order, one single delete after
 * another (each its own transaction, as DELETE on the kind's own path). An id the caller
 * has nothing under (absent, or another user's) is NOT_FOUND, never told apart.
 */
export async function deleteMedia(deps: Deps, ownerId: string, ids: readonly string[]): Promise<MediaBatchDeleteResult> {
  const results: MediaBatchDeleteResult["results"] = [];
  for (const id of ids) {
    let type: MediaType | null = null;
    for (const k of MEDIA_TYPES) {
      if (await KINDS[k].remove(deps, ownerId, id)) {
        type = k;
        break;
      }
    }
    results.push(type ? { id, type, deleted: true } : { id, deleted: false, reason: "NOT_FOUND" });
  }
  return { results };
}
