// What the unified media listing reads of audio: a page of the owner's files; what the
// trash reads: a page of the trashed ones, and the ones past their retention; and what a
// collection reads: the owner's files among some ids.
import { and, asc, eq, inArray, isNull, lt, sql } from "drizzle-orm";
import type { Deps } from "../../core/deps.ts";
import { type TrashEntry, type TrashKey, type TrashedRef, trashPageWhere } from "../../core/trash.ts";
import { newestFirst } from "../../core/cursor.ts";
import type { DbOrTx } from "../../infra/db/index.ts";
import { prepared } from "../../infra/db/prepared.ts";
import type { AudioItem } from "./model.ts";
import { toAudioItem } from "./service.ts";
import { audio } from "./table.ts";

const ITEM_COLUMNS = {
  id: audio.id,
  filename: audio.filename,
  format: audio.format,
  sizeBytes: audio.sizeBytes,
  title: audio.title,
  coverKey: audio.coverKey,
  placeholder: audio.placeholder,
  durationSeconds: audio.durationSeconds,
  bitrate: audio.bitrate,
  isPublic: audio.isPublic,
  createdAt: audio.createdAt,
};

const firstPage = (db: DbOrTx) =>
  db
    .select(ITEM_COLUMNS)
    .from(audio)
    .where(and(eq(audio.ownerId, sql.placeholder("ownerId")), isNull(audio.trashedAt)))
    .orderBy(...newestFirst(audio.createdAt, audio.id))
    .limit(sql.placeholder("limit"))
    .prepare("audio_media_first");

// (created_at, id) < (after): the row comparison reads the owner's index range in order.
const nextPage = (db: DbOrTx) =>
  db
    .select(ITEM_COLUMNS)
    .from(audio)
    .where(
      and(
        eq(audio.ownerId, sql.placeholder("ownerId")),
        isNull(audio.trashedAt),
        sql`(${audio.createdAt}, ${audio.id}) < (${sql.placeholder("afterAt")}::timestamptz, ${sql.placeholder("afterId")}::text)`,
      ),
    )
    .orderBy(...newestFirst(audio.createdAt, audio.id))
    .limit(sql.placeholder("limit"))
    .prepare("audio_media_next");

/**
 * The owner's audio newest first by (createdAt desc, id desc): at most `limit` items,
 * strictly after `after` (null: from the newest).
 */
export async function audioMediaPage(
  deps: Pick<Deps, "db" | "config">,
  ownerId: string,
  after: { createdAt: Date; id: string } | null,
  limit: number,
): Promise<AudioItem[]> {
  const rows = after
    ? await prepared(deps.db, "audio_media_next", nextPage).execute({ ownerId, afterAt: after.createdAt.toISOString(), afterId: after.id, limit })
    : await prepared(deps.db, "audio_media_first", firstPage).execute({ ownerId, limit });
  return rows.map((r) => toAudioItem(deps.config.MEDIA_URL, r));
}

/** The owner's trashed audio after `after`, newest trashed first (the trash's page). */
export async function audioTrashPage(deps: Pick<Deps, "db">, ownerId: string, after: TrashKey | null, limit: number): Promise<TrashEntry[]> {
  const rows = await deps.db
    .select({ id: audio.id, name: audio.title, sizeBytes: audio.sizeBytes, coverBytes: audio.coverBytes, trashedAt: audio.trashedAt })
    .from(audio)
    .where(trashPageWhere(audio, ownerId, after))
    .orderBy(...newestFirst(audio.trashedAt, audio.id))
    .limit(limit);
  return rows.map((r) => ({ id: r.id, kind: "audio", name: r.name, size: r.sizeBytes + r.coverBytes, trashedAt: r.trashedAt! }));
}

/** Audio trashed before `before`, oldest first: what the purge job removes. */
export async function expiredAudio(deps: Pick<Deps, "db">, before: Date, limit: number): Promise<TrashedRef[]> {
  return deps.db.select({ ownerId: audio.ownerId, id: audio.id }).from(audio).where(lt(audio.trashedAt, before)).orderBy(asc(audio.trashedAt)).limit(limit);
}

const byIds = (db: DbOrTx) =>
  db
    .select(ITEM_COLUMNS)
    .from(audio)
    .where(and(eq(audio.ownerId, sql.placeholder("ownerId")), isNull(audio.trashedAt), sql`${audio.id} = any(${sql.placeholder("ids")}::text[])`))
    .prepare("audio_live_by_owner_ids");

/** The owner's audio among `ids` as the media listing shows it; an id the owner has no file under (or has in the trash) is left out. */
export async function audioItemsByIds(deps: Pick<Deps, "db" | "config">, ownerId: string, ids: readonly string[]): Promise<AudioItem[]> {
  if (!ids.length) return [];
  const rows = await prepared(deps.db, "audio_live_by_owner_ids", byIds).execute({ ownerId, ids: [...ids] });
  return rows.map((r) => toAudioItem(deps.config.MEDIA_URL, r));
}

/** Which of `ids` still have a row of the owner's, whatever its state: one not among them is gone for good. */
export async function heldAudioIds(db: DbOrTx, ownerId: string, ids: readonly string[]): Promise<Set<string>> {
  if (!ids.length) return new Set();
  const rows = await db
    .select({ id: audio.id })
    .from(audio)
    .where(and(eq(audio.ownerId, ownerId), inArray(audio.id, [...ids])));
  return new Set(rows.map((r) => r.id));
}
