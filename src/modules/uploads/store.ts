// Where a resumable upload's bytes go, PATCH after PATCH, with nothing kept on the node
// that took them: the next PATCH may land on any api node.
// - Folder store (embedded): one file, written at the upload's offset (what a crashed
//   write left past it is cut off first).
// - S3: a multipart upload. Bytes are gathered into parts of PART_BYTES (one buffer per
//   PATCH in flight, counted against the node's upload memory: memory is flat whatever
//   the file's size). S3 takes parts of at least 5 MiB but the last, so what a PATCH
//   leaves under that is written as the upload's tail object, and the next PATCH (on
//   whichever node) starts its first part with it.
// A PATCH's progress is returned, never written here: the service records it in the
// upload's row, and a PATCH that fails records none of it (its parts are overwritten by
// the next, its bytes in the file cut off).
import { logStoreFailure } from "../../infra/storage/outages.ts";
import type { Deps } from "../../core/deps.ts";
import { AppError, storageError } from "../../core/errors.ts";
import type { StoredPart, UploadRow } from "./table.ts";
import { type Checksum, checksumMismatch } from "./tus.ts";

/** S3's smallest part but the last. */
const MIN_PART_BYTES = 5 * 1024 * 1024;
/** One part per 8 MiB PATCH (tus-js-client's usual chunk): up to 80 GB in S3's 10,000 parts. */
const PART_BYTES = 8 * 1024 * 1024;

interface Progress {
  offset: number;
  parts: StoredPart[];
  tailBytes: number;
  multipartId: string | null;
}

/** The tail object of an S3 upload: the bytes past its last part. */
export const tailKey = (row: Pick<UploadRow, "dataKey">) => row.dataKey.replace(/\/data$/, "/tail");

const progressOf = (row: UploadRow): Progress => ({ offset: row.offset, parts: row.parts, tailBytes: row.tailBytes, multipartId: row.multipartId });

export interface Received {
  progress: Progress;
  /** Why the body stopped early (the client went away): what had arrived is kept. */
  cut?: unknown;
}

const storageFailed = (deps: Deps, err: unknown, id: string) => {
  if (err instanceof AppError) return err;
  logStoreFailure(deps.log, "resumable upload: the object store failed", { id }, err);
  return storageError(err, "the object store failed; try again");
};

/** Reads the body chunk by chunk, refusing more than `max` bytes; `hash` sees every byte. */
async function* chunksOf(body: ReadableStream<Uint8Array>, max: number, hash: Bun.CryptoHasher | undefined, state: { received: number }) {
  const reader = body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      if (state.received + value.length > max) {
        throw new AppError("FILE_TOO_LARGE", `the body goes past Upload-Length: at most ${max} more bytes`, { limit: max });
      }
      hash?.update(value);
      state.received += value.length;
      yield value;
    }
  } finally {
    reader.releaseLock();
  }
}

const verified = (hash: Bun.CryptoHasher | undefined, checksum: Checksum | undefined) =>
  !hash || !checksum || Buffer.from(hash.digest() as Uint8Array).equals(checksum.digest);

/**
 * Takes a PATCH body (at most `max` bytes) into the upload from its offset. A checksum
 * that does not match keeps nothing (460). A body cut short keeps what arrived, unless a
 * checksum was sent (it cannot be verified): the client resumes from the offset answered.
 */
export async function receive(deps: Deps, row: UploadRow, body: ReadableStream<Uint8Array> | null, max: number, checksum?: Checksum): Promise<Received> {
  // Every byte is in (the last PATCH sent again to finish it): nothing may be written, and
  // an S3 upload already assembled must not be begun again.
  if (row.offset === row.length) {
    if (body) for await (const _ of chunksOf(body, 0, undefined, { received: 0 }));
    return { progress: progressOf(row) };
  }
  const hash = checksum ? new Bun.CryptoHasher(checksum.algorithm) : undefined;
  const state = { received: 0 };
  const chunks = body ? chunksOf(body, max, hash, state) : (async function* () {})();
  return deps.storage.kind === "s3"
    ? receiveParts(deps, row, chunks, state, () => verified(hash, checksum), !!checksum)
    : receiveFile(deps, row, chunks, state, () => verified(hash, checksum), !!checksum);
}

type Chunks = AsyncGenerator<Uint8Array>;

async function receiveFile(deps: Deps, row: UploadRow, chunks: Chunks, state: { received: number }, ok: () => boolean, checked: boolean): Promise<Received> {
  const before = progressOf(row);
  let writer: Awaited<ReturnType<NonNullable<Deps["storage"]["openAt"]>>>;
  try {
    writer = await deps.storage.openAt!(row.dataKey, row.offset);
  } catch (e) {
    throw storageFailed(deps, e, row.id);
  }
  let cut: unknown;
  let written = 0;
  try {
    for await (const chunk of chunks) {
      await writer.write(chunk).catch((e) => Promise.reject(storageFailed(deps, e, row.id)));
      written += chunk.length;
    }
  } catch (e) {
    if (e instanceof AppError && e.code !== "BAD_REQUEST") throw e;
    cut = e;
  } finally {
    await writer.close().catch(() => {});
  }
  if (cut !== undefined) return { progress: checked ? before : { ...before, offset: row.offset + written }, cut };
  if (!ok()) throw checksumMismatch();
  return { progress: { ...before, offset: row.offset + state.received } };
}

async function receiveParts(deps: Deps, row: UploadRow, chunks: Chunks, state: { received: number }, ok: () => boolean, checked: boolean): Promise<Received> {
  const store = deps.storage;
  const before = progressOf(row);
  const release = await deps.budgets.uploadMemory.acquire(PART_BYTES);
  try {
    const buf = new Uint8Array(PART_BYTES);
    let fill = 0;
    const parts = [...row.parts];
    let multipartId = row.multipartId;
    if (row.tailBytes > 0) {
      const tail = await store.read(tailKey(row)).catch((e) => Promise.reject(storageFailed(deps, e, row.id)));
      if (!tail || tail.length < row.tailBytes) throw storageFailed(deps, new Error("the upload's tail object is missing or short"), row.id);
      buf.set(tail.subarray(0, row.tailBytes));
      fill = row.tailBytes;
    }
    const flush = async () => {
      try {
        multipartId ??= await store.createMultipart!(row.dataKey);
        const n = parts.length + 1;
        const etag = await store.uploadPart!(row.dataKey, multipartId, n, buf.subarray(0, fill));
        parts.push({ n, etag, size: fill });
        fill = 0;
      } catch (e) {
        throw storageFailed(deps, e, row.id);
      }
    };
    let cut: unknown;
    try {
      for await (const chunk of chunks) {
        for (let at = 0; at < chunk.length; ) {
          const take = Math.min(chunk.length - at, PART_BYTES - fill);
          buf.set(chunk.subarray(at, at + take), fill);
          fill += take;
          at += take;
          if (fill === PART_BYTES) await flush();
        }
      }
    } catch (e) {
      if (e instanceof AppError && e.code !== "BAD_REQUEST") throw e;
      cut = e;
    }
    if (cut !== undefined && checked) return { progress: before, cut };
    if (cut === undefined && !ok()) throw checksumMismatch();
    const offset = row.offset + state.received;
    // The last bytes of the file make the last part, whatever their size; a part's worth
    // is a part; less waits in the tail object for the next PATCH.
    const last = offset === row.length;
    if (fill > 0 && (last || fill >= MIN_PART_BYTES)) await flush();
    else if (last && parts.length === 0) await flush();
    let tailBytes = 0;
    if (fill > 0) {
      await store.put(tailKey(row), buf.subarray(0, fill)).catch((e) => Promise.reject(storageFailed(deps, e, row.id)));
      tailBytes = fill;
    }
    return { progress: { offset, parts, tailBytes, multipartId }, ...(cut !== undefined && { cut }) };
  } finally {
    release();
  }
}

/** S3: the parts made one object at the data key (the folder store's file is one already). */
export async function assemble(deps: Deps, row: UploadRow): Promise<void> {
  if (deps.storage.kind !== "s3" || !row.multipartId) return;
  try {
    await deps.storage.completeMultipart!(
      row.dataKey,
      row.multipartId,
      row.parts.map((p) => ({ partNumber: p.n, etag: p.etag })),
    );
  } catch (e) {
    throw storageFailed(deps, e, row.id);
  }
}

/** Every byte an upload stored: its parts (S3), its tail and its data object. Idempotent. */
export async function discard(deps: Deps, row: Pick<UploadRow, "id" | "dataKey" | "multipartId">): Promise<void> {
  const store = deps.storage;
  const steps = [store.delete(row.dataKey), store.delete(tailKey(row))];
  if (row.multipartId && store.abortUpload) steps.push(store.abortUpload(row.dataKey, row.multipartId));
  for (const r of await Promise.allSettled(steps)) {
    if (r.status === "rejected") deps.log.warn("resumable upload: a stored part could not be removed; the orphan sweep retries", { id: row.id, err: r.reason });
  }
}
