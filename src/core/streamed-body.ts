// A request body that is the file itself (no form around it), streamed to the object store
// as it arrives: hashed on the way, its first bytes kept for the caller to tell its type,
// its size held to a limit, the whole of it due by a deadline. Memory does not grow with
// the file. Any failure (too large, a client that hung up, a deadline, the store) leaves
// nothing under the key. The route reads the body itself (`parse: "none"`).
import type { Storage } from "../infra/storage/index.ts";
import { AppError, storageError } from "./errors.ts";
import type { UploadBody } from "./streamed-upload.ts";

export interface StoredBody {
  size: number;
  /** SHA-256 hex of every byte. */
  sha256: string;
  /** The first `headBytes` bytes (fewer when the body is shorter). */
  head: Uint8Array;
}

export interface BodyOptions {
  storage: Storage;
  key: string;
  maxBytes: number;
  deadlineMs: number;
  headBytes: number;
}

const tooLarge = (limit: number) => new AppError("FILE_TOO_LARGE", `the file is larger than ${limit} bytes`, { limit }, { connection: "close" });

/**
 * Streams `upload`'s body to `o.key`. 413 FILE_TOO_LARGE past `o.maxBytes` (the caller
 * refuses a declared length past it before calling), 408 REQUEST_TIMEOUT past the
 * deadline, 400 BAD_REQUEST for a body cut short of its Content-Length, STORAGE_ERROR when
 * the store fails.
 */
export async function storeBody(upload: UploadBody, o: BodyOptions): Promise<StoredBody> {
  const hasher = new Bun.CryptoHasher("sha256");
  const head: Uint8Array[] = [];
  let kept = 0;
  let size = 0;
  let failure: unknown;
  const reader = upload.body?.getReader();
  const fail = (e: unknown) => {
    failure ??= e;
    reader?.cancel().catch(() => {});
  };
  const timer = setTimeout(
    () =>
      fail(
        new AppError(
          "REQUEST_TIMEOUT",
          `the upload did not arrive within ${o.deadlineMs / 1000} s`,
          { limitSeconds: o.deadlineMs / 1000 },
          { connection: "close" },
        ),
      ),
    o.deadlineMs,
  );
  const bytes = new ReadableStream<Uint8Array>({
    async pull(c) {
      let next: { done: true; value?: undefined } | { done: false; value: Uint8Array } | undefined;
      try {
        next = reader ? await reader.read() : { done: true, value: undefined };
      } catch {
        fail(
          upload.signal.aborted
            ? new AppError("BAD_REQUEST", "the client closed the connection during the upload", { aborted: true })
            : new AppError("BAD_REQUEST", "the body could not be read"),
        );
      }
      // A failure (the deadline cancels the reader, whose read then ends) wins over an end.
      if (failure !== undefined) return c.error(failure);
      if (next!.done) return c.close();
      const chunk = next!.value;
      size += chunk.length;
      if (size > o.maxBytes) {
        fail(tooLarge(o.maxBytes));
        return c.error(failure);
      }
      hasher.update(chunk);
      if (kept < o.headBytes) {
        const part = chunk.slice(0, o.headBytes - kept);
        head.push(part);
        kept += part.length;
      }
      c.enqueue(chunk);
    },
    cancel() {
      reader?.cancel().catch(() => {});
    },
  });
  try {
    await o.storage.put(o.key, bytes, { contentType: "application/octet-stream" });
    if (failure !== undefined) throw failure;
    if (upload.declaredLength !== undefined && size !== upload.declaredLength) {
      throw new AppError("BAD_REQUEST", "the body ended before its Content-Length", { declared: upload.declaredLength, received: size });
    }
  } catch (e) {
    await o.storage.delete(o.key).catch(() => {});
    throw failure ?? (e instanceof AppError ? e : storageError(e, "the object store failed; try again"));
  } finally {
    clearTimeout(timer);
  }
  return { size, sha256: hasher.digest("hex"), head: Buffer.concat(head) };
}
