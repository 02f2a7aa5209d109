// What an account export copies of audio: each file as uploaded, oldest first, with what an
// import needs to make it again (the embedded cover is made again from the file).
import { and, asc, eq, gt, inArray, isNull, or, sql } from "drizzle-orm";
import { type ExportPage, exportCursor, readExportCursor } from "../../core/export-source.ts";
import type { DbOrTx } from "../../infra/db/index.ts";
import { audioUrl } from "./edge-resolver.ts";
import { MIME } from "./formats.ts";
import { audio } from "./table.ts";

export async function audioForExport(db: DbOrTx, mediaUrl: string, ownerId: string, after: string | null, limit: number): Promise<ExportPage> {
  const from = readExportCursor(after);
  const rows = await db
    .select()
    .from(audio)
    .where(
      and(
        eq(audio.ownerId, ownerId),
        isNull(audio.trashedAt),
        from ? or(gt(audio.createdAt, from.at), and(eq(audio.createdAt, from.at), gt(audio.id, from.id))) : undefined,
      ),
    )
    .orderBy(asc(audio.createdAt), asc(audio.id))
    .limit(limit);
  return {
    items: rows.map((r) => ({
      id: r.id,
      name: r.filename,
      ext: r.format,
      contentType: MIME[r.format],
      size: r.sizeBytes,
      body: { key: r.objectKey },
      tags: [],
      isPublic: r.isPublic,
      createdAt: r.createdAt,
      updatedAt: r.updatedAt,
      url: audioUrl(mediaUrl, r.id, r.format),
      fields: {
        title: r.title,
        format: r.format,
        durationSeconds: r.durationSeconds,
        bitrate: r.bitrate,
        sampleRate: r.sampleRate,
        channels: r.channels,
        codec: r.codec,
        embeddedTags: r.embeddedTags,
      },
    })),
    next: rows.length === limit ? exportCursor(rows.at(-1)!) : null,
  };
}

export async function audioExportTotals(db: DbOrTx, ownerId: string): Promise<{ items: number; bytes: number }> {
  const [r] = await db
    .select({ n: sql<number>`count(*)::int`, bytes: sql<string>`coalesce(sum(${audio.sizeBytes}), 0)` })
    .from(audio)
    .where(and(eq(audio.ownerId, ownerId), isNull(audio.trashedAt)));
  return { items: r?.n ?? 0, bytes: Number(r?.bytes ?? 0) };
}

/** Who holds each of these ids and its file's size: what an import asks before it keeps an audio file's id. */
export async function audioIdOwners(db: DbOrTx, ids: readonly string[]): Promise<Map<string, { ownerId: string; size: number }>> {
  if (!ids.length) return new Map();
  const rows = await db
    .select({ id: audio.id, ownerId: audio.ownerId, size: audio.sizeBytes })
    .from(audio)
    .where(inArray(audio.id, [...ids]));
  return new Map(rows.map((r) => [r.id, { ownerId: r.ownerId, size: r.size }]));
}
