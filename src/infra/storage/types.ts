// Object storage: a folder in DATA_DIR/objects, or an S3-compatible bucket.
export type Body = Uint8Array | Blob | ReadableStream<Uint8Array>;

interface ObjectInfo {
  key: string;
  size: number;
  lastModified?: Date;
}

/** A multipart upload begun and neither completed nor aborted. */
export interface PendingUpload {
  key: string;
  uploadId: string;
  initiated: Date;
}

export interface Storage {
  readonly kind: "fs" | "s3";
  /** Stores bytes or a stream under `key`; readers see the whole object or nothing. */
  put(key: string, body: Body, opts?: { contentType?: string }): Promise<{ size: number }>;
  /**
   * The whole object in memory (for small objects only); null when absent. Any other
   * failure (network, permissions) throws.
   */
  read(key: string): Promise<Uint8Array | null>;
  /** The whole object, or a range `[start, end]` (inclusive), as a stream; null when absent. */
  get(key: string, range?: { start: number; end: number }): Promise<ReadableStream<Uint8Array> | null>;
  /**
   * Embedded storage only: the object as a Blob backed by its file, which a Response sends
   * straight from disk (sendfile) without reading it into memory; its size is the file's
   * now. Null when absent. A store of remote objects has no such method.
   */
  file?(key: string): Blob | null;
  head(key: string): Promise<ObjectInfo | null>;
  /** Idempotent: deleting an absent key is not an error. */
  delete(key: string): Promise<void>;
  list(prefix: string): AsyncIterable<ObjectInfo>;
  /**
   * S3 only: multipart uploads under `prefix` neither completed nor aborted (a process
   * killed mid-upload leaves one; its parts are stored, and billed, out of every listing
   * of objects). The folder store writes no parts and has no such method.
   */
  listUploads?(prefix: string): AsyncIterable<PendingUpload>;
  /** S3 only: aborts a multipart upload, deleting its parts; one already gone is not an error. */
  abortUpload?(key: string, uploadId: string): Promise<void>;
  /**
   * S3 only: the steps of a multipart upload, for a client's resumable upload whose parts
   * arrive over several requests (and nodes): begin one (its upload id), store part
   * `partNumber` (1-based; every part but the last at least 5 MiB) and answer its ETag,
   * complete it from the parts listed. abortUpload gives it up.
   */
  createMultipart?(key: string, contentType?: string): Promise<string>;
  uploadPart?(key: string, uploadId: string, partNumber: number, bytes: Uint8Array): Promise<string>;
  completeMultipart?(key: string, uploadId: string, parts: readonly { partNumber: number; etag: string }[]): Promise<void>;
  /**
   * Embedded storage only: the object opened for writing at `offset` (what lay past it is
   * cut off first, so a write a crash cut short is overwritten), made if absent. What was
   * written is readable once `close` resolves.
   */
  openAt?(key: string, offset: number): Promise<AppendWriter>;
  /**
   * Moves an object to another key without its bytes passing through this process (a
   * rename on the folder store, a server-side copy and a delete on S3); false when the
   * store cannot (S3 copies at most 5 GB at once), and the caller copies it itself.
   */
  move?(from: string, to: string): Promise<boolean>;
  /**
   * Embedded storage only, and synchronous: every object as it is now, in a folder of the
   * store's own that later writes and deletes do not change (src/wiring/cli/backup.ts).
   */
  snapshot?(): ObjectSnapshot;
  ping(): Promise<void>;
}

interface ObjectSnapshot {
  /** A folder laid out as the store: one file per key. */
  dir: string;
  objects: number;
  /** Removes the folder. */
  remove(): Promise<void>;
}

/** Writes chunks one after the other from where it was opened. */
interface AppendWriter {
  write(chunk: Uint8Array): Promise<void>;
  close(): Promise<void>;
}

/** Keys are relative, slash-separated, from a small alphabet: nothing can escape the root. */
const KEY = /^[A-Za-z0-9_-][A-Za-z0-9._-]*(\/[A-Za-z0-9_-][A-Za-z0-9._-]*)*$/;

/**
 * The object store is away: an operation on it failed because the store could not be
 * reached (src/infra/storage/outages.ts). Every operation of a store made by createStorage
 * throws this rather than its client's own error, so any route answers it as the outage it
 * is (503 with Retry-After, src/http/core.ts), wherever it met it.
 */
export class StorageUnavailableError extends Error {
  override name = "StorageUnavailableError";
  constructor(
    readonly code: string,
    options?: { cause?: unknown },
  ) {
    super(`the object store is unavailable (${code})`, options);
  }
}

/**
 * The store did not answer at all (refused, reset or timed-out connection: down or
 * restarting), as Bun's S3 client and fetch say it in `code`. Unlike a failure the store
 * answered with, this is an outage the client should wait out (src/core/errors.ts).
 */
export function storeUnreachable(err: unknown): boolean {
  if (err instanceof StorageUnavailableError) return true;
  const code = (err as { code?: unknown })?.code;
  return typeof code === "string" && /^(Connection(Refused|Closed|Reset|TimedOut)|ECONNREFUSED|ECONNRESET|ETIMEDOUT|EPIPE|UND_ERR_SOCKET)$/.test(code);
}

export function assertKey(key: string): string {
  if (key.length > 512 || !KEY.test(key) || key.split("/").some((s) => s === "." || s === ".." || s.includes(".."))) {
    throw new Error(`invalid storage key ${JSON.stringify(key.slice(0, 80))}`);
  }
  return key;
}

export function assertPrefix(prefix: string): string {
  if (prefix === "") return prefix;
  assertKey(prefix.endsWith("/") ? prefix.slice(0, -1) : prefix);
  return prefix;
}
