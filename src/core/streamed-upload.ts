// A large upload form (video, audio), streamed: the file part goes to the object store as
// it arrives (a file on embedded storage, an S3 multipart upload otherwise), so memory does
// not grow with the file. The format is decided from the first bytes before the rest is
// taken, and the size limit is enforced while streaming; a tap may read the bytes on their
// way (audio metadata) and refuse them. Any failure (bad type, too large, a refusal of the
// tap, a client that hung up, a deadline) removes what was written. The route reads the
// body itself (`parse: "none"`); the server's own body cap is the largest plan's limit.
import { Busboy } from "@fastify/busboy";
import { Readable } from "node:stream";
import type { Storage } from "../infra/storage/index.ts";
import { AppError, storageError, validationError } from "./errors.ts";
import { badFieldText, stripUnsafeChars } from "./text.ts";

/** Room for the boundaries, part headers and the small text fields around the file. */
export const MULTIPART_OVERHEAD = 64 * 1024;
const MAX_TEXT_FIELD = 8 * 1024;
const STREAM_BUFFER = 1024 * 1024;

export interface StreamedFile<F extends string> {
  filename: string;
  size: number;
  /** What the first bytes said the file is. */
  format: F;
  /** SHA-256 (hex) of the file's bytes, when asked for (`hash`). */
  sha256?: string;
  /** Text fields by name (the last value of a repeated field wins). */
  fields: Record<string, string>;
}

/**
 * Reads the file's bytes in order as they go to storage. `write` may make the upload wait
 * (backpressure) and may throw an AppError to refuse the file: the upload stops there.
 * Exactly one of `close` (every byte was written) or `abort` is called.
 */
export interface ByteTap {
  write(chunk: Uint8Array): void | Promise<void>;
  close(): void;
  abort(): void;
}

export interface StreamOptions<F extends string> {
  storage: Storage;
  /** Where the file's bytes go. */
  key: string;
  maxFileBytes: number;
  deadlineMs: number;
  /** How many leading bytes `sniff` wants (fewer only when the file is shorter). */
  sniffBytes: number;
  /** The format the first bytes show, or null: 422 INVALID_FILE_TYPE with `unsupported` as its message. */
  sniff(first: Uint8Array): F | null;
  unsupported: string;
  tap?(format: F): ByteTap;
  /** Hash the bytes as they pass (for the compliance check; skipped where there is none). */
  hash?: boolean;
}

/**
 * An upload's body as the route hands it over: its bytes, their Content-Type, the length
 * the client declared (none when chunked), and the request's abort signal. Plain values:
 * the rules that store an upload take no HTTP type.
 */
export interface UploadBody {
  body: ReadableStream<Uint8Array> | null;
  contentType: string;
  declaredLength?: number;
  signal: AbortSignal;
}

const tooLarge = (limit: number) => new AppError("FILE_TOO_LARGE", `the file is larger than ${limit} bytes`, { limit });

/**
 * 413 FILE_TOO_LARGE for a file over the plan's size for its kind. Asked before the plan's
 * room and counts: a file no plan room could take is too large, not a full storage (and
 * refusing it tells no one their storage is full).
 */
export function assertFileSize(bytes: number, limit: number): void {
  if (bytes > limit) throw tooLarge(limit);
}

/**
 * The least the file of a multipart body of the declared length holds: the body is the
 * file plus a little framing (1 when no length was declared).
 */
export const declaredFileBytes = (declaredBytes: number | undefined) => Math.max(1, (declaredBytes ?? 0) - MULTIPART_OVERHEAD);

/** The last path segment of a client's file name, at most 255 characters, without unsafe characters. */
export const baseName = (name: string) =>
  Array.from(stripUnsafeChars(name.split(/[\\/]/).pop() ?? ""))
    .slice(0, 255)
    .join("");

/**
 * Streams the `file` field of a multipart/form-data body to `key` and collects the text
 * fields. 400 for a body that is not multipart, 413 FILE_TOO_LARGE over the limit (also
 * when Content-Length says so, before a byte is read), 422 INVALID_FILE_TYPE for bytes that
 * are no supported container, 422 VALIDATION_ERROR without a file, 408 past the deadline.
 * On any failure nothing stays under `key`.
 */
export async function streamUpload<F extends string>(upload: UploadBody, o: StreamOptions<F>): Promise<StreamedFile<F>> {
  const bb = await openParser(upload, o);
  const reader = upload.body!.getReader();
  const latch = new FailureLatch(() => {
    reader.cancel().catch(() => {});
    bb.destroy();
  });
  const fields: Record<string, string> = {};
  let stored: Promise<Omit<StreamedFile<F>, "fields">> | undefined;

  bb.on("file", (name, file, filename) => {
    // The parser goes on with the chunk it was given when a field failed the upload: a file
    // starting there must not be stored (its stream would never end).
    if (name !== "file" || latch.failed) return void file.resume();
    if (stored) {
      file.resume();
      return latch.fail(validationError("body.file", "send exactly one file"));
    }
    // The file's reader (the object store's write) must end too, with an error, never as
    // if the file were complete.
    latch.also(() => file.destroy(new Error("upload abandoned")));
    // Past the limit busboy drops the rest of the file but ends its stream only when the
    // part ends, which a client sending without end would never let happen: refuse now.
    file.once("limit", () => latch.fail(tooLarge(o.maxFileBytes)));
    stored = storeFile(file, filename, o).catch((e) => {
      // The first reason wins: a store write that failed because the upload was abandoned
      // reports why it was.
      throw latch.reason ?? (e instanceof AppError ? e : storageError(e, "the object store failed; try again"));
    });
    stored.catch((e) => latch.fail(e));
  });
  bb.on("field", (name, value, _nameCut, valueCut) => {
    const bad = valueCut ? validationError(`body.${name}`, `a field may hold at most ${MAX_TEXT_FIELD} bytes`) : badFieldText(name, value);
    if (bad) latch.fail(bad);
    else fields[name] = value;
  });
  for (const limit of ["partsLimit", "filesLimit", "fieldsLimit"] as const) {
    bb.on(limit, () => latch.fail(new AppError("BAD_REQUEST", "too many multipart parts")));
  }
  bb.on("error", () => latch.fail(new AppError("BAD_REQUEST", "the multipart body could not be parsed")));
  const finished = new Promise<void>((resolve) => bb.on("finish", resolve));

  const pumped = pump(upload.signal, reader, bb, latch);
  const timer = setTimeout(() => latch.fail(deadlinePassed(o.deadlineMs)), o.deadlineMs);
  try {
    await Promise.race([Promise.all([pumped, finished]), latch.promise]);
    if (!stored) throw validationError("body.file", "a non-empty `file` field is required");
    const file = await Promise.race([stored, latch.promise]);
    return { ...file, fields };
  } catch (e) {
    latch.fail(e);
    // Every write has ended (or failed) before the key is removed, so nothing lands after.
    await stored?.catch(() => {});
    await o.storage.delete(o.key).catch(() => {});
    throw latch.reason ?? e;
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The parser for the upload's multipart body, after the checks that need no byte of it:
 * a declared length over the limit (413) and a body that is not multipart (400) are
 * refused with the body cancelled.
 */
async function openParser<F extends string>(upload: UploadBody, o: StreamOptions<F>): Promise<ReturnType<typeof Busboy>> {
  const type = upload.contentType;
  const declared = upload.declaredLength;
  const refuse = async (e: AppError): Promise<never> => {
    await upload.body?.cancel().catch(() => {});
    throw e;
  };
  if (declared !== undefined && declared > o.maxFileBytes + MULTIPART_OVERHEAD) return refuse(tooLarge(o.maxFileBytes));
  if (!/^multipart\/form-data\s*;/i.test(type) || !upload.body) return refuse(new AppError("BAD_REQUEST", "the body must be multipart/form-data"));
  try {
    return Busboy({
      headers: { "content-type": type },
      // Room for a few of the body's chunks on each side of the parser: with Node's default
      // 16 KB every chunk would stall the pump and the store's reader in turn.
      highWaterMark: STREAM_BUFFER,
      fileHwm: STREAM_BUFFER,
      limits: { files: 1, fields: 8, parts: 16, fieldSize: MAX_TEXT_FIELD, fileSize: o.maxFileBytes },
    });
  } catch {
    return refuse(new AppError("BAD_REQUEST", "the body must be multipart/form-data with a boundary"));
  }
}

/**
 * The first reason an upload failed, kept once: `promise` rejects with it (for races), and
 * what was registered to stop (the body's reader, the parser, the file's stream) stops.
 */
class FailureLatch {
  reason: unknown;
  failed = false;
  readonly promise: Promise<never>;
  private reject!: (e: unknown) => void;
  private readonly stops: (() => void)[];

  constructor(stop: () => void) {
    this.stops = [stop];
    this.promise = new Promise<never>((_, reject) => {
      this.reject = reject;
    });
    this.promise.catch(() => {});
  }

  also(stop: () => void): void {
    this.stops.push(stop);
  }

  fail(e: unknown): void {
    if (this.failed) return;
    this.failed = true;
    this.reason = e;
    this.reject(e);
    for (const stop of this.stops) stop();
  }
}

/** Feeds the body to the parser, waiting for it to drain; a read that fails fails the upload. */
function pump(aborted: AbortSignal, reader: ReadableStreamDefaultReader<Uint8Array>, bb: ReturnType<typeof Busboy>, latch: FailureLatch): Promise<void> {
  return (async () => {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (latch.failed) return;
      if (!bb.write(value)) await new Promise((resolve) => bb.once("drain", resolve));
    }
    bb.end();
  })().catch((e) => {
    latch.fail(
      aborted.aborted
        ? new AppError("BAD_REQUEST", "the client closed the connection during the upload", { aborted: true })
        : e instanceof AppError
          ? e
          : new AppError("BAD_REQUEST", "the body could not be read"),
    );
  });
}

const deadlinePassed = (deadlineMs: number) =>
  new AppError("REQUEST_TIMEOUT", `the upload did not arrive within ${deadlineMs / 1000} s`, { limitSeconds: deadlineMs / 1000 }, { connection: "close" });

async function storeFile<F extends string>(file: Readable, filename: string | undefined, o: StreamOptions<F>): Promise<Omit<StreamedFile<F>, "fields">> {
  const chunks = file[Symbol.asyncIterator]() as AsyncIterator<Uint8Array>;
  const head: Uint8Array[] = [];
  let size = 0;
  while (size < o.sniffBytes) {
    const r = await chunks.next();
    if (r.done) break;
    head.push(r.value);
    size += r.value.length;
  }
  const first = Buffer.concat(head);
  const hasher = o.hash ? new Bun.CryptoHasher("sha256") : undefined;
  if (first.length === 0) {
    file.resume();
    throw validationError("body.file", "a non-empty `file` field is required");
  }
  const format = o.sniff(first);
  if (!format) {
    file.destroy();
    throw new AppError("INVALID_FILE_TYPE", o.unsupported);
  }
  const tap = o.tap?.(format);
  let tapDone = false;
  // What the tap refused with: the store's write may report it as its own error.
  let refusal: unknown;
  const feed = async (chunk: Uint8Array) => {
    try {
      await tap?.write(chunk);
    } catch (e) {
      refusal = e;
      throw e;
    }
  };
  const truncated = () => (file as Readable & { truncated?: boolean }).truncated === true;
  const body = new ReadableStream<Uint8Array>({
    async start(c) {
      await feed(first);
      hasher?.update(first);
      c.enqueue(first);
    },
    async pull(c) {
      const r = await chunks.next();
      if (r.done) {
        if (truncated()) c.error(tooLarge(o.maxFileBytes));
        else c.close();
        return;
      }
      size += r.value.length;
      await feed(r.value);
      hasher?.update(r.value);
      c.enqueue(r.value);
    },
    cancel() {
      file.destroy();
    },
  });
  try {
    await o.storage.put(o.key, body, { contentType: "application/octet-stream" });
    if (truncated()) throw tooLarge(o.maxFileBytes);
    if (refusal !== undefined) throw refusal;
    tap?.close();
    tapDone = true;
  } catch (e) {
    if (refusal !== undefined) throw refusal;
    if (truncated()) throw tooLarge(o.maxFileBytes);
    throw e;
  } finally {
    if (!tapDone) tap?.abort();
  }
  return { filename: baseName(filename ?? ""), size, format, ...(hasher && { sha256: hasher.digest("hex") }) };
}

/**
 * A file already in hand as a stream (a finished resumable upload, read back from the
 * store) through the same steps as a form's file: sniffed, tapped, hashed and written to
 * `o.key`. On any failure nothing stays under `o.key`.
 */
export async function storeStream<F extends string>(stream: ReadableStream<Uint8Array>, filename: string, o: StreamOptions<F>): Promise<StreamedFile<F>> {
  const file = Readable.fromWeb(stream as unknown as import("node:stream/web").ReadableStream<Uint8Array>, { highWaterMark: STREAM_BUFFER });
  try {
    return { ...(await storeFile(file, filename, o)), fields: {} };
  } catch (e) {
    file.destroy();
    await o.storage.delete(o.key).catch(() => {});
    throw e instanceof AppError ? e : storageError(e, "the object store failed; try again");
  }
}

/**
 * A file already in the store at `from` (a finished resumable upload) taken as `o.key`
 * without copying it where the store can move it: its first bytes sniffed (422 as for a
 * form's file), hashed when asked (one read of it), then moved. For a pipeline that needs
 * no tap; one that does reads it through storeStream. On any failure nothing is at `o.key`
 * and the file stays at `from`.
 */
export async function adoptStored<F extends string>(from: string, size: number, filename: string, o: Omit<StreamOptions<F>, "tap">): Promise<StreamedFile<F>> {
  const head = await o.storage.get(from, { start: 0, end: Math.max(0, Math.min(size, o.sniffBytes) - 1) });
  if (!head) throw new AppError("STORAGE_ERROR", "the file is missing from the object store");
  const format = o.sniff(new Uint8Array(await new Response(head).arrayBuffer()));
  if (!format) throw new AppError("INVALID_FILE_TYPE", o.unsupported);
  if (size > o.maxFileBytes) throw tooLarge(o.maxFileBytes);
  let sha256: string | undefined;
  if (o.hash) {
    const hasher = new Bun.CryptoHasher("sha256");
    const body = await o.storage.get(from);
    if (!body) throw new AppError("STORAGE_ERROR", "the file is missing from the object store");
    for await (const chunk of body) hasher.update(chunk);
    sha256 = hasher.digest("hex");
  }
  try {
    const moved = (await o.storage.move?.(from, o.key)) ?? false;
    if (!moved) {
      const body = await o.storage.get(from);
      if (!body) throw new AppError("STORAGE_ERROR", "the file is missing from the object store");
      await o.storage.put(o.key, body, { contentType: "application/octet-stream" });
    }
  } catch (e) {
    await o.storage.delete(o.key).catch(() => {});
    throw e instanceof AppError ? e : storageError(e, "the object store failed; try again");
  }
  return { filename: baseName(filename), size, format, ...(sha256 && { sha256 }), fields: {} };
}
