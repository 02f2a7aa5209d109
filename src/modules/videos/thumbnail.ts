// A video's custom thumbnail: JPEG, PNG or WebP up to 2 MB, stored as a JPEG
// under a fresh name (layout.ts) and counted in image storage; reverting drops it and the
// auto thumbnail shows again.
import { eq } from "drizzle-orm";
import type { Deps } from "../../core/deps.ts";
import { AppError, validationError } from "../../core/errors.ts";
import type { Upload } from "../../http/multipart.ts";
import { sharp } from "../../infra/sharp.ts";
import { nanoid } from "nanoid";
import { requireUser, type PlanLimits } from "../identity/public.ts";
import { assertCompliant, type WithCompliance } from "../compliance/public.ts";
import { NO_PLACEHOLDER, placeholderOf } from "../images/public.ts";
import { invalidate } from "../edge/public.ts";
import { assertFits, release, reserve, snapshotUsage } from "../usage/public.ts";
import { customThumbnailKey } from "./layout.ts";
import { dropVideoObject } from "./objects.ts";
import { lockOwnVideo, ownVideo } from "./service.ts";
import { VIDEO_KIND } from "./edge-resolver.ts";
import { type VideoRow, videos } from "./table.ts";

export const THUMBNAIL_MAX_BYTES = 2 * 1024 * 1024;
/** Larger pictures are scaled down to fit 1920x1080: a thumbnail needs no more. */
const MAX_W = 1920;
const MAX_H = 1080;
const MAX_INPUT_PIXELS = 40_000_000;

/** The upload's picture as a JPEG, and its own type; 422 INVALID_FILE_TYPE for anything but JPEG, PNG or WebP. */
async function toJpeg(bytes: Uint8Array): Promise<{ jpeg: Uint8Array; mimeType: string }> {
  try {
    const img = sharp(bytes, { limitInputPixels: MAX_INPUT_PIXELS, failOn: "error" });
    const meta = await img.metadata();
    if (!["jpeg", "png", "webp"].includes(meta.format ?? "")) throw new Error("format");
    const jpeg = await img.rotate().resize({ width: MAX_W, height: MAX_H, fit: "inside", withoutEnlargement: true }).jpeg({ quality: 85 }).toBuffer();
    return { jpeg, mimeType: `image/${meta.format}` };
  } catch {
    throw new AppError("INVALID_FILE_TYPE", "the thumbnail must be a JPEG, PNG or WebP image");
  }
}

/** Before the body is read: the video is the caller's and some image storage is left. */
export async function precheckThumbnail(deps: Deps, userId: string, id: string) {
  const now = deps.clock.now();
  const [user, usage] = await Promise.all([requireUser(deps.db, userId), snapshotUsage(deps.db, userId, now), ownVideo(deps.db, userId, id)]);
  const limits = deps.plans[user.plan];
  assertFits(userId, usage, limits, { imageBytes: 1 }, now);
  return limits;
}

export async function setThumbnail(deps: Deps & WithCompliance, userId: string, id: string, limits: PlanLimits, upload: Upload): Promise<VideoRow> {
  if (!upload.file || upload.file.bytes.length === 0) throw validationError("body.file", "a non-empty `file` field is required");
  const { jpeg, mimeType } = await toJpeg(upload.file.bytes);
  // A thumbnail is an uploaded picture like any other: checked before it is stored.
  await assertCompliant(deps, { kind: "image", bytes: upload.file.bytes, ownerId: userId, filename: upload.file.filename, mimeType });
  const key = customThumbnailKey({ ownerId: userId, id }, nanoid(10));
  const placeholder = await placeholderOf(jpeg, deps.config.IMAGE_WORK_TIMEOUT_S).catch(() => NO_PLACEHOLDER);
  await deps.storage.put(key, jpeg, { contentType: "image/jpeg" });
  let old: string | null = null;
  try {
    const row = await deps.db.transaction(async (tx) => {
      const before = await lockOwnVideo(tx, userId, id);
      old = before.customThumbnailKey;
      await release(tx, userId, { imageBytes: before.thumbnailBytes });
      await reserve(tx, userId, limits, { imageBytes: jpeg.length }, deps.clock.now());
      const [after] = await tx
        .update(videos)
        .set({ customThumbnailKey: key, thumbnailBytes: jpeg.length, placeholder, updatedAt: deps.clock.now() })
        .where(eq(videos.id, id))
        .returning();
      return after!;
    });
    await dropVideoObject(deps, old);
    await invalidate(deps, VIDEO_KIND, id);
    return row;
  } catch (e) {
    await dropVideoObject(deps, key);
    throw e;
  }
}

export async function revertThumbnail(deps: Deps, userId: string, id: string): Promise<VideoRow> {
  const { row, old } = await deps.db.transaction(async (tx) => {
    const before = await lockOwnVideo(tx, userId, id);
    await release(tx, userId, { imageBytes: before.thumbnailBytes });
    const [after] = await tx
      .update(videos)
      // The auto thumbnail's placeholder is made again by the video-placeholders job.
      .set({ customThumbnailKey: null, thumbnailBytes: 0, placeholder: null, updatedAt: deps.clock.now() })
      .where(eq(videos.id, id))
      .returning();
    return { row: after!, old: before.customThumbnailKey };
  });
  await dropVideoObject(deps, old);
  await invalidate(deps, VIDEO_KIND, id);
  return row;
}
