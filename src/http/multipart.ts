// Streaming multipart/form-data for upload routes, which are declared with
// `parse: "none"` so Elysia never buffers their body. The body is read as it arrives and
// reading stops the moment the file goes over its limit, whatever Content-Length said
// (or when the client sent none, chunked): a 51 MB body is never read past ~50 MB. What
// an upload holds in memory is counted against the node's budget, and the whole body has
// a deadline.
import {
  MaxFileSizeExceededError,
  MaxHeaderSizeExceededError,
  MaxPartsExceededError,
  MaxTotalSizeExceededError,
  MultipartParseError,
  getMultipartBoundary,
  parseMultipartStream,
} from "@remix-run/multipart-parser";
import type { Budget } from "../infra/budget.ts";
import type { BufferPool } from "../infra/buffer-pool.ts";
import { BodyDeadlineError, BodyOverflowError, bufferBody, type BufferedBody } from "./body-buffer.ts";
import type { Deps } from "../core/deps.ts";
import { AppError, validationError } from "../core/errors.ts";
import { MULTIPART_OVERHEAD } from "../core/streamed-upload.ts";
import { notUtf8Field, stripUnsafeChars } from "../core/text.ts";

const MAX_TEXT_FIELD = 8 * 1024;
const MAX_PARTS = 16;

interface UploadedFile {
  /** The client's file name, path stripped ("" when none was sent). */
  filename: string;
  bytes: Uint8Array;
}

export interface Upload {
  file?: UploadedFile;
  /** Text fields, by name (the last value of a repeated field wins). */
  fields: Record<string, string>;
}

const tooLarge = (limit: number) => new AppError("FILE_TOO_LARGE", `the file is larger than ${limit} bytes`, { limit });

/**
 * "C:\\fakepath\\a.png" -> "a.png": only the last path segment of what the client sent, at
 * most 255 characters (counted by code point, so an emoji is never cut in half), without
 * the control and bidi characters a JSON name may not hold: stripped, not refused, since
 * an upload should not fail for its name.
 */
const baseName = (name: string) =>
  Array.from(stripUnsafeChars(name.split(/[\\/]/).pop()!))
    .slice(0, 255)
    .join("");

export interface UploadLimits {
  fileField: string;
  maxFileBytes: number;
  /** The node's budget of upload bytes held in memory: reserved before the body is read. */
  memory: Budget;
  /** Where the body's buffer comes from, and goes back to once `use` is done. */
  buffers: BufferPool;
  /** The whole body must have arrived by then, however steadily it trickles (408). */
  deadlineMs: number;
}

/** The limits of a form with one file field named "file": the node's budgets and upload deadline, the given size. */
export const uploadLimits = (deps: Pick<Deps, "budgets" | "config">, maxFileBytes: number): UploadLimits => ({
  fileField: "file",
  maxFileBytes,
  memory: deps.budgets.uploadMemory,
  buffers: deps.budgets.uploadBuffers,
  deadlineMs: deps.config.UPLOAD_BODY_TIMEOUT_S * 1000,
});

/**
 * Reads one file field (held in memory up to `maxFileBytes`: image pipelines need its
 * bytes) and the small text fields, then hands them to `use`; the memory they hold is
 * counted against the node's budget until `use` is done. 413 FILE_TOO_LARGE over the
 * limit, 400 BAD_REQUEST for a body that is not well-formed multipart/form-data, 408
 * REQUEST_TIMEOUT past the deadline, 503 when the node's upload memory stays spent.
 */
export async function withUpload<T>(request: Request, opts: UploadLimits, use: (upload: Upload) => Promise<T>): Promise<T> {
  const declared = Number(request.headers.get("content-length") ?? NaN);
  const maxBody = opts.maxFileBytes + MULTIPART_OVERHEAD;
  if (declared > maxBody) {
    await request.body?.cancel().catch(() => {});
    throw tooLarge(opts.maxFileBytes);
  }
  const boundary = getMultipartBoundary(request.headers.get("content-type") ?? "");
  if (!/^multipart\/form-data\s*;/i.test(request.headers.get("content-type") ?? "") || !boundary || !request.body) {
    await request.body?.cancel().catch(() => {});
    throw new AppError("BAD_REQUEST", "the body must be multipart/form-data");
  }
  // The body is held once (body-buffer.ts). A chunked body (no Content-Length) may grow
  // to the limit: it reserves the limit.
  const capacity = Number.isFinite(declared) ? declared : maxBody;
  let release: () => void;
  try {
    release = await opts.memory.acquire(capacity);
  } catch (e) {
    await request.body.cancel().catch(() => {});
    throw e;
  }
  const body = bufferBody(request.body, capacity, opts.deadlineMs, opts.buffers);
  try {
    return await use(await readParts(request, body, boundary, opts, maxBody));
  } finally {
    body.release();
    release();
  }
}

/** A text part's value; its decoder is strict, so bytes that are not UTF-8 throw. */
function fieldText(part: { name?: string; text: string }): string {
  try {
    return part.text;
  } catch {
    throw notUtf8Field(part.name ?? "");
  }
}

async function readParts(request: Request, body: BufferedBody, boundary: string, opts: UploadLimits, maxBody: number): Promise<Upload> {
  const out: Upload = { fields: {} };
  try {
    const parts = parseMultipartStream(body.stream, { boundary, maxFileSize: opts.maxFileBytes, maxTotalSize: maxBody, maxParts: MAX_PARTS });
    for await (const part of parts) {
      if (!part.name) continue;
      if (part.name === opts.fileField && part.isFile) {
        if (out.file) throw validationError(`body.${opts.fileField}`, "send exactly one file");
        out.file = { filename: baseName(part.filename ?? ""), bytes: body.viewOf(part.content, part.size) ?? part.bytes };
      } else if (!part.isFile) {
        if (part.size > MAX_TEXT_FIELD) throw validationError(`body.${part.name}`, `a field may hold at most ${MAX_TEXT_FIELD} bytes`);
        out.fields[part.name] = fieldText(part);
      }
    }
    return out;
  } catch (e) {
    if (e instanceof AppError) throw e;
    // A client that hung up is not our failure: the core logs it at info.
    if (request.signal.aborted) throw new AppError("BAD_REQUEST", "the client closed the connection during the upload", { aborted: true });
    if (e instanceof BodyDeadlineError) {
      throw new AppError(
        "REQUEST_TIMEOUT",
        `the upload did not arrive within ${opts.deadlineMs / 1000} s`,
        { limitSeconds: opts.deadlineMs / 1000 },
        { connection: "close" },
      );
    }
    if (e instanceof MaxFileSizeExceededError || e instanceof MaxTotalSizeExceededError || e instanceof BodyOverflowError) throw tooLarge(opts.maxFileBytes);
    if (e instanceof MaxPartsExceededError || e instanceof MaxHeaderSizeExceededError)
      throw new AppError("BAD_REQUEST", "too many or too large multipart parts");
    if (e instanceof MultipartParseError || e instanceof TypeError) throw new AppError("BAD_REQUEST", "the multipart body could not be parsed");
    throw e;
  } finally {
    // Stops the deadline and whatever the client is still sending.
    body.stop();
  }
}
