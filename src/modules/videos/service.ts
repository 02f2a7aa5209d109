// The rules of videos: upload (plan and quota before a byte is stored, the original
// streamed to storage, the row and its counted bytes and its transcode job in one
// transaction), list, read (anonymous when public), status, update and delete (counters
// down at once, the provider's cleanup queued).
import { and, eq, isNotNull, isNull, type SQL, sql } from "drizzle-orm";
import type { Deps } from "../../core/deps.ts";
import { keysetPage, type KeysetQuery } from "../../core/cursor.ts";
import { AppError, notFound } from "../../core/errors.ts";
import { adoptStored, assertFileSize, declaredFileBytes, type StreamedFile, streamUpload, type UploadBody } from "../../core/streamed-upload.ts";
import { iso } from "../../infra/clock.ts";
import type { DbOrTx, Tx } from "../../infra/db/index.ts";
import { prepared } from "../../infra/db/prepared.ts";
import { newId } from "../../infra/ids.ts";
import { assertCompliant, type WithCompliance } from "../compliance/public.ts";
import { invalidate } from "../edge/public.ts";
import { requireUser, planActive, type PlanLimits } from "../identity/public.ts";
import { assertFits, release, reserve, snapshotUsage } from "../usage/public.ts";
import { emitEvent } from "../webhooks/public.ts";
import { type Container, CONTAINER_MIME, CONTAINER_NAMES, SNIFF_BYTES, sniffContainer } from "./containers.ts";
import { originalKey } from "./layout.ts";
import type { ListVideosQuery, UpdateVideoBody, UploadedVideo, Video, VideoListItem, VideoStatusPoll } from "./model.ts";
import { directUrl, playbackUrl, thumbnailUrl } from "./playback.ts";
import { enqueue, enqueueDeletes } from "./queue.ts";
import { createPlaybackSigner } from "./sign.ts";
import { VIDEO_KIND } from "./edge-resolver.ts";
import { parseVideoFields, type VideoFields } from "./upload-fields.ts";
import { type VideoRow, videos } from "./table.ts";

export interface VideoUploader {
  userId: string;
  limits: PlanLimits;
}

/**
 * Refusals before the body is read: a plan without video (403 PLAN_REQUIRED), an expired
 * plan (403 PLAN_INACTIVE), a declared body over the plan's video size (413
 * FILE_TOO_LARGE), no upload left today or this month (429), or no room for the bytes the
 * request declares (403 QUOTA_EXCEEDED, meta.type media_storage).
 */
export async function precheckVideoUpload(deps: Deps, userId: string, declaredBytes: number | undefined): Promise<VideoUploader> {
  return precheckVideoFile(deps, userId, declaredFileBytes(declaredBytes));
}

/** The same refusals for a file of `fileBytes` (0: the plan and the upload counts only). */
export async function precheckVideoFile(deps: Deps, userId: string, fileBytes: number): Promise<VideoUploader> {
  const now = deps.clock.now();
  const [user, usage] = await Promise.all([requireUser(deps.db, userId), snapshotUsage(deps.db, userId, now)]);
  const limits = deps.plans[user.plan];
  if (!limits.videoAllowed) throw new AppError("PLAN_REQUIRED", "video upload needs plan pro or pro_plus", { plan: user.plan });
  if (!planActive(user, now)) throw new AppError("PLAN_INACTIVE", "video upload needs an active plan", { plan: user.plan });
  assertFileSize(fileBytes, limits.videoMaxBytes);
  assertFits(userId, usage, limits, { uploads: 1, mediaBytes: fileBytes }, now);
  return { userId, limits };
}

/**
 * Streams the upload's file to its original's key and records the video: its bytes
 * reserved in media_storage and its transcode queued in the same transaction. Whatever
 * fails (the stream, the fields, the compliance check, the quota) leaves no object and
 * nothing counted.
 */
export async function uploadVideo(deps: Deps & WithCompliance, u: VideoUploader, upload: UploadBody): Promise<VideoRow> {
  const id = newId();
  const key = originalKey({ ownerId: u.userId, id });
  const streamed = await streamUpload(upload, { ...streamOptions(deps, u, key), deadlineMs: deps.config.VIDEO_UPLOAD_TIMEOUT_S * 1000 });
  return recordVideo(deps, u, id, streamed, () => parseVideoFields(streamed.fields));
}

/** A caller's work in the transaction that records a resource (its id given), before its bytes are counted. */
export type Within = (tx: Tx, id: string) => Promise<void>;

/**
 * A finished resumable upload's file (the uploads module), at `file.key` in the store: the
 * same steps as uploadVideo from its stream on (sniffed, checked, stored as the original,
 * counted and queued), with `within` in the recording transaction (the upload gives back
 * the bytes it held there, so nothing is counted twice).
 */
export async function ingestVideo(
  deps: Deps & WithCompliance,
  userId: string,
  file: { key: string; size: number; filename: string; fields: VideoFields; id?: string },
  within: Within,
): Promise<VideoRow> {
  const u = await precheckVideoFile(deps, userId, 0);
  // An imported video keeps the id it had where the caller found it free (migration).
  const id = file.id ?? newId();
  // Moved into place, not copied: a 2 GB file is not read (or hashed, unless the
  // compliance check needs it) a second time.
  const stored = await adoptStored(file.key, file.size, file.filename, { ...streamOptions(deps, u, originalKey({ ownerId: userId, id })), deadlineMs: 0 });
  return recordVideo(deps, u, id, stored, () => file.fields, within);
}

const streamOptions = (deps: Deps & WithCompliance, u: VideoUploader, key: string) => ({
  storage: deps.storage,
  key,
  maxFileBytes: u.limits.videoMaxBytes,
  sniffBytes: SNIFF_BYTES,
  sniff: sniffContainer,
  unsupported: `the file is not a ${CONTAINER_NAMES} video`,
  hash: deps.compliance.enabled,
});

async function recordVideo(
  deps: Deps & WithCompliance,
  u: VideoUploader,
  id: string,
  streamed: StreamedFile<Container>,
  fieldsOf: () => VideoFields,
  within?: Within,
): Promise<VideoRow> {
  const key = originalKey({ ownerId: u.userId, id });
  try {
    const fields = fieldsOf();
    // The bytes are in (the object below is removed if refused); nothing is committed yet.
    await assertCompliant(deps, {
      kind: "video",
      sha256: streamed.sha256,
      size: streamed.size,
      ownerId: u.userId,
      filename: streamed.filename,
      mimeType: CONTAINER_MIME[streamed.format],
    });
    const now = deps.clock.now();
    const provider = deps.config.VIDEO_PROVIDER;
    return await deps.db.transaction(async (tx) => {
      await within?.(tx, id);
      await reserve(tx, u.userId, u.limits, { uploads: 1, mediaBytes: streamed.size }, now);
      const [row] = await tx
        .insert(videos)
        .values({
          id,
          ownerId: u.userId,
          title: fields.title ?? (streamed.filename || "video"),
          filename: streamed.filename || "video",
          tags: fields.tags,
          isPublic: fields.isPublic,
          sizeBytes: streamed.size,
          container: streamed.format,
          provider,
          originalKey: key,
          createdAt: now,
          updatedAt: now,
        })
        .returning();
      await enqueue(tx, { kind: "transcode", videoId: id, ownerId: u.userId, provider }, now);
      const data = { kind: "video", id, filename: row!.filename, title: row!.title, sizeBytes: row!.sizeBytes, status: row!.status };
      await emitEvent(tx, { ownerId: u.userId, type: "upload.completed", data }, now);
      return row!;
    });
  } catch (e) {
    await deps.storage.delete(key).catch((err) => deps.log.error("orphan video original left after a failed upload", { key, err }));
    throw e;
  }
}

/**
 * Where a video's files are, for the owner reading it. A private video's files open only
 * through a signed path (the edge refuses them otherwise), so its thumbnail_url carries a
 * signature, good until the end of the next whole hour: the URL stays the same for an hour
 * at a time and lasts at least one. Its playback URLs do not: they come from POST
 * .../sign, with the lifetime the caller asks for.
 */
export interface VideoUrls {
  media: string;
  thumbToken(id: string): string;
}

export function videoUrls(deps: Pick<Deps, "config" | "clock">): VideoUrls {
  const signer = createPlaybackSigner(deps.config.JWT_SECRET);
  const expiresAtS = (Math.floor(deps.clock.nowMs() / 3_600_000) + 2) * 3600;
  return { media: deps.config.MEDIA_URL, thumbToken: (id) => signer.token(id, expiresAtS) };
}
// A Mux-hosted video without a poster of its own shows Mux's, redirected by the edge from thumb.jpg.
const thumbKeyOf = (r: Pick<VideoRow, "customThumbnailKey" | "thumbnailKey" | "providerPlaybackId">) =>
  r.customThumbnailKey ?? r.thumbnailKey ?? (r.providerPlaybackId ? "thumb.jpg" : null);

export function toUploaded(r: VideoRow): UploadedVideo {
  return {
    id: r.id,
    title: r.title,
    filename: r.filename,
    sizeBytes: r.sizeBytes,
    status: r.status,
    isPublic: r.isPublic,
    tags: r.tags,
    createdAt: iso(r.createdAt),
    updatedAt: iso(r.updatedAt),
  };
}

export const LIST_COLUMNS = [
  "id",
  "title",
  "filename",
  "sizeBytes",
  "status",
  "isPublic",
  "tags",
  "durationSeconds",
  "thumbnailKey",
  "customThumbnailKey",
  "providerPlaybackId",
  "placeholder",
  "createdAt",
] as const;
type ListRow = Pick<VideoRow, (typeof LIST_COLUMNS)[number]>;

export function toListItem(urls: VideoUrls, r: ListRow): VideoListItem {
  const thumb = thumbKeyOf(r);
  return {
    id: r.id,
    title: r.title,
    filename: r.filename,
    sizeBytes: r.sizeBytes,
    status: r.status,
    isPublic: r.isPublic,
    tags: r.tags,
    ...(r.status === "ready" && r.durationSeconds !== null && { duration_seconds: r.durationSeconds }),
    ...(thumb && { thumbnail_url: thumbnailUrl(urls.media, r.id, thumb, r.isPublic ? undefined : urls.thumbToken(r.id)) }),
    placeholder: (thumb && r.placeholder) || null,
    createdAt: iso(r.createdAt),
  };
}

export function toVideo(urls: VideoUrls, r: VideoRow): Video {
  const { createdAt: _, ...item } = toListItem(urls, r);
  return {
    ...item,
    ...(r.status === "ready" && { playback_url: playbackUrl(urls.media, r.id) }),
    ...(r.status === "ready" && r.directKey && { direct_url: directUrl(urls.media, r.id) }),
    ...(r.status === "failed" && { failure_reason: r.failureReason ?? "transcoding failed" }),
    // The status poll's figure, beside the status it qualifies (a client reading one video need not ask twice).
    ...(r.status === "processing" && { progress: r.progress }),
    createdAt: iso(r.createdAt),
    updatedAt: iso(r.updatedAt),
  };
}

const videoById = (db: DbOrTx) =>
  db
    .select()
    .from(videos)
    .where(and(eq(videos.id, sql.placeholder("id")), isNull(videos.trashedAt)))
    .prepare("video_by_id");

/**
 * One video: its owner's, or anyone's when it is public (`userId` undefined: an anonymous
 * request). Another user's private video is 404, as an absent one.
 */
export async function getVideo(db: DbOrTx, q: { userId?: string; id: string }): Promise<VideoRow> {
  const [row] = await prepared(db, "video_by_id", videoById).execute({ id: q.id });
  if (!row || (row.ownerId !== q.userId && !row.isPublic)) throw notFound("video");
  return row;
}

/** The owner's video (mutations and the status poll). */
export async function ownVideo(db: DbOrTx, userId: string, id: string): Promise<VideoRow> {
  const row = await getVideo(db, { userId, id });
  if (row.ownerId !== userId) throw notFound("video");
  return row;
}

/** The caller's video row, locked for the rest of the transaction; 404 when it is not theirs. */
export async function lockOwnVideo(tx: Tx, userId: string, id: string): Promise<VideoRow> {
  const [row] = await tx
    .select()
    .from(videos)
    .where(and(eq(videos.id, id), eq(videos.ownerId, userId), isNull(videos.trashedAt)))
    .for("update");
  if (!row) throw notFound("video");
  return row;
}

export function videoListQuery(userId: string, q: ListVideosQuery): KeysetQuery<typeof videos, (typeof LIST_COLUMNS)[number]> {
  const filters: string[] = [];
  const params: Record<string, unknown> = { userId };
  if (q.tag !== undefined) filters.push("tag"), (params.tag = q.tag);
  if (q.status !== undefined) filters.push("status"), (params.statuses = [...new Set(q.status.split(","))]);
  if (q.isPublic !== undefined) filters.push("public"), (params.isPublic = q.isPublic);
  const where = () =>
    and(
      eq(videos.ownerId, sql.placeholder("userId")),
      isNull(videos.trashedAt),
      filters.includes("tag") ? sql`${videos.tags} @> array[${sql.placeholder("tag")}]::text[]` : undefined,
      filters.includes("status") ? sql`${videos.status} = any(${sql.placeholder("statuses")}::text[])` : undefined,
      filters.includes("public") ? eq(videos.isPublic, sql.placeholder("isPublic") as unknown as boolean) : undefined,
    ) as SQL;
  return {
    from: videos,
    columns: LIST_COLUMNS,
    shape: filters.join("_") || "owned",
    where,
    params,
    sort: ["createdAt", "id"],
    cursor: q.cursor,
    limit: q.limit ?? 20,
  };
}

export function listVideos(deps: Deps, userId: string, q: ListVideosQuery) {
  const urls = videoUrls(deps);
  return keysetPage(deps.db, videoListQuery(userId, q), (r) => toListItem(urls, r));
}

/** The status poll: eta extrapolated from the progress since transcoding began (null when unknown). */
export function toStatus(r: VideoRow, now: Date): VideoStatusPoll {
  if (r.status !== "processing") return { status: r.status, progress: r.status === "ready" ? 1 : r.progress, eta_seconds: r.status === "ready" ? 0 : null };
  const started = r.processingStartedAt?.getTime();
  const p = r.progress;
  const eta = started !== undefined && p > 0.01 ? Math.max(0, Math.round((((now.getTime() - started) / 1000) * (1 - p)) / p)) : null;
  return { status: r.status, progress: p, eta_seconds: eta };
}

export async function updateVideo(deps: Deps, userId: string, id: string, body: UpdateVideoBody): Promise<VideoRow> {
  const [row] = await deps.db
    .update(videos)
    .set({
      ...(body.title !== undefined && { title: body.title }),
      ...(body.isPublic !== undefined && { isPublic: body.isPublic }),
      ...(body.tags !== undefined && { tags: body.tags }),
      updatedAt: deps.clock.now(),
    })
    .where(and(eq(videos.id, id), eq(videos.ownerId, userId), isNull(videos.trashedAt)))
    .returning();
  if (!row) throw notFound("video");
  // Made private: no edge node may go on serving it from its cache.
  if (body.isPublic !== undefined) await invalidate(deps, VIDEO_KIND, id);
  return row;
}

/** What a video holds in the ledger: its original while kept (media_storage), a custom thumbnail and captions (img_storage). */
export const heldBytes = (r: Pick<VideoRow, "originalKey" | "sizeBytes" | "thumbnailBytes" | "captionBytes">) =>
  (r.originalKey ? r.sizeBytes : 0) + r.thumbnailBytes + r.captionBytes;

/**
 * Deletes a trashed video for good (trash.ts): the row, its counted bytes (the original's
 * media storage while it is kept, a custom thumbnail's and the captions' image storage,
 * and all of them in the trash's) and queues the provider's cleanup of every object of
 * the video, all in one transaction; the edge drops it at once. False when the owner has
 * no such video in the trash.
 */
export async function purgeVideo(deps: Deps, userId: string, id: string): Promise<boolean> {
  const now = deps.clock.now();
  const row = await deps.db.transaction(async (tx) => {
    const [gone] = await tx
      .delete(videos)
      .where(and(eq(videos.id, id), eq(videos.ownerId, userId), isNotNull(videos.trashedAt)))
      .returning();
    if (!gone) return null;
    await release(tx, userId, {
      mediaBytes: gone.originalKey ? gone.sizeBytes : 0,
      imageBytes: gone.thumbnailBytes + gone.captionBytes,
      trashBytes: heldBytes(gone),
    });
    await enqueueDeletes(tx, [gone], now);
    return gone;
  });
  if (!row) return false;
  await invalidate(deps, VIDEO_KIND, id);
  // The thumbnails at once (the queued cleanup removes everything else, and these again).
  for (const key of [row.thumbnailKey, row.customThumbnailKey]) {
    if (key) await deps.storage.delete(key).catch((err) => deps.log.warn("video thumbnail delete failed; the cleanup job retries", { id, err }));
  }
  return true;
}

/**
 * Every video of an account that is being deleted, before its rows go: the rows are
 * deleted and each video's cleanup queued (its objects, and a hosted provider's asset,
 * which no cascade of ours can reach), in one transaction. Its counters go with the
 * account. The number of videos.
 */
export async function deleteOwnerVideos(deps: Deps, ownerId: string): Promise<number> {
  const gone = await deps.db.transaction(async (tx) => {
    const rows = await tx.delete(videos).where(eq(videos.ownerId, ownerId)).returning();
    await enqueueDeletes(tx, rows, deps.clock.now());
    return rows;
  });
  for (const v of gone) await invalidate(deps, VIDEO_KIND, v.id);
  return gone.length;
}
