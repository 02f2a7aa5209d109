// What an account export copies of images: each original as stored (its metadata stripped
// at upload), oldest first, with what an import needs to make it again; not the trashed ones.
import { and, asc, eq, gt, inArray, isNull, or, sql } from "drizzle-orm";
import { type ExportPage, exportCursor, readExportCursor } from "../../core/export-source.ts";
import type { DbOrTx } from "../../infra/db/index.ts";
import { FORMATS } from "./formats.ts";
import { objectKey, publicUrl } from "./objects.ts";
import { images } from "./table.ts";

export async function imagesForExport(db: DbOrTx, mediaUrl: string, ownerId: string, after: string | null, limit: number): Promise<ExportPage> {
  const from = readExportCursor(after);
  const rows = await db
    .select()
    .from(images)
    .where(
      and(
        eq(images.ownerId, ownerId),
        isNull(images.trashedAt),
        from ? or(gt(images.createdAt, from.at), and(eq(images.createdAt, from.at), gt(images.id, from.id))) : undefined,
      ),
    )
    .orderBy(asc(images.createdAt), asc(images.id))
    .limit(limit);
  return {
    items: rows.map((r) => ({
      id: r.id,
      name: r.filename,
      ext: FORMATS[r.format].ext,
      contentType: FORMATS[r.format].mime,
      size: r.size,
      body: { key: objectKey(r, "original") },
      tags: r.tags,
      isPublic: r.isPublic,
      createdAt: r.createdAt,
      updatedAt: r.updatedAt,
      url: publicUrl(mediaUrl, r),
      fields: { format: r.format, width: r.width, height: r.height, frames: r.frames },
    })),
    next: rows.length === limit ? exportCursor(rows.at(-1)!) : null,
  };
}

/** How many images and original bytes the owner has: an export's totals before it starts. */
export async function imageExportTotals(db: DbOrTx, ownerId: string): Promise<{ items: number; bytes: number }> {
  const [r] = await db
    .select({ n: sql<number>`count(*)::int`, bytes: sql<string>`coalesce(sum(${images.size}), 0)` })
    .from(images)
    .where(and(eq(images.ownerId, ownerId), isNull(images.trashedAt)));
  return { items: r?.n ?? 0, bytes: Number(r?.bytes ?? 0) };
}

/** Who holds each of these ids and its original's size: what an import asks before it keeps an image's id. */
export async function imageIdOwners(db: DbOrTx, ids: readonly string[]): Promise<Map<string, { ownerId: string; size: number }>> {
  if (!ids.length) return new Map();
  const rows = await db
    .select({ id: images.id, ownerId: images.ownerId, size: images.size })
    .from(images)
    .where(inArray(images.id, [...ids]));
  return new Map(rows.map((r) => [r.id, { ownerId: r.ownerId, size: r.size }]));
}
