// The rules of audio: upload (plan and quota before a byte is stored; the file streamed to
// storage while its metadata is read from the same bytes; the row, its counted bytes and
// its cover in one transaction), read (anonymous when public), update and delete (every
// counter back, the objects and the edge's copy gone).
import { and, eq, isNotNull, isNull, sql } from "drizzle-orm";
import type { Deps } from "../../core/deps.ts";
import { AppError, notFound, validationError } from "../../core/errors.ts";
import { mediaFormFields } from "../../core/form-fields.ts";
import { assertFileSize, declaredFileBytes, storeStream, type StreamedFile, streamUpload, type UploadBody } from "../../core/streamed-upload.ts";
import { iso } from "../../infra/clock.ts";
import type { DbOrTx, Tx } from "../../infra/db/index.ts";
import { prepared } from "../../infra/db/prepared.ts";
import { newId } from "../../infra/ids.ts";
import { LimitRefusal } from "../../core/refusal.ts";
import { assertCompliant, type WithCompliance } from "../compliance/public.ts";
import { invalidate } from "../edge/public.ts";
import { derivedPrefix, NO_PLACEHOLDER, placeholderOf } from "../images/public.ts";
import { requireUser, planActive, type PlanLimits } from "../identity/public.ts";
import { assertFits, holdInTrash, release, reserve, snapshotUsage } from "../usage/public.ts";
import { emitEvent } from "../webhooks/public.ts";
import { coverJpeg } from "./cover.ts";
import { AUDIO_KIND, audioUrl, thumbnailUrl } from "./edge-resolver.ts";
import { type AudioFormat, FORMAT_NAMES, MIME, SNIFF_BYTES, sniffAudio } from "./formats.ts";
import { coverKey, originalKey } from "./layout.ts";
import { type MetadataTap, metadataTap, tooLong } from "./metadata.ts";
import type { Audio, AudioItem, UpdateAudioBody } from "./model.ts";
import { type AudioRow, audio } from "./table.ts";

export interface AudioUploader {
  userId: string;
  limits: PlanLimits;
}

/**
 * Refusals before the body is read: a plan without audio (403 FORBIDDEN), an expired plan
 * (403 PLAN_INACTIVE), a declared body over the plan's audio size (413 FILE_TOO_LARGE), no
 * upload left today or this month (429), or no room for the bytes the request declares
 * (403 QUOTA_EXCEEDED, meta.type media_storage).
 */
export async function precheckAudioUpload(deps: Deps, userId: string, declaredBytes: number | undefined): Promise<AudioUploader> {
  return precheckAudioFile(deps, userId, declaredFileBytes(declaredBytes));
}

/** The same refusals for a file of `fileBytes` (0: the plan and the upload counts only). */
export async function precheckAudioFile(deps: Deps, userId: string, fileBytes: number): Promise<AudioUploader> {
  const now = deps.clock.now();
  const [user, usage] = await Promise.all([requireUser(deps.db, userId), snapshotUsage(deps.db, userId, now)]);
  const limits = deps.plans[user.plan];
  if (!limits.audioAllowed) throw new AppError("FORBIDDEN", "the plan does not include audio", { plan: user.plan });
  if (!planActive(user, now)) throw new AppError("PLAN_INACTIVE", "audio upload needs an active plan", { plan: user.plan });
  assertFileSize(fileBytes, limits.audioMaxBytes);
  assertFits(userId, usage, limits, { uploads: 1, mediaBytes: fileBytes }, now);
  return { userId, limits };
}

/** Whether `bytes` more fit in the owner's image storage now (a cover that does not is left out). */
async function coverFits(deps: Deps, u: AudioUploader, bytes: number): Promise<boolean> {
  const now = deps.clock.now();
  try {
    assertFits(u.userId, await snapshotUsage(deps.db, u.userId, now), u.limits, { imageBytes: bytes }, now);
    return true;
  } catch (e) {
    if (e instanceof LimitRefusal) return false;
    throw e;
  }
}

/**
 * Streams the upload's file to its key, reading its metadata on the way, and records it:
 * its bytes in media_storage and its cover's in img_storage, in the transaction that
 * inserts the row. Whatever fails (the stream, the fields, a file that cannot be read or
 * plays too long, the compliance check, the quota) leaves no object and nothing counted.
 */
export async function uploadAudio(deps: Deps & WithCompliance, u: AudioUploader, upload: UploadBody): Promise<AudioRow> {
  const id = newId();
  let tap: MetadataTap | undefined;
  const streamed = await streamUpload(upload, {
    ...streamOptions(deps, u, id, (t) => (tap = t)),
    deadlineMs: deps.config.UPLOAD_BODY_TIMEOUT_S * 1000,
  });
  return recordAudio(deps, u, id, streamed, tap!, () => mediaFormFields(streamed.fields));
}

/** A caller's work in the transaction that records a resource (its id given), before its bytes are counted. */
export type Within = (tx: Tx, id: string) => Promise<void>;

/**
 * A finished resumable upload's file (the uploads module), read back from the store: the
 * same steps as uploadAudio from its stream on, with `within` in the recording
 * transaction (the upload gives back the bytes it held there).
 */
export async function ingestAudio(
  deps: Deps & WithCompliance,
  userId: string,
  file: { stream: ReadableStream<Uint8Array>; filename: string; fields: { title?: string; isPublic: boolean }; id?: string; createdAt?: Date },
  within: Within,
): Promise<AudioRow> {
  const u = await precheckAudioFile(deps, userId, 0);
  // An imported file keeps the id it had where the caller found it free (migration).
  const id = file.id ?? newId();
  let tap: MetadataTap | undefined;
  const streamed = await storeStream(file.stream, file.filename, { ...streamOptions(deps, u, id, (t) => (tap = t)), deadlineMs: 0 });
  return recordAudio(deps, u, id, streamed, tap!, () => file.fields, within, file.createdAt);
}

const streamOptions = (deps: Deps & WithCompliance, u: AudioUploader, id: string, tapped: (t: MetadataTap) => MetadataTap) => ({
  storage: deps.storage,
  key: originalKey({ ownerId: u.userId, id }),
  maxFileBytes: u.limits.audioMaxBytes,
  sniffBytes: SNIFF_BYTES,
  sniff: sniffAudio,
  unsupported: `the file is not ${FORMAT_NAMES} audio`,
  tap: (format: AudioFormat) => tapped(metadataTap(format, u.limits.audioMaxSeconds)),
  hash: deps.compliance.enabled,
});

async function recordAudio(
  deps: Deps & WithCompliance,
  u: AudioUploader,
  id: string,
  streamed: StreamedFile<AudioFormat>,
  tap: MetadataTap,
  fieldsOf: () => { title?: string; isPublic: boolean },
  within?: Within,
  /** An imported file's own creation time (migration); now otherwise. */
  createdAt?: Date,
): Promise<AudioRow> {
  const ref = { ownerId: u.userId, id };
  const key = originalKey(ref);
  let cover: { key: string; bytes: number; placeholder: string } | null = null;
  try {
    const fields = fieldsOf();
    const { format } = streamed;
    const info = await tap.result();
    if (!info) throw new AppError("INVALID_FILE_TYPE", `the file starts as ${format} but holds no audio that can be read`, { format });
    if (info.hasVideo) throw new AppError("INVALID_FILE_TYPE", "the file holds video: upload it to /v1/videos", { format });
    if (info.durationSeconds !== null && info.durationSeconds > u.limits.audioMaxSeconds) {
      throw tooLong(info.durationSeconds, u.limits.audioMaxSeconds);
    }
    // The bytes are in (removed below if refused); nothing is committed yet. The cover is
    // published as an image, so it is checked as one, as the file holds it.
    const facts = { ownerId: u.userId, filename: streamed.filename };
    await assertCompliant(deps, { ...facts, kind: "audio", sha256: streamed.sha256, size: streamed.size, mimeType: MIME[format] });
    if (info.cover) await assertCompliant(deps, { ...facts, kind: "image", bytes: info.cover.data, mimeType: info.cover.format });
    const jpeg = info.cover && (await coverJpeg(info.cover.data));
    if (jpeg && (await coverFits(deps, u, jpeg.length))) {
      await deps.storage.put(coverKey(ref), jpeg, { contentType: "image/jpeg" });
      cover = { key: coverKey(ref), bytes: jpeg.length, placeholder: await placeholderOf(jpeg, deps.config.IMAGE_WORK_TIMEOUT_S).catch(() => NO_PLACEHOLDER) };
    }
    const now = deps.clock.now();
    const filename = streamed.filename || `audio.${format}`;
    return await deps.db.transaction(async (tx) => {
      await within?.(tx, id);
      await reserve(tx, u.userId, u.limits, { uploads: 1, mediaBytes: streamed.size, imageBytes: cover?.bytes ?? 0 }, now);
      const [row] = await tx
        .insert(audio)
        .values({
          id,
          ownerId: u.userId,
          // The explicit title, else the one the file's tags carry (cleaned and cut to 255
          // in metadata.ts), else the file name (docs/decisions/media.md, "Audio").
          title: fields.title ?? info.tags.title ?? filename,
          filename,
          format,
          isPublic: fields.isPublic,
          sizeBytes: streamed.size,
          durationSeconds: info.durationSeconds,
          bitrate: info.bitrate,
          sampleRate: info.sampleRate,
          channels: info.channels,
          codec: info.codec,
          embeddedTags: info.tags,
          objectKey: key,
          coverKey: cover?.key ?? null,
          coverBytes: cover?.bytes ?? 0,
          placeholder: cover?.placeholder ?? NO_PLACEHOLDER,
          createdAt: createdAt ?? now,
          updatedAt: now,
        })
        .returning();
      const data = { kind: "audio", id, filename, title: row!.title, sizeBytes: row!.sizeBytes, durationSeconds: row!.durationSeconds };
      await emitEvent(tx, { ownerId: u.userId, type: "upload.completed", data }, now);
      return row!;
    });
  } catch (e) {
    for (const k of [key, cover?.key]) {
      if (k) await deps.storage.delete(k).catch((err) => deps.log.error("orphan audio object left after a failed upload", { key: k, err }));
    }
    throw e;
  }
}

type ItemRow = Pick<
  AudioRow,
  "id" | "filename" | "format" | "sizeBytes" | "title" | "coverKey" | "placeholder" | "durationSeconds" | "bitrate" | "isPublic" | "createdAt"
>;

export function toAudioItem(mediaUrl: string, r: ItemRow): AudioItem {
  return {
    id: r.id,
    type: "audio",
    url: audioUrl(mediaUrl, r.id, r.format),
    filename: r.filename,
    sizeBytes: r.sizeBytes,
    mimeType: MIME[r.format],
    title: r.title,
    thumbnailUrl: thumbnailUrl(mediaUrl, r.id, r.coverKey !== null),
    placeholder: (r.coverKey !== null && r.placeholder) || null,
    durationSeconds: r.durationSeconds,
    bitrate: r.bitrate,
    status: "ready",
    isPublic: r.isPublic,
    createdAt: iso(r.createdAt),
  };
}

export function toAudio(mediaUrl: string, r: AudioRow): Audio {
  return {
    ...toAudioItem(mediaUrl, r),
    sampleRate: r.sampleRate,
    channels: r.channels,
    codec: r.codec,
    tags: r.embeddedTags,
    updatedAt: iso(r.updatedAt),
  };
}

const audioById = (db: DbOrTx) =>
  db
    .select()
    .from(audio)
    .where(and(eq(audio.id, sql.placeholder("id")), isNull(audio.trashedAt)))
    .prepare("audio_by_id");

/**
 * One audio file: its owner's, or anyone's when it is public (`userId` undefined: an
 * anonymous request). Another user's private file is 404, as an absent one.
 */
export async function getAudio(db: DbOrTx, q: { userId?: string; id: string }): Promise<AudioRow> {
  const [row] = await prepared(db, "audio_by_id", audioById).execute({ id: q.id });
  if (!row || (row.ownerId !== q.userId && !row.isPublic)) throw notFound("audio");
  return row;
}

/** Title and visibility; `{}` changes nothing and answers the file as it is. */
export async function updateAudio(deps: Deps, userId: string, id: string, body: UpdateAudioBody): Promise<AudioRow> {
  if (body.is_public !== undefined && body.isPublic !== undefined && body.is_public !== body.isPublic) {
    throw validationError("body.is_public", "is_public and isPublic disagree");
  }
  const isPublic = body.is_public ?? body.isPublic;
  if (body.title === undefined && isPublic === undefined) {
    const row = await getAudio(deps.db, { userId, id });
    if (row.ownerId !== userId) throw notFound("audio");
    return row;
  }
  const [row] = await deps.db
    .update(audio)
    .set({ ...(body.title !== undefined && { title: body.title }), ...(isPublic !== undefined && { isPublic }), updatedAt: deps.clock.now() })
    .where(and(eq(audio.id, id), eq(audio.ownerId, userId), isNull(audio.trashedAt)))
    .returning();
  if (!row) throw notFound("audio");
  // Made private: no edge node may go on serving it from its cache.
  if (isPublic !== undefined) await invalidate(deps, AUDIO_KIND, id);
  return row;
}

/** What an audio file holds in the ledger: the file in media_storage, its cover in img_storage. */
const heldBytes = (r: Pick<AudioRow, "sizeBytes" | "coverBytes">) => r.sizeBytes + r.coverBytes;

/**
 * Moves the owner's audio file to the trash (docs/api.md, "The trash"): it stops serving at
 * once and leaves every listing; its bytes stay counted until it is purged. False when the
 * owner has no such file (or it is trashed already).
 */
export async function trashAudio(deps: Pick<Deps, "db" | "clock" | "kv" | "log">, ownerId: string, id: string): Promise<boolean> {
  const done = await deps.db.transaction(async (tx) => {
    const [row] = await tx
      .update(audio)
      .set({ trashedAt: deps.clock.now() })
      .where(and(eq(audio.id, id), eq(audio.ownerId, ownerId), isNull(audio.trashedAt)))
      .returning({ sizeBytes: audio.sizeBytes, coverBytes: audio.coverBytes });
    if (row) await holdInTrash(tx, ownerId, heldBytes(row));
    return !!row;
  });
  if (done) await invalidate(deps, AUDIO_KIND, id);
  return done;
}

/** Brings a trashed audio file back as it was; false when the owner has no such file in the trash. */
export async function restoreAudio(deps: Pick<Deps, "db" | "kv" | "log">, ownerId: string, id: string): Promise<boolean> {
  const done = await deps.db.transaction(async (tx) => {
    const [row] = await tx
      .update(audio)
      .set({ trashedAt: null })
      .where(and(eq(audio.id, id), eq(audio.ownerId, ownerId), isNotNull(audio.trashedAt)))
      .returning({ sizeBytes: audio.sizeBytes, coverBytes: audio.coverBytes });
    if (row) await release(tx, ownerId, { trashBytes: heldBytes(row) });
    return !!row;
  });
  if (done) await invalidate(deps, AUDIO_KIND, id);
  return done;
}

/**
 * Deletes the owner's trashed audio file for good: the row, and in the same transaction the
 * bytes it held in media_storage, its cover's in img_storage and both in trash_bytes; then
 * the edge's copy and the objects. False when there is no such file of this owner in the trash.
 */
export async function purgeAudio(deps: Pick<Deps, "db" | "storage" | "kv" | "log">, ownerId: string, id: string): Promise<boolean> {
  const gone = await deps.db.transaction(async (tx) => {
    const [row] = await tx
      .delete(audio)
      .where(and(eq(audio.id, id), eq(audio.ownerId, ownerId), isNotNull(audio.trashedAt)))
      .returning();
    if (row) await release(tx, ownerId, { mediaBytes: row.sizeBytes, imageBytes: row.coverBytes, trashBytes: heldBytes(row) });
    return row;
  });
  if (!gone) return false;
  await invalidate(deps, AUDIO_KIND, id);
  const keys = [gone.objectKey, gone.coverKey];
  // The cover's size variants (the edge's), beside it.
  try {
    if (gone.coverKey) for await (const o of deps.storage.list(derivedPrefix(gone.coverKey))) keys.push(o.key);
  } catch (err) {
    deps.log.error("audio cover variants not listed; the orphan sweep removes them", { id, err });
  }
  for (const key of keys) {
    if (key) await deps.storage.delete(key).catch((err) => deps.log.error("audio object delete failed; the orphan sweep removes it", { id, key, err }));
  }
  return true;
}
