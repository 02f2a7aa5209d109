// The rules of images: upload (type by content, bounded decode, quotas before storing,
// no orphan object and no counted bytes after a failure), list, read, update, delete.
import { logStoreFailure } from "../../infra/storage/outages.ts";
import { and, arrayContains, eq, inArray, isNotNull, isNull, sql, type Placeholder } from "drizzle-orm";
import type { Deps } from "../../core/deps.ts";
import { keysetPage, type KeysetQuery } from "../../core/cursor.ts";
import { AppError, notFound, storageError } from "../../core/errors.ts";
import { assertFileSize } from "../../core/streamed-upload.ts";
import { iso } from "../../infra/clock.ts";
import type { DbOrTx, Tx } from "../../infra/db/index.ts";
import { prepared } from "../../infra/db/prepared.ts";
import { newImageId } from "../../infra/ids.ts";
import { assertCompliant, type WithCompliance } from "../compliance/public.ts";
import type { SvgSanitizer } from "./svg-sanitizer.ts";
import { invalidateImage } from "../edge/public.ts";
import { requireUser, type PlanLimits } from "../identity/public.ts";
import { assertFits, counterTotal, release, reserve, snapshotUsage, type UsageSnapshot } from "../usage/public.ts";
import { emitEvent } from "../webhooks/public.ts";
import { detectFormat, FORMAT_NAMES, FORMATS, type ImageFormat } from "./formats.ts";
import type { ImageItem, UpdateImageBody, UploadedImage } from "./model.ts";
import { objectKey, objectKeys, publicUrl, thumbnailUrl } from "./objects.ts";
import { processImage } from "./pipeline.ts";
import { images, type ImageRow, imageVariants } from "./table.ts";
import { variantKeys } from "./variants/made.ts";

/** What an image upload needs besides the parts: the platform's check and the SVG sanitizer's worker. */
export type ImageDeps = Deps & WithCompliance & { svgSanitizer: SvgSanitizer };

export interface Uploader {
  userId: string;
  limits: PlanLimits;
  /** Usage read when the request began (by precheckUpload). */
  usage: UsageSnapshot;
}

/** A new image as plain values, whoever brings it (the upload route, a sync push). */
export interface NewImage {
  bytes: Uint8Array;
  /** The name it came with; without one (or ""), `image.<ext>`. */
  filename?: string;
  /** Already checked against the Tags model; none by default. */
  tags?: string[];
  /** Public unless told otherwise. */
  isPublic?: boolean;
  /** An imported image's own id, which the caller found free (migration); a new one otherwise. */
  id?: string;
  /** An imported image's own creation time (migration); the time it is recorded otherwise. */
  createdAt?: Date;
}

/** The columns an image's answer shows: all a list page reads. */
const ITEM_COLUMNS = ["id", "format", "filename", "size", "width", "height", "isPublic", "tags", "placeholder", "createdAt"] as const;
type ItemRow = Pick<ImageRow, (typeof ITEM_COLUMNS)[number]>;

/** What an upload answers. */
export function toUploaded(mediaUrl: string, r: Omit<ItemRow, "isPublic" | "tags">): UploadedImage {
  return { id: r.id, url: publicUrl(mediaUrl, r), filename: r.filename, size: r.size, width: r.width, height: r.height, created_at: iso(r.createdAt) };
}

/** List items, GET one and PATCH: the upload's fields plus is_public, tags, a thumbnail and a placeholder. */
export function toItem(mediaUrl: string, r: ItemRow): ImageItem {
  return { ...toUploaded(mediaUrl, r), is_public: r.isPublic, tags: r.tags, thumbnail_url: thumbnailUrl(mediaUrl, r), placeholder: r.placeholder || null };
}

/** Bytes an image counts against img_storage: what is stored, the original and its rendition. */
export const storedBytes = (r: { size: number; webpSize: number | null }) => r.size + (r.webpSize ?? 0);

/**
 * Early refusal before the body is read: a file of `fileBytes` over the plan's image size
 * (413), no upload left today or this month (429), or no room for `imageBytes` (403). What
 * an image stores is known only once it is processed (a stripped original can be smaller
 * than the file sent), so a form's upload asks room for 1 byte here.
 */
export async function precheckUpload(deps: Deps, userId: string, imageBytes = 1, fileBytes = imageBytes): Promise<Uploader> {
  const now = deps.clock.now();
  const [user, usage] = await Promise.all([requireUser(deps.db, userId), snapshotUsage(deps.db, userId, now)]);
  const limits = deps.plans[user.plan];
  assertFileSize(fileBytes, limits.imageMaxBytes);
  assertFits(userId, usage, limits, { uploads: 1, imageBytes }, now);
  return { userId, limits, usage };
}

async function putObject(deps: Deps, key: string, bytes: Uint8Array, contentType: string) {
  for (let attempt = 1; ; attempt++) {
    try {
      return await deps.storage.put(key, bytes, { contentType });
    } catch (err) {
      if (attempt >= 2) {
        logStoreFailure(deps.log, "object store write failed", { key }, err);
        throw storageError(err, "the object store failed; try again");
      }
    }
  }
}

/**
 * An image processed and written to the object store but not yet recorded: its row is
 * inserted (and its bytes counted) by the transaction that records it, or its objects
 * are removed again by discardPrepared.
 */
export interface PreparedImage {
  row: typeof images.$inferInsert & { id: string; format: ImageFormat; size: number };
  /** Bytes it counts against img_storage: the original and its rendition. */
  stored: number;
  keys: string[];
  /** Its creation time when it has its own (an import's); the recording's otherwise. */
  at?: Date;
}

/**
 * Decides the format by the bytes, processes the image (SVG sanitized, metadata stripped,
 * WebP rendition) and writes its objects, as an upload does. Throws (and leaves nothing
 * stored) when the bytes are not an image it takes, the platform's compliance check
 * refuses them (451), or they do not fit the usage read at the start (`alsoNeeds`: what
 * else the caller will count in the same transaction).
 */
export async function prepareImage(deps: ImageDeps, u: Uploader, input: NewImage, alsoNeeds: { imageBytes?: number } = {}): Promise<PreparedImage> {
  const format = detectFormat(input.bytes);
  if (!format) throw new AppError("INVALID_FILE_TYPE", `the file is not a ${FORMAT_NAMES} image`);
  // Before any work or write: a refused picture costs neither decoding nor storage.
  await assertCompliant(deps, { kind: "image", bytes: input.bytes, ownerId: u.userId, filename: input.filename ?? "", mimeType: FORMATS[format].mime });

  const out = await processImage(input.bytes, format, {
    work: deps.budgets.imageWork,
    timeoutS: deps.config.IMAGE_WORK_TIMEOUT_S,
    svg: { sanitizer: deps.svgSanitizer, maxDepth: deps.config.SVG_MAX_DEPTH, maxElements: deps.config.SVG_MAX_ELEMENTS },
  });
  const id = input.id ?? newImageId();
  const base = { id, ownerId: u.userId, format };
  const stored = storedBytes({ size: out.original.length, webpSize: out.webp?.length ?? null });
  // Nothing is stored that cannot fit in the usage read when the request began; reserve()
  // decides for good (and a concurrent upload that took the room meanwhile gets its
  // objects removed again).
  assertFits(u.userId, u.usage, u.limits, { uploads: 1, imageBytes: stored + (alsoNeeds.imageBytes ?? 0) }, deps.clock.now());

  const written: string[] = [];
  const puts: Promise<unknown>[] = [];
  const put = (key: string, bytes: Uint8Array, type: string) => {
    written.push(key);
    puts.push(putObject(deps, key, bytes, type));
  };
  put(objectKey(base, "original"), out.original, FORMATS[format].mime);
  if (out.webp) put(objectKey(base, "webp"), out.webp, "image/webp");
  // allSettled: every write has finished (or failed) before any cleanup runs.
  const results = await Promise.allSettled(puts);
  const failed = results.find((r) => r.status === "rejected");
  const prepared: PreparedImage = {
    row: {
      ...base,
      filename: input.filename || `image.${FORMATS[format].ext}`,
      width: out.width,
      height: out.height,
      frames: out.frames,
      isPublic: input.isPublic ?? true,
      tags: input.tags ?? [],
      size: out.original.length,
      webpSize: out.webp?.length ?? null,
      placeholder: out.placeholder,
      createdAt: new Date(0),
      updatedAt: new Date(0),
    },
    stored,
    keys: written,
    ...(input.createdAt ? { at: input.createdAt } : {}),
  };
  if (failed) {
    await discardPrepared(deps, [prepared]);
    throw (failed as PromiseRejectedResult).reason;
  }
  return prepared;
}

/** Records prepared images in `tx` (the caller reserves their bytes and count in it). */
export async function insertPrepared(tx: Tx, list: readonly PreparedImage[], now: Date): Promise<ImageRow[]> {
  if (!list.length) return [];
  return await tx
    .insert(images)
    .values(list.map((p) => ({ ...p.row, createdAt: p.at ?? now, updatedAt: now })))
    .returning();
}

/** Removes the objects of prepared images whose transaction did not commit. */
export async function discardPrepared(deps: Deps, list: readonly PreparedImage[]): Promise<void> {
  const keys = list.flatMap((p) => p.keys);
  const removed = await Promise.allSettled(keys.map((k) => deps.storage.delete(k)));
  for (const r of removed) if (r.status === "rejected") logStoreFailure(deps.log, "orphan image object left after a failed upload", { keys }, r.reason);
}

/** The public URL of a prepared image (the one it has once recorded). */
export const preparedUrl = (mediaUrl: string, p: PreparedImage) => publicUrl(mediaUrl, p.row);

export async function createImage(deps: ImageDeps, u: Uploader, input: NewImage, within?: (tx: Tx, id: string) => Promise<void>): Promise<ImageRow> {
  const p = await prepareImage(deps, u, input);
  try {
    const now = deps.clock.now();
    return await deps.db.transaction(async (tx) => {
      await within?.(tx, p.row.id);
      await reserve(tx, u.userId, u.limits, { uploads: 1, imageBytes: p.stored, images: 1 }, now);
      const [row] = await insertPrepared(tx, [p], now);
      const data = { kind: "image", id: row!.id, filename: row!.filename, sizeBytes: row!.size, format: row!.format, width: row!.width, height: row!.height };
      await emitEvent(tx, { ownerId: u.userId, type: "upload.completed", data }, now);
      return row!;
    });
  } catch (e) {
    // Nothing was counted (the transaction rolled back); nothing may stay stored either.
    await discardPrepared(deps, [p]);
    throw e;
  }
}

/**
 * A finished resumable upload's file (the uploads module): created as an upload creates
 * it. `held`: the image bytes the upload holds reserved, which `within` (run in the
 * recording transaction, before the image is counted) gives back; the checks before it
 * see them as free.
 */
export async function ingestImage(
  deps: ImageDeps,
  userId: string,
  input: NewImage,
  held: number,
  within: (tx: Tx, id: string) => Promise<void>,
): Promise<ImageRow> {
  const u = await precheckUpload(deps, userId, 0);
  const usage = { ...u.usage, img_storage: Math.max(0, u.usage.img_storage - held) };
  return createImage(deps, { ...u, usage }, input, within);
}

/** An image brought by an account import (migration): checked, processed, stored and counted as an upload is. */
export async function importImage(deps: ImageDeps, userId: string, input: NewImage): Promise<ImageRow> {
  const u = await precheckUpload(deps, userId, 0);
  return createImage(deps, u, input);
}

// A trashed image is the owner's no longer as far as every read and change is concerned:
// only the trash (trash.ts) reaches it.
const ownedBy = (userId: string | Placeholder, id: string | Placeholder) => and(eq(images.id, id), eq(images.ownerId, userId), isNull(images.trashedAt));

const imageQuery = (db: DbOrTx) =>
  db
    .select()
    .from(images)
    .where(ownedBy(sql.placeholder("userId"), sql.placeholder("id")))
    .prepare("image_by_owner");

export async function getImage(db: DbOrTx, q: { userId: string; id: string }): Promise<ImageRow> {
  const [row] = await prepared(db, "image_by_owner", imageQuery).execute(q);
  if (!row) throw notFound("image");
  return row;
}

const ownedByParam = () => and(eq(images.ownerId, sql.placeholder("userId")), isNull(images.trashedAt));
const taggedParam = () => and(ownedByParam(), arrayContains(images.tags, sql`array[${sql.placeholder("tag")}]::text[]`));

/** The keyset query of an images list page. */
export function imageListQuery(userId: string, q: { cursor?: string; limit: number; tag?: string }): KeysetQuery<typeof images, (typeof ITEM_COLUMNS)[number]> {
  return {
    from: images,
    columns: ITEM_COLUMNS,
    ...(q.tag ? { shape: "tagged", where: taggedParam, params: { userId, tag: q.tag } } : { shape: "owned", where: ownedByParam, params: { userId } }),
    sort: ["createdAt", "id"],
    cursor: q.cursor,
    limit: q.limit,
  };
}

export async function listImages(deps: Deps, userId: string, q: { cursor?: string; limit: number; tag?: string }) {
  const [page, total] = await Promise.all([
    keysetPage(deps.db, imageListQuery(userId, q), (r) => toItem(deps.config.MEDIA_URL, r)),
    // The exact count the ledger keeps beside the rows (moved in their transactions):
    // counting a large library on every page would cost more than the page.
    counterTotal(deps.db, userId, "image_count"),
  ]);
  return { ...page, total };
}

const ITEM_SELECTION = Object.fromEntries(ITEM_COLUMNS.map((k) => [k, images[k]])) as { [K in (typeof ITEM_COLUMNS)[number]]: (typeof images)[K] };

const byIdsQuery = (db: DbOrTx) =>
  db
    .select(ITEM_SELECTION)
    .from(images)
    .where(and(ownedByParam(), sql`${images.id} = any(${sql.placeholder("ids")}::text[])`))
    .prepare("images_by_owner_ids");

/**
 * The owner's images among `ids` as GET /v1/images lists them (a collection's items): an id
 * the owner has no image under is left out, in no particular order.
 */
export async function imageItemsByIds(deps: Pick<Deps, "db" | "config">, ownerId: string, ids: readonly string[]): Promise<ImageItem[]> {
  if (!ids.length) return [];
  const rows = await prepared(deps.db, "images_by_owner_ids", byIdsQuery).execute({ userId: ownerId, ids: [...ids] });
  return rows.map((r) => toItem(deps.config.MEDIA_URL, r));
}

/**
 * Which of `ids` still have a row of the owner's, whatever state it is in: an id not among
 * them is gone for good (what a collection may forget), where imageItemsByIds also leaves
 * out what its GET would not show.
 */
export async function heldImageIds(db: DbOrTx, ownerId: string, ids: readonly string[]): Promise<Set<string>> {
  if (!ids.length) return new Set();
  const rows = await db
    .select({ id: images.id })
    .from(images)
    .where(and(eq(images.ownerId, ownerId), inArray(images.id, [...ids])));
  return new Set(rows.map((r) => r.id));
}

export async function updateImage(deps: Deps, userId: string, id: string, body: UpdateImageBody): Promise<ImageRow> {
  const [row] = await deps.db
    .update(images)
    .set({
      ...(body.filename !== undefined && { filename: body.filename }),
      ...(body.is_public !== undefined && { isPublic: body.is_public }),
      ...(body.tags !== undefined && { tags: body.tags }),
      updatedAt: deps.clock.now(),
    })
    .where(ownedBy(userId, id))
    .returning();
  if (!row) throw notFound("image");
  // Made private: every edge node must stop serving it now, not when its cache expires
  // (and made public: serve it now).
  if (body.is_public !== undefined) await invalidateImage(deps, id);
  return row;
}

/**
 * Deletes a trashed image for good (trash.ts: at once or at the end of its retention): its
 * row, its variants' rows, its counted bytes (img_storage, and the trash's) and, after the
 * commit, its objects. False when the owner has no such image in the trash.
 */
export async function purgeImage(deps: Deps, userId: string, id: string): Promise<boolean> {
  const inTrash = and(eq(images.id, id), eq(images.ownerId, userId), isNotNull(images.trashedAt));
  const done = await deps.db.transaction(async (tx) => {
    // The row locked first: a variant being recorded meanwhile waits for this transaction
    // and then finds no image (its maker removes its object); one recorded before is listed here.
    const [locked] = await tx.select({ id: images.id }).from(images).where(inTrash).for("update");
    if (!locked) return null;
    const variants = await tx.delete(imageVariants).where(eq(imageVariants.imageId, id)).returning({ name: imageVariants.name });
    const [gone] = await tx.delete(images).where(inTrash).returning();
    await release(tx, userId, { imageBytes: storedBytes(gone!), trashBytes: storedBytes(gone!) });
    return { row: gone!, variants: variants.map((v) => v.name) };
  });
  if (!done) return false;
  await invalidateImage(deps, id);
  // After the commit: a failed commit must not have lost the bytes. A failed delete here
  // leaves an unreferenced object, logged for the operator; nothing serves or counts it.
  const keys = [...objectKeys(done.row), ...variantKeys(done.row, done.variants)];
  const results = await Promise.allSettled(keys.map((k) => deps.storage.delete(k)));
  for (const r of results) if (r.status === "rejected") logStoreFailure(deps.log, "image object delete failed", { id }, r.reason);
  return true;
}
