// The unified media listing and batch delete. Each kind (video, audio) is one entry of
// KINDS: a page of the owner's items strictly after a (createdAt, id) key, newest first,
// and the kind's own single delete, so a batch moves counters, thumbnails and edge caches
// exactly as the single deletes do.
import type { Deps } from "../../core/deps.ts";
import { decodeCursor, toPage } from "../../core/cursor.ts";
import { AppError } from "../../core/errors.ts";
import { audioMediaPage, trashAudio } from "../audio/public.ts";
import { trashOwnVideo, videoMediaPage } from "../videos/public.ts";
import { MEDIA_TYPES, type ListMediaQuery, type MediaBatchDeleteResult, type MediaType } from "./model.ts";

type Key = { createdAt: Date; id: string };

interface MediaKind<I extends { id: string; createdAt: string }> {
  /**
   * Up to `limit` of the owner's items strictly after `after` (all when null), newest
   * first: (createdAt, id) descending, ids as the kind's own SQL compares them.
   */
  page(deps: Deps, ownerId: string, after: Key | null, limit: number): Promise<I[]>;
  /** The kind's single delete (to the trash); false when the owner has nothing of this kind with the id. */
  remove(deps: Deps, ownerId: string, id: string): Promise<boolean>;
}

const KINDS = {
  video: { page: videoMediaPage, remove: trashOwnVideo },
  audio: { page: audioMediaPage, remove: trashAudio },
} satisfies Record<MediaType, MediaKind<{ id: string; createdAt: string }>>;

type Item = Awaited<ReturnType<(typeof KINDS)[MediaType]["page"]>>[number];

const rank = (type: MediaType) => MEDIA_TYPES.indexOf(type);

/**
 * Where a kind resumes after the cursor's item (at instant T, of kind `type`, with `id`).
 * Items of one instant are ordered by kind first (MEDIA_TYPES order), then by id within
 * the kind, so ids of two kinds are never compared here: the order of ids is each kind's
 * SQL's, whatever collation the database has. A kind before the cursor's has given all
 * its items of T already (resume below T: the empty id sorts before every id, in every
 * collation); one after it has given none (resume at T inclusive: below T + 1 ms, as
 * instants are stored in milliseconds).
 */
function resumeAt(kind: MediaType, cursor: { at: Date; type: MediaType; id: string }): Key | null {
  if (kind === cursor.type) return { createdAt: cursor.at, id: cursor.id };
  if (rank(kind) < rank(cursor.type)) return { createdAt: cursor.at, id: "" };
  // The last instant a cursor can hold has no next one: everything is at or before it.
  if (cursor.at.getTime() >= LAST_INSTANT) return null;
  return { createdAt: new Date(cursor.at.getTime() + 1), id: "" };
}

const LAST_INSTANT = Date.parse("9999-12-31T23:59:59.999Z");

function decodeMediaCursor(cursor: string) {
  const [at, type, id] = decodeCursor(cursor, ["d", "s", "s"] as const);
  if (!(MEDIA_TYPES as readonly string[]).includes(type)) throw new AppError("INVALID_CURSOR", "cursor is not valid", {});
  return { at, type: type as MediaType, id };
}

/**
 * One page across the kinds asked for: `limit + 1` of each after the cursor, merged by
 * (createdAt desc, kind) with a stable sort (each kind's own order kept), the first
 * `limit` kept. The cursor is the last item's (createdAt, type, id): items created later
 * are newer than any cursor handed out, so they never shift a page; paging neither
 * repeats nor skips.
 */
export async function listMedia(deps: Deps, ownerId: string, q: ListMediaQuery) {
  const limit = q.limit ?? 20;
  const cursor = q.cursor ? decodeMediaCursor(q.cursor) : null;
  const kinds = q.type ? [q.type] : MEDIA_TYPES;
  const pages = await Promise.all(kinds.map((k) => KINDS[k].page(deps, ownerId, cursor ? resumeAt(k, cursor) : null, limit + 1)));
  const merged = pages.flat().sort((a, b) => Date.parse(b.createdAt) - Date.parse(a.createdAt) || rank(a.type) - rank(b.type));
  return toPage(
    merged.slice(0, limit + 1),
    limit,
    (i: Item) => [i.createdAt, i.type, i.id],
    (i) => i,
  );
}

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
