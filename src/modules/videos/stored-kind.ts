// Videos as the operator work sees them (usage StoredKind): objects under
// videos/<owner>/<id>/ (layout.ts), the original counted in media_storage until it is
// gone, a custom thumbnail and captions in img_storage; the shown thumbnail's size variants
// (the edge's, uncounted) beside it.
import { asc, gt, inArray, isNotNull, sql } from "drizzle-orm";
import { derivedPrefix } from "../images/public.ts";
import type { StoredKind } from "../usage/public.ts";
import { captionsPrefix, hlsPrefix } from "./layout.ts";
import { type VideoRow, videos } from "./table.ts";

const KEY = /^videos\/([^/]+)\/([^/]+)\/.+$/;
type Named = Pick<VideoRow, "id" | "ownerId" | "originalKey" | "thumbnailKey" | "customThumbnailKey" | "directKey" | "captions">;
const columns = {
  id: videos.id,
  ownerId: videos.ownerId,
  originalKey: videos.originalKey,
  thumbnailKey: videos.thumbnailKey,
  customThumbnailKey: videos.customThumbnailKey,
  directKey: videos.directKey,
  captions: videos.captions,
};
/** The single objects a row names (its captions' files too); its HLS renditions are everything under its hls/ folder. */
const keysOf = (r: Named) => [
  ...[r.originalKey, r.thumbnailKey, r.customThumbnailKey, r.directKey].filter((k): k is string => !!k),
  ...r.captions.map((t) => `${captionsPrefix(r)}${t.file}`),
];

/** A size variant the edge made of the thumbnail shown now (those of a replaced one are orphans). */
const thumbnailVariant = (r: Named, k: string) => {
  const shown = r.customThumbnailKey ?? r.thumbnailKey;
  return !!shown && k.startsWith(derivedPrefix(shown));
};

export const storedVideos: StoredKind = {
  name: "videos",
  prefix: "videos/",
  async referenced(db, keys) {
    const ids = [...new Set(keys.flatMap((k) => KEY.exec(k)?.[2] ?? []))];
    if (!ids.length) return new Set();
    const rows = new Map((await db.select(columns).from(videos).where(inArray(videos.id, ids))).map((r) => [r.id, r]));
    return new Set(
      keys.filter((k) => {
        const m = KEY.exec(k);
        const row = m && rows.get(m[2]!);
        if (!row || row.ownerId !== m[1]) return false;
        return k.startsWith(hlsPrefix(row)) || keysOf(row).includes(k) || thumbnailVariant(row, k);
      }),
    );
  },
  async namedKeys(db, after, limit) {
    const rows = await db
      .select(columns)
      .from(videos)
      .where(after === null ? undefined : gt(videos.id, after))
      .orderBy(asc(videos.id))
      .limit(limit);
    return { keys: rows.flatMap(keysOf), next: rows.length === limit ? rows.at(-1)!.id : null };
  },
  async recount(db, userIds) {
    const rows = await db
      .select({
        ownerId: videos.ownerId,
        media: sql<string>`coalesce(sum(${videos.sizeBytes}) filter (where ${isNotNull(videos.originalKey)}), 0)`,
        thumbs: sql<string>`coalesce(sum(${videos.thumbnailBytes} + ${videos.captionBytes}), 0)`,
        trashed: sql<string>`coalesce(sum((case when ${videos.originalKey} is null then 0 else ${videos.sizeBytes} end) + ${videos.thumbnailBytes} + ${videos.captionBytes}) filter (where ${videos.trashedAt} is not null), 0)`,
      })
      .from(videos)
      .where(inArray(videos.ownerId, [...userIds]))
      .groupBy(videos.ownerId);
    return new Map(rows.map((r) => [r.ownerId, { mediaBytes: Number(r.media), imageBytes: Number(r.thumbs), trashBytes: Number(r.trashed) }]));
  },
};
