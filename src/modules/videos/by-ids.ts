// A collection's videos: the owner's videos among some ids, as GET /v1/videos lists them.
import { and, eq, inArray, sql } from "drizzle-orm";
import type { Deps } from "../../core/deps.ts";
import type { DbOrTx } from "../../infra/db/index.ts";
import { prepared } from "../../infra/db/prepared.ts";
import type { VideoListItem } from "./model.ts";
import { LIST_COLUMNS, toListItem, videoListQuery, videoUrls } from "./service.ts";
import { videos } from "./table.ts";

const SELECTION = Object.fromEntries(LIST_COLUMNS.map((k) => [k, videos[k]])) as { [K in (typeof LIST_COLUMNS)[number]]: (typeof videos)[K] };

// The list's own filter (owner, and whatever else a list passes by), so an item is shown
// here exactly when GET /v1/videos would show it.
const byIdsQuery = (db: DbOrTx) =>
  db
    .select(SELECTION)
    .from(videos)
    .where(and(videoListQuery("", { limit: 1 }).where!(), sql`${videos.id} = any(${sql.placeholder("ids")}::text[])`))
    .prepare("videos_by_owner_ids");

/** The owner's videos among `ids` as GET /v1/videos lists them; an id the owner has no video under is left out. */
export async function videoItemsByIds(deps: Pick<Deps, "db" | "config" | "clock">, ownerId: string, ids: readonly string[]): Promise<VideoListItem[]> {
  if (!ids.length) return [];
  const urls = videoUrls(deps);
  const rows = await prepared(deps.db, "videos_by_owner_ids", byIdsQuery).execute({ userId: ownerId, ids: [...ids] });
  return rows.map((r) => toListItem(urls, r));
}

/** Which of `ids` still have a row of the owner's, whatever its state: one not among them is gone for good. */
export async function heldVideoIds(db: DbOrTx, ownerId: string, ids: readonly string[]): Promise<Set<string>> {
  if (!ids.length) return new Set();
  const rows = await db
    .select({ id: videos.id })
    .from(videos)
    .where(and(eq(videos.ownerId, ownerId), inArray(videos.id, [...ids])));
  return new Set(rows.map((r) => r.id));
}
