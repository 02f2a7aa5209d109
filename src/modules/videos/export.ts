// What an account export copies of videos: each original as uploaded, oldest first, with
// what an import needs to make it again (the renditions and thumbnail are made again by a
// transcode there). A video whose original is gone (a failed one's, after 7 days) is
// listed without bytes.
import { and, asc, eq, gt, inArray, isNotNull, isNull, or, sql } from "drizzle-orm";
import { type ExportPage, exportCursor, readExportCursor } from "../../core/export-source.ts";
import type { DbOrTx } from "../../infra/db/index.ts";
import { CONTAINER_MIME, type Container } from "./containers.ts";
import { playbackUrl } from "./playback.ts";
import { videos } from "./table.ts";

const mimeOf = (container: string) => CONTAINER_MIME[container as Container] ?? "application/octet-stream";

export async function videosForExport(db: DbOrTx, mediaUrl: string, ownerId: string, after: string | null, limit: number): Promise<ExportPage> {
  const from = readExportCursor(after);
  const rows = await db
    .select()
    .from(videos)
    .where(
      and(
        eq(videos.ownerId, ownerId),
        isNull(videos.trashedAt),
        from ? or(gt(videos.createdAt, from.at), and(eq(videos.createdAt, from.at), gt(videos.id, from.id))) : undefined,
      ),
    )
    .orderBy(asc(videos.createdAt), asc(videos.id))
    .limit(limit);
  return {
    items: rows.map((r) => ({
      id: r.id,
      name: r.filename,
      ext: r.container,
      contentType: mimeOf(r.container),
      size: r.originalKey ? r.sizeBytes : 0,
      body: r.originalKey ? { key: r.originalKey } : null,
      tags: r.tags,
      isPublic: r.isPublic,
      createdAt: r.createdAt,
      updatedAt: r.updatedAt,
      url: r.status === "ready" ? playbackUrl(mediaUrl, r.id) : null,
      fields: {
        title: r.title,
        container: r.container,
        status: r.status,
        failureReason: r.failureReason,
        durationSeconds: r.durationSeconds,
        renditions: r.renditions,
        readyAt: r.readyAt?.toISOString() ?? null,
      },
    })),
    next: rows.length === limit ? exportCursor(rows.at(-1)!) : null,
  };
}

export async function videoExportTotals(db: DbOrTx, ownerId: string): Promise<{ items: number; bytes: number }> {
  const [r] = await db
    .select({ n: sql<number>`count(*)::int`, bytes: sql<string>`coalesce(sum(${videos.sizeBytes}) filter (where ${isNotNull(videos.originalKey)}), 0)` })
    .from(videos)
    .where(and(eq(videos.ownerId, ownerId), isNull(videos.trashedAt)));
  return { items: r?.n ?? 0, bytes: Number(r?.bytes ?? 0) };
}

/** Who holds each of these ids and its original's size: what an import asks before it keeps a video's id. */
export async function videoIdOwners(db: DbOrTx, ids: readonly string[]): Promise<Map<string, { ownerId: string; size: number }>> {
  if (!ids.length) return new Map();
  const rows = await db
    .select({ id: videos.id, ownerId: videos.ownerId, size: videos.sizeBytes })
    .from(videos)
    .where(inArray(videos.id, [...ids]));
  return new Map(rows.map((r) => [r.id, { ownerId: r.ownerId, size: r.size }]));
}
