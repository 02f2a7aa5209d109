// The video state machine: processing -> ready, processing -> failed, nothing
// else. Every event a provider sends (a callback, or what reconciliation learns by asking)
// is applied here in one transaction that also records the event's id: a repeated event
// is acknowledged and ignored, and since only a `processing` video moves, an old or
// repeated event never moves a video backwards.
import { and, eq, sql } from "drizzle-orm";
import type { Deps } from "../../core/deps.ts";
import { AppError } from "../../core/errors.ts";
import type { Tx } from "../../infra/db/index.ts";
import { invalidate } from "../edge/public.ts";
import { notify } from "../notifications/public.ts";
import { release } from "../usage/public.ts";
import { emitEvents } from "../webhooks/public.ts";
import { VIDEO_KIND } from "./edge-resolver.ts";
import { isOwnKey, originalKey } from "./layout.ts";
import { enqueue, transcodedHere } from "./queue.ts";
import { type Rendition, type VideoProviderName, videos, videoWebhookEvents } from "./table.ts";

interface ReadyResult {
  durationSeconds: number;
  /** Lowest first. */
  renditions: Rendition[];
  thumbnailKey: string | null;
  directKey: string | null;
  /** A hosted provider's asset id, learnt with the asset (it deletes the asset by it). */
  assetId?: string;
  /** A hosted provider's playback id: the video then plays from the provider (edge-resolver.ts). */
  playbackId?: string;
}

/** What a provider reported about one video; `videoId` or `assetId` names it. */
export type ProviderEvent = { id: string; videoId?: string; assetId?: string } & (
  | { type: "ready"; result: ReadyResult }
  | {
      type: "failed";
      reason: string;
      /** The original is not kept (over the plan's duration): its storage is given back at once. */
      dropOriginal?: boolean;
    }
  | { type: "progress"; progress: number }
);

export type Applied = "applied" | "replayed" | "stale";

export async function applyProviderEvent(deps: Deps, provider: VideoProviderName, ev: ProviderEvent): Promise<Applied> {
  const now = deps.clock.now();
  const out = await deps.db.transaction(async (tx) => {
    const fresh = await tx
      .insert(videoWebhookEvents)
      .values({ provider, eventId: ev.id, receivedAt: now })
      .onConflictDoNothing()
      .returning({ id: videoWebhookEvents.eventId });
    if (!fresh.length) return { applied: "replayed" as const };
    const which = ev.videoId ? eq(videos.id, ev.videoId) : eq(videos.providerAssetId, ev.assetId ?? "");
    const processing = and(which, eq(videos.provider, provider), eq(videos.status, "processing"));
    if (ev.type === "progress") {
      // Progress only grows: a late report never takes the bar back.
      const rows = await tx
        .update(videos)
        .set({ progress: sql`greatest(${videos.progress}, ${Math.min(1, Math.max(0, ev.progress))})` })
        .where(processing)
        .returning({ id: videos.id });
      return { applied: rows.length ? ("applied" as const) : ("stale" as const) };
    }
    if (ev.type === "ready") {
      const r = ev.result;
      const [target] = await tx.select({ ownerId: videos.ownerId, id: videos.id }).from(videos).where(processing).for("update");
      // Thrown inside the transaction: the event is not recorded either, and nothing moves.
      for (const [field, key] of [
        ["thumbnailKey", r.thumbnailKey],
        ["directKey", r.directKey],
      ] as const) {
        if (target && key !== null && !isOwnKey(target, key)) {
          throw new AppError("BAD_REQUEST", `the callback's ${field} is not an object of this video`, { field: `result.${field}` });
        }
      }
      const rows = await tx
        .update(videos)
        .set({
          status: "ready",
          durationSeconds: r.durationSeconds,
          renditions: r.renditions,
          thumbnailKey: r.thumbnailKey,
          directKey: r.directKey,
          ...(r.assetId && { providerAssetId: r.assetId }),
          ...(r.playbackId && { providerPlaybackId: r.playbackId }),
          progress: 1,
          readyAt: now,
          updatedAt: now,
        })
        .where(processing)
        .returning({ id: videos.id, ownerId: videos.ownerId, title: videos.title });
      if (!rows.length) await dropOrphanAsset(tx, provider, ev, now);
      for (const v of rows) await notify(tx, [{ kind: "video_ready", userId: v.ownerId, payload: { videoId: v.id, title: v.title } }], now);
      await emitEvents(
        tx,
        rows.map((v) => ({ ownerId: v.ownerId, type: "video.ready", data: { videoId: v.id, title: v.title, durationSeconds: r.durationSeconds } })),
        now,
      );
      return { applied: rows.length ? ("applied" as const) : ("stale" as const), id: rows[0]?.id };
    }
    const [row] = await tx
      .update(videos)
      .set({
        status: "failed",
        failureReason: ev.reason.slice(0, 500),
        failedAt: now,
        updatedAt: now,
        ...(ev.dropOriginal && { originalKey: null }),
      })
      .where(processing)
      .returning();
    if (!row) {
      await dropOrphanAsset(tx, provider, ev, now);
      return { applied: "stale" as const };
    }
    await notify(tx, [{ kind: "video_failed", userId: row.ownerId, payload: { videoId: row.id, title: row.title, reason: row.failureReason } }], now);
    await emitEvents(tx, [{ ownerId: row.ownerId, type: "video.failed", data: { videoId: row.id, title: row.title, reason: row.failureReason } }], now);
    // The original's key is read before the update set it null: from the event's own row.
    // A trashed video's original was held in the trash's bytes too.
    if (ev.dropOriginal) await release(tx, row.ownerId, { mediaBytes: row.sizeBytes, trashBytes: row.trashedAt ? row.sizeBytes : 0 });
    return { applied: "applied" as const, id: row.id, dropped: ev.dropOriginal ? originalKey(row) : undefined };
  });
  if (out.applied === "applied" && "id" in out && out.id) {
    // The video's own change of state, as the API applied it (a hosted provider's only word).
    deps.log.info(ev.type === "ready" ? "video ready" : "video failed", {
      videoId: out.id,
      provider,
      eventId: ev.id,
      ...(ev.type === "failed" && { reason: ev.reason }),
    });
    await invalidate(deps, VIDEO_KIND, out.id);
  }
  if ("dropped" in out && out.dropped) await deps.storage.delete(out.dropped).catch((err) => deps.log.error("video original delete failed", { err }));
  return out.applied;
}

/**
 * A hosted asset reported for a video that no longer exists (deleted, or its owner's
 * account deleted, before the provider finished it) is queued for deletion at the
 * provider: nothing of a deleted video stays with a third party. Only an asset this
 * instance asked for (a transcode job of that video ran here) is deleted: another instance
 * sharing the provider account may send its events here too. The job has no owner, so it
 * touches no local objects.
 */
async function dropOrphanAsset(tx: Tx, provider: VideoProviderName, ev: ProviderEvent, now: Date): Promise<void> {
  if (!ev.videoId || !ev.assetId) return;
  const [still] = await tx.select({ id: videos.id }).from(videos).where(eq(videos.id, ev.videoId)).limit(1);
  if (still || !(await transcodedHere(tx, ev.videoId, provider))) return;
  await enqueue(tx, { kind: "delete", videoId: ev.videoId, ownerId: "", provider, payload: { assetId: ev.assetId } }, now);
}

/**
 * Progress of a video at work (the local provider reports it straight to the table it
 * shares with the API; no event is recorded for it). It only grows.
 */
export async function reportProgress(deps: Deps, videoId: string, progress: number): Promise<void> {
  await deps.db
    .update(videos)
    .set({ progress: sql`greatest(${videos.progress}, ${Math.min(0.99, Math.max(0, progress))})` })
    .where(and(eq(videos.id, videoId), eq(videos.status, "processing")));
}
