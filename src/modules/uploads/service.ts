// The rules of resumable uploads: creation (the kind's own refusals before a byte is
// taken, the whole length held in the usage ledger), PATCHes serialized per upload by a
// kv lease and checked against the stored offset, termination (everything given back),
// and the state a client reads to find what a finished upload made.
import { and, eq } from "drizzle-orm";
import type { Deps } from "../../core/deps.ts";
import { AppError, notFound } from "../../core/errors.ts";
import { stripUnsafeChars } from "../../core/text.ts";
import { iso } from "../../infra/clock.ts";
import type { DbOrTx } from "../../infra/db/index.ts";
import { newId } from "../../infra/ids.ts";
import { release, reserve } from "../usage/public.ts";
import { completeUpload } from "./complete.ts";
import { heldNeed, KINDS, type KindDeps, kindOf, type Resource } from "./kinds.ts";
import type { UploadState } from "./model.ts";
import { discard, receive } from "./store.ts";
import { type UploadRow, uploads } from "./table.ts";
import type { Checksum } from "./tus.ts";

const HOUR_MS = 3_600_000;
/** A PATCH holds its upload's lease this long at a time, renewed while its body arrives. */
const LEASE_MS = 30_000;

const dataKeyOf = (ownerId: string, id: string) => `uploads/${ownerId}/${id}/data`;

/**
 * A new upload of `length` bytes described by `metadata` (kind, filename, title, isPublic,
 * tags). Refused as the kind's upload route refuses, in its order (the plan, 413 over the
 * plan's size for the kind, the counts, the room), 422 for a bad field; its length is held
 * in the kind's storage dimension from now until it completes, is terminated or expires.
 */
async function createUpload(deps: Deps, userId: string, length: number, metadata: Record<string, string>): Promise<UploadRow> {
  const kind = kindOf(metadata);
  const k = KINDS[kind];
  k.fields(metadata);
  const limits = await k.precheck(deps, userId, length);
  if (length === 0)
    throw new AppError("VALIDATION_ERROR", "Upload-Length must be at least 1", {
      path: "headers.upload-length",
      issues: [{ path: "headers.upload-length", message: "must be at least 1" }],
    });
  const now = deps.clock.now();
  const id = newId();
  // Kept as HEAD and GET show it: without the control and bidi characters no name keeps
  // (src/core/text.ts), as a form's file name loses them. The kind's fields were judged as sent
  // (a tag holding one is 422, as in a form).
  const stored = Object.fromEntries(Object.entries(metadata).map(([key, value]) => [key, stripUnsafeChars(value)]));
  return deps.db.transaction(async (tx) => {
    await reserve(tx, userId, limits, heldNeed(kind, length), now);
    const [row] = await tx
      .insert(uploads)
      .values({
        id,
        ownerId: userId,
        kind,
        metadata: stored,
        length,
        status: "uploading",
        reserved: k.holds ? length : 0,
        dataKey: dataKeyOf(userId, id),
        expiresAt: new Date(now.getTime() + deps.config.RESUMABLE_UPLOAD_EXPIRY_H * HOUR_MS),
        createdAt: now,
        updatedAt: now,
      })
      .returning();
    return row!;
  });
}

/** The owner's upload; another user's is 404, as an absent one. */
async function ownUpload(db: DbOrTx, userId: string, id: string): Promise<UploadRow> {
  const [row] = await db
    .select()
    .from(uploads)
    .where(and(eq(uploads.id, id), eq(uploads.ownerId, userId)));
  if (!row) throw notFound("upload");
  return row;
}

/** Whether an upload has run out of time without finishing. */
const isExpired = (row: UploadRow, now: Date) => row.status === "expired" || (row.status === "uploading" && row.expiresAt.getTime() <= now.getTime());

const expired = (row: UploadRow) =>
  new AppError("UPLOAD_EXPIRED", "the upload expired before it was finished; start a new one", { expiredAt: iso(row.expiresAt) });

/**
 * 410 for an upload whose file was refused: its bytes are gone, and a tus client told its
 * offset (the whole length) would take the upload as finished. GET still says why.
 */
export const uploadFailed = (row: UploadRow) =>
  new AppError("UPLOAD_FAILED", "the upload failed; start a new one", { offset: row.offset, failure: row.failure });

/** The owner's upload while it can still be read: 410 once expired. */
export async function liveUpload(deps: Deps, userId: string, id: string): Promise<UploadRow> {
  const row = await ownUpload(deps.db, userId, id);
  if (isExpired(row, deps.clock.now())) throw expired(row);
  return row;
}

/**
 * Runs `fn` holding the upload's lease (one writer at a time, on any node). A second
 * writer is 409 with Retry-After: tus clients retry a 409 after asking for the offset.
 */
export async function withUploadLease<T>(deps: Deps, id: string, fn: () => Promise<T>): Promise<T> {
  const key = `upload-lease:${id}`;
  const token = await deps.kv.acquireLease(key, LEASE_MS);
  if (!token) throw new AppError("CONFLICT", "another request is writing to this upload; retry", { busy: true }, { "retry-after": "1" });
  const renew = setInterval(() => void deps.kv.renewLease(key, token, LEASE_MS).catch(() => {}), LEASE_MS / 3);
  try {
    return await fn();
  } finally {
    clearInterval(renew);
    await deps.kv.releaseLease(key, token).catch(() => {});
  }
}

/** The bytes of a body sent without a length, read and dropped: at most `most` + 1 of them. */
async function sizeOf(body: ReadableStream<Uint8Array> | null, most: number): Promise<number> {
  let size = 0;
  if (body) {
    for await (const chunk of body) {
      size += chunk.length;
      if (size > most) break;
    }
  }
  return size;
}

export interface Appended {
  row: UploadRow;
  /** What the upload made, when this request finished it. */
  resource?: Resource;
  /** The request was the finishing PATCH sent again: nothing of its body was kept. */
  replayed?: boolean;
}

/**
 * A PATCH: the body (at most what is left of Upload-Length) stored from `offset`, which
 * must be the upload's offset now (409 with meta.offset otherwise). The last byte hands
 * the file to its kind's pipeline before this answers.
 */
export async function appendToUpload(
  deps: KindDeps,
  userId: string,
  id: string,
  p: { offset: number; body: ReadableStream<Uint8Array> | null; declared?: number; checksum?: Checksum },
): Promise<Appended> {
  const first = await liveUpload(deps, userId, id);
  // The offset in a header too, as tus clients read it (and in meta, as every error's details).
  const conflict = (row: UploadRow) =>
    new AppError("CONFLICT", `Upload-Offset must be the upload's offset, ${row.offset}`, { offset: row.offset }, { "upload-offset": String(row.offset) });
  if (first.status !== "uploading") {
    // The last PATCH sent again because its answer was lost: it ends where the file ends
    // (or is empty at the end). Its bytes are in and made what they made: answered as it
    // was, its body not stored again.
    if (first.status === "complete" && p.offset <= first.length) {
      const size = p.declared ?? (await sizeOf(p.body, first.length - p.offset));
      if (p.offset + size === first.length) return { row: first, replayed: true, ...(first.resource && { resource: first.resource as Resource }) };
    }
    if (first.status === "failed") throw uploadFailed(first);
    throw conflict(first);
  }
  if (p.offset !== first.offset) throw conflict(first);
  if (p.declared !== undefined && p.declared > first.length - first.offset) {
    throw new AppError("FILE_TOO_LARGE", `the body goes past Upload-Length: at most ${first.length - first.offset} more bytes`, {
      limit: first.length - first.offset,
    });
  }
  return withUploadLease(deps, id, async () => {
    // Read again under the lease: a PATCH that held it may have moved the offset.
    const row = await liveUpload(deps, userId, id);
    if (row.status !== "uploading" || row.offset !== p.offset) throw conflict(row);
    const got = await receive(deps, row, p.body, row.length - row.offset, p.checksum);
    const now = deps.clock.now();
    const [saved] = await deps.db
      .update(uploads)
      .set({ ...got.progress, updatedAt: now })
      .where(and(eq(uploads.id, id), eq(uploads.offset, row.offset), eq(uploads.status, "uploading")))
      .returning();
    if (!saved) throw conflict(await ownUpload(deps.db, userId, id));
    if (got.cut !== undefined) throw got.cut;
    if (saved.offset < saved.length) return { row: saved };
    const resource = await completeUpload(deps, saved);
    return { row: { ...saved, status: "complete" as const, resourceId: resource.id, resource }, resource };
  });
}

/** A PATCH's body as the route read it from the request. */
export type AppendInput = Parameters<typeof appendToUpload>[3];

/**
 * A tus creation: the upload made, then (creation-with-upload) the first bytes taken from
 * offset 0. The upload exists whatever became of those bytes, so the client learns where
 * it is and from which offset to go on; a file its pipeline refused (all of it came with
 * the creation) is that refusal. `first` is read only once the upload exists, so a bad
 * checksum header is one more way the first bytes can fail, as a mismatched checksum is.
 */
export async function beginUpload(
  deps: KindDeps,
  userId: string,
  length: number,
  metadata: Record<string, string>,
  first?: () => Omit<AppendInput, "offset">,
): Promise<Appended> {
  const row = await createUpload(deps, userId, length, metadata);
  if (!first) return { row };
  try {
    return await appendToUpload(deps, userId, row.id, { offset: 0, ...first() });
  } catch (e) {
    const now = await liveUpload(deps, userId, row.id);
    if (now.status === "failed") throw e;
    return { row: now };
  }
}

/**
 * DELETE: an upload still arriving (or expired, or failed) is removed with its bytes and
 * its held storage given back. One that completed made a resource, which is deleted
 * through its own route: 409.
 */
export async function terminateUpload(deps: Deps, userId: string, id: string): Promise<void> {
  await ownUpload(deps.db, userId, id);
  await withUploadLease(deps, id, async () => {
    const row = await ownUpload(deps.db, userId, id);
    if (row.status === "complete" || row.status === "processing") {
      throw new AppError("CONFLICT", "the upload is finished; delete what it made through its own route", { status: row.status, resourceId: row.resourceId });
    }
    await deps.db.transaction(async (tx) => {
      const [gone] = await tx
        .delete(uploads)
        .where(and(eq(uploads.id, id), eq(uploads.ownerId, userId)))
        .returning();
      if (gone && gone.reserved > 0) await release(tx, userId, heldNeed(gone.kind, gone.reserved));
    });
    await discard(deps, row);
  });
}

/** GET /v1/uploads/{id}: where the upload is, and what it made once it has. */
export function toState(row: UploadRow): UploadState {
  return {
    id: row.id,
    status: row.status === "expired" ? "failed" : row.status,
    kind: row.kind,
    offset: row.offset,
    length: row.length,
    filename: row.metadata.filename ?? row.metadata.name ?? "",
    expiresAt: iso(row.expiresAt),
    createdAt: iso(row.createdAt),
    resource: row.resource ? (row.resource as UploadState["resource"]) : row.resourceId ? { id: row.resourceId, type: row.kind } : null,
    ...(row.failure && { failure: row.failure }),
  };
}
