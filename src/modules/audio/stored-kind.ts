// Audio as the operator work sees it (usage StoredKind): objects under
// audio/<owner>/<id>/ (layout.ts), the file counted in media_storage and an embedded cover
// in img_storage, both until the row is deleted; the cover's size variants (the edge's,
// uncounted) beside it.
import { asc, gt, inArray, sql } from "drizzle-orm";
import { derivedPrefix } from "../images/public.ts";
import type { StoredKind } from "../usage/public.ts";
import { type AudioRow, audio } from "./table.ts";

const KEY = /^audio\/([^/]+)\/([^/]+)\/.+$/;
type Named = Pick<AudioRow, "id" | "ownerId" | "objectKey" | "coverKey">;
const columns = { id: audio.id, ownerId: audio.ownerId, objectKey: audio.objectKey, coverKey: audio.coverKey };
const keysOf = (r: Named) => (r.coverKey ? [r.objectKey, r.coverKey] : [r.objectKey]);

export const storedAudio: StoredKind = {
  name: "audio",
  prefix: "audio/",
  async referenced(db, keys) {
    const ids = [...new Set(keys.flatMap((k) => KEY.exec(k)?.[2] ?? []))];
    if (!ids.length) return new Set();
    const rows = new Map((await db.select(columns).from(audio).where(inArray(audio.id, ids))).map((r) => [r.id, r]));
    return new Set(
      keys.filter((k) => {
        const m = KEY.exec(k);
        const row = m && rows.get(m[2]!);
        return !!row && row.ownerId === m[1] && (keysOf(row).includes(k) || (!!row.coverKey && k.startsWith(derivedPrefix(row.coverKey))));
      }),
    );
  },
  async namedKeys(db, after, limit) {
    const rows = await db
      .select(columns)
      .from(audio)
      .where(after === null ? undefined : gt(audio.id, after))
      .orderBy(asc(audio.id))
      .limit(limit);
    return { keys: rows.flatMap(keysOf), next: rows.length === limit ? rows.at(-1)!.id : null };
  },
  async recount(db, userIds) {
    const rows = await db
      .select({
        ownerId: audio.ownerId,
        media: sql<string>`coalesce(sum(${audio.sizeBytes}), 0)`,
        covers: sql<string>`coalesce(sum(${audio.coverBytes}), 0)`,
        trashed: sql<string>`coalesce(sum(${audio.sizeBytes} + ${audio.coverBytes}) filter (where ${audio.trashedAt} is not null), 0)`,
      })
      .from(audio)
      .where(inArray(audio.ownerId, [...userIds]))
      .groupBy(audio.ownerId);
    return new Map(rows.map((r) => [r.ownerId, { mediaBytes: Number(r.media), imageBytes: Number(r.covers), trashBytes: Number(r.trashed) }]));
  },
};
