// The videos of one owner as the unified media listing (/v1/media) reads them: a page
// strictly after a (createdAt, id) key, newest first, and the delete it runs for a video.
// The listing merges these pages with other kinds' in JavaScript, so the order here is
// spelled out to be one the merge can repeat exactly: ids in byte order (collation "C"),
// whatever collation the database was created with.
import { and, eq, sql } from "drizzle-orm";
import type { Deps } from "../../deps.ts";
import { AppError } from "../../http/errors.ts";
import type { DbOrTx } from "../../infra/db/index.ts";
import { prepared } from "../../infra/db/prepared.ts";
import type { VideoListItem } from "./model.ts";
import { deleteVideo, LIST_COLUMNS, toListItem, videoUrls } from "./service.ts";
import { videos } from "./table.ts";

export type VideoMediaItem = VideoListItem & { type: "video" };

const selection = Object.fromEntries(LIST_COLUMNS.map((k) => [k, videos[k]])) as { [K in (typeof LIST_COLUMNS)[number]]: (typeof videos)[K] };

function pageStatement(db: DbOrTx, after: boolean, name: string) {
  const at = sql.placeholder("createdAt");
  // `created_at <= $at` is what lets Postgres start the range of videos_owner_created_idx
  // at the key; the id comparison (in "C", not the index's collation) only filters the
  // rows that share the key's instant, and only those are sorted again.
  const past = after ? sql`${videos.createdAt} <= ${at} and (${videos.createdAt} < ${at} or ${videos.id} collate "C" < ${sql.placeholder("id")})` : undefined;
  return db
    .select(selection)
    .from(videos)
    .where(and(eq(videos.ownerId, sql.placeholder("ownerId")), past))
    .orderBy(sql`${videos.createdAt} desc`, sql`${videos.id} collate "C" desc`)
    .limit(sql.placeholder("limit"))
    .prepare(name);
}

/** Up to `limit` of the owner's videos older than `after` (all when null), as list items with `type`. */
export async function videoMediaPage(
  deps: Pick<Deps, "db" | "config" | "clock">,
  ownerId: string,
  after: { createdAt: Date; id: string } | null,
  limit: number,
): Promise<VideoMediaItem[]> {
  const name = after ? "video_media_page_after" : "video_media_page_first";
  const statement = prepared(deps.db, name, (db) => pageStatement(db, after !== null, name));
  // The instant goes as the ISO text it is: a placeholder is not mapped through its column.
  const rows = await statement.execute({ ownerId, limit, ...(after && { createdAt: after.createdAt.toISOString(), id: after.id }) });
  const urls = videoUrls(deps);
  return rows.map((r) => ({ type: "video" as const, ...toListItem(urls, r) }));
}

/** DELETE /v1/videos/:id's own delete; false when the owner has no such video. */
export async function deleteOwnVideo(deps: Deps, ownerId: string, id: string): Promise<boolean> {
  try {
    await deleteVideo(deps, ownerId, id);
    return true;
  } catch (e) {
    if (e instanceof AppError && e.code === "NOT_FOUND") return false;
    throw e;
  }
}
