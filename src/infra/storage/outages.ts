// A store's operations, with an outage said one way. An S3 store that is down or
// restarting fails each call with its client's own error (Bun's S3 client and fetch name
// it in `code`), and a folder store on a full or failing disk with the system's; a route
// that met one where nobody expected it answered 500. Every operation of a store made here
// throws StorageUnavailableError instead, which every route answers 503 with Retry-After
// (src/http/core.ts). Any other failure (a missing key is not one: the stores answer null)
// passes unchanged: it may be the caller's own (a body stream refused mid-upload).
import type { Log } from "../log.ts";
import { type Storage, StorageUnavailableError, storeUnreachable } from "./types.ts";

/** A folder store's disk full, read-only or failing: the store cannot take writes until an operator acts. */
const DISK_DOWN = new Set(["ENOSPC", "EDQUOT", "EROFS", "EIO"]);

function outageOf(e: unknown): unknown {
  if (e instanceof StorageUnavailableError) return e;
  const code = (e as { code?: unknown })?.code;
  if (typeof code !== "string") return e;
  if (storeUnreachable(e) || DISK_DOWN.has(code)) return new StorageUnavailableError(code, { cause: e });
  return e;
}

const guard = async <T>(run: () => Promise<T>): Promise<T> => {
  try {
    return await run();
  } catch (e) {
    throw outageOf(e);
  }
};

async function* guardIterable<T>(items: () => AsyncIterable<T>): AsyncIterable<T> {
  try {
    yield* items();
  } catch (e) {
    throw outageOf(e);
  }
}

/** `store` with every failure that is an outage thrown as StorageUnavailableError. */
export function withOutages(store: Storage): Storage {
  const s = store;
  return {
    kind: s.kind,
    put: (key, body, opts) => guard(() => s.put(key, body, opts)),
    read: (key) => guard(() => s.read(key)),
    get: (key, range) => guard(() => s.get(key, range)),
    ...(s.file && { file: s.file.bind(s) }),
    head: (key) => guard(() => s.head(key)),
    delete: (key) => guard(() => s.delete(key)),
    list: (prefix) => guardIterable(() => s.list(prefix)),
    ping: () => guard(() => s.ping()),
    ...(s.listUploads && { listUploads: (prefix: string) => guardIterable(() => s.listUploads!(prefix)) }),
    ...(s.abortUpload && { abortUpload: (key: string, id: string) => guard(() => s.abortUpload!(key, id)) }),
    ...(s.createMultipart && { createMultipart: (key: string, type?: string) => guard(() => s.createMultipart!(key, type)) }),
    ...(s.uploadPart && { uploadPart: (key: string, id: string, n: number, bytes: Uint8Array) => guard(() => s.uploadPart!(key, id, n, bytes)) }),
    ...(s.completeMultipart && {
      completeMultipart: (key: string, id: string, parts: readonly { partNumber: number; etag: string }[]) => guard(() => s.completeMultipart!(key, id, parts)),
    }),
    ...(s.move && { move: (from: string, to: string) => guard(() => s.move!(from, to)) }),
    ...(s.snapshot && { snapshot: s.snapshot.bind(s) }),
    ...(s.openAt && {
      openAt: (key: string, offset: number) =>
        guard(async () => {
          const w = await s.openAt!(key, offset);
          return { write: (chunk: Uint8Array) => guard(() => w.write(chunk)), close: () => guard(() => w.close()) };
        }),
    }),
  };
}

/**
 * A store operation that failed, logged: an outage at warn without its stack (it is
 * expected, answered 503, and logged by every request that meets it), anything else at
 * error with the whole error.
 */
export function logStoreFailure(log: Log, msg: string, fields: Record<string, unknown>, err: unknown): void {
  if (err instanceof StorageUnavailableError) log.warn(msg, { ...fields, code: err.code });
  else log.error(msg, { ...fields, err });
}
