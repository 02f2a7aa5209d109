// Images as the operator work sees them (usage StoredKind): objects at
// images/<owner>/<id>/original.<ext> and w.webp (objects.ts) and the edge's variants at
// v/<name> (variants/made.ts); the original and the rendition are counted in img_storage and
// image_count (but not while the image is in the trash, out of the list), and in trash_bytes
// while it is in the trash.
import { asc, gt, inArray, sql } from "drizzle-orm";
import type { StoredKind } from "../usage/public.ts";
import { objectKey } from "./objects.ts";
import { type ImageRow, images, imageVariants } from "./table.ts";
import { variantKeys } from "./variants/made.ts";

const KEY = /^images\/([^/]+)\/([^/]+)\/(?:v\/)?[^/]+$/;
const keysOf = (r: Pick<ImageRow, "id" | "ownerId" | "format" | "webpSize"> & { variants: string[] | null }) => [
  objectKey(r, "original"),
  ...(r.webpSize === null ? [] : [objectKey(r, "webp")]),
  ...variantKeys(r, r.variants ?? []),
];
/** An image's row with the names of its recorded variants (the edge's sized renditions). */
const withVariants = {
  id: images.id,
  ownerId: images.ownerId,
  format: images.format,
  webpSize: images.webpSize,
  variants: sql<string[] | null>`(select array_agg(${imageVariants.name}) from ${imageVariants} where ${imageVariants.imageId} = ${images.id})`,
};

export const storedImages: StoredKind = {
  name: "images",
  prefix: "images/",
  async referenced(db, keys) {
    const ids = [...new Set(keys.flatMap((k) => KEY.exec(k)?.[2] ?? []))];
    if (!ids.length) return new Set();
    const rows = await db.select(withVariants).from(images).where(inArray(images.id, ids));
    // Only the keys the row's own format and renditions give: a stray file beside them is not referenced.
    const asked = new Set(keys);
    return new Set(rows.flatMap(keysOf).filter((k) => asked.has(k)));
  },
  async namedKeys(db, after, limit) {
    const rows = await db
      .select(withVariants)
      .from(images)
      .where(after === null ? undefined : gt(images.id, after))
      .orderBy(asc(images.id))
      .limit(limit);
    return {
      keys: rows.flatMap(keysOf),
      next: rows.length === limit ? rows.at(-1)!.id : null,
    };
  },
  async recount(db, userIds) {
    const rows = await db
      .select({
        ownerId: images.ownerId,
        bytes: sql<string>`coalesce(sum(${images.size} + coalesce(${images.webpSize}, 0)), 0)`,
        trashed: sql<string>`coalesce(sum(${images.size} + coalesce(${images.webpSize}, 0)) filter (where ${images.trashedAt} is not null), 0)`,
        n: sql<number>`(count(*) filter (where ${images.trashedAt} is null))::int`,
      })
      .from(images)
      .where(inArray(images.ownerId, [...userIds]))
      .groupBy(images.ownerId);
    return new Map(rows.map((r) => [r.ownerId, { imageBytes: Number(r.bytes), images: r.n, trashBytes: Number(r.trashed) }]));
  },
};
