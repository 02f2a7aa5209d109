// PUT /v1/kbs/:id/files/:sha256: a KB file's bytes, stored under the hash the client
// names, before a sync op links them to a path. Bytes the owner holds already are not read
// again (200 existing). New ones are refused before a byte is read when they cannot fit
// (the plan's attachmentMaxBytes, img_storage), streamed to the store while hashed (never
// held whole), and kept only when their hash is the one named: a mismatch, a refusal or a
// failure leaves no object and nothing counted. The blob's row and its counted bytes are
// written in one transaction under the owner's files lock (blobs.ts).
import type { Deps } from "../../../core/deps.ts";
import { AppError } from "../../../core/errors.ts";
import { type StoredBody, storeBody } from "../../../core/streamed-body.ts";
import { assertFileSize, type UploadBody } from "../../../core/streamed-upload.ts";
import { newId } from "../../../infra/ids.ts";
import { assertCompliant, type WithCompliance } from "../../compliance/public.ts";
import { type PlanLimits, planActive, requireUser } from "../../identity/public.ts";
import { assertFits, reserve, snapshotUsage } from "../../usage/public.ts";
import { getKb } from "../kbs/service.ts";
import { heldBlob, insertBlob, lockOwnerFiles, touchBlob } from "./blobs.ts";
import { contentTypeOf, SNIFF_BYTES } from "./content-type.ts";
import type { KbFileRow } from "./table.ts";

/** Where a blob's bytes are: per owner and hash, and per stored copy (table.ts says why). */
const blobKey = (ownerId: string, sha256: string) => `kb-files/${ownerId}/${sha256}/${newId()}`;

export interface FileUploader {
  userId: string;
  limits: PlanLimits;
}

/**
 * What a PUT gets before its body is read: the blob the owner holds already, or leave to
 * store a new one. 404 for a KB not the caller's, 403 PLAN_INACTIVE, 411 LENGTH_REQUIRED
 * without a Content-Length, 413 FILE_TOO_LARGE past the plan's attachmentMaxBytes, 403
 * QUOTA_EXCEEDED (img_storage) when the declared length does not fit.
 */
export async function precheckFile(
  deps: Deps,
  q: { userId: string; kbId: string; sha256: string; declaredLength: number | undefined },
): Promise<{ existing: KbFileRow } | { uploader: FileUploader; size: number }> {
  const now = deps.clock.now();
  const [user, usage] = await Promise.all([
    requireUser(deps.db, q.userId),
    snapshotUsage(deps.db, q.userId, now),
    getKb(deps.db, { userId: q.userId, id: q.kbId }),
  ]);
  if (!planActive(user, now)) throw new AppError("PLAN_INACTIVE", "storing KB files needs an active plan, as sync does", { plan: user.plan });
  const existing = await heldBlob(deps.db, q.userId, q.sha256);
  if (existing) {
    await touchBlob(deps.db, q.userId, q.sha256, now);
    return { existing };
  }
  const limits = deps.plans[user.plan];
  if (q.declaredLength === undefined) {
    throw new AppError("LENGTH_REQUIRED", "send the file with a Content-Length: its size is checked against the plan before a byte is read", {});
  }
  assertFileSize(q.declaredLength, limits.attachmentMaxBytes);
  assertFits(q.userId, usage, limits, { imageBytes: q.declaredLength }, now);
  return { uploader: { userId: q.userId, limits }, size: q.declaredLength };
}

export interface StoredFile {
  blob: KbFileRow;
  stored: "new" | "existing";
}

/**
 * Streams the body to a key of its own, checks its hash (422 HASH_MISMATCH otherwise), its
 * type from its first bytes (else `name`'s extension), the platform's compliance check,
 * and records the blob with its bytes counted (403 QUOTA_EXCEEDED). Bytes another PUT of
 * the same owner stored meanwhile win: this copy is removed and answered `existing`.
 */
export async function storeFile(deps: Deps & WithCompliance, u: FileUploader, q: { sha256: string; name?: string }, upload: UploadBody): Promise<StoredFile> {
  const key = blobKey(u.userId, q.sha256);
  const body: StoredBody = await storeBody(upload, {
    storage: deps.storage,
    key,
    maxBytes: u.limits.attachmentMaxBytes,
    // A file may be as large as a video: it has the longer of the two upload deadlines.
    deadlineMs: Math.max(deps.config.UPLOAD_BODY_TIMEOUT_S, deps.config.VIDEO_UPLOAD_TIMEOUT_S) * 1000,
    headBytes: SNIFF_BYTES,
  });
  const remove = () => deps.storage.delete(key).catch((err) => deps.log.error("orphan KB file object left after a refused upload", { key, err }));
  try {
    if (body.sha256 !== q.sha256) {
      throw new AppError("HASH_MISMATCH", "the body's SHA-256 is not the one in the URL; nothing was kept", { expected: q.sha256, actual: body.sha256 });
    }
    const contentType = await contentTypeOf(body.head, q.name);
    await assertCompliant(deps, { kind: "file", ownerId: u.userId, filename: q.name ?? "", sha256: body.sha256, size: body.size, mimeType: contentType });
    const now = deps.clock.now();
    const row: KbFileRow = { ownerId: u.userId, sha256: q.sha256, sizeBytes: body.size, contentType, objectKey: key, createdAt: now, touchedAt: now };
    const added = await deps.db.transaction(async (tx) => {
      await lockOwnerFiles(tx, u.userId);
      if (!(await insertBlob(tx, row))) return false;
      await reserve(tx, u.userId, u.limits, { imageBytes: body.size }, now);
      return true;
    });
    if (added) return { blob: row, stored: "new" };
    await remove();
    const held = await heldBlob(deps.db, u.userId, q.sha256);
    if (!held) throw new AppError("CONFLICT", "the same bytes were stored and let go of meanwhile; send them again", { sha256: q.sha256 });
    return { blob: held, stored: "existing" };
  } catch (e) {
    await remove();
    throw e;
  }
}
