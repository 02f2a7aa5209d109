// Streaming multipart/form-data for upload routes, which are declared with
// `parse: "none"` so Elysia never buffers their body. The body is read as it arrives and
// reading stops the moment the file goes over its limit, whatever Content-Length said
// (or when the client sent none, chunked): a 51 MB body is never read past ~50 MB.
import {
  MaxFileSizeExceededError,
  MaxHeaderSizeExceededError,
  MaxPartsExceededError,
  MaxTotalSizeExceededError,
  MultipartParseError,
  parseMultipartRequest,
} from "@remix-run/multipart-parser";
import { AppError, validationError } from "./errors.ts";

/** Room for the boundaries, part headers and small text fields around the file. */
export const MULTIPART_OVERHEAD = 64 * 1024;
const MAX_TEXT_FIELD = 8 * 1024;
const MAX_PARTS = 16;

export interface UploadedFile {
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
 * most 255 characters (counted by code point, so an emoji is never cut in half).
 */
const baseName = (name: string) => Array.from(name.split(/[\\/]/).pop()!.replace(/[\u0000-\u001f\u007f]/g, "")).slice(0, 255).join("");

/**
 * Reads one file field (held in memory up to `maxFileBytes`: image pipelines need its
 * bytes) and the small text fields. 413 FILE_TOO_LARGE over the limit, 400 BAD_REQUEST
 * for a body that is not well-formed multipart/form-data.
 */
export async function readUpload(request: Request, opts: { fileField: string; maxFileBytes: number }): Promise<Upload> {
  const declared = Number(request.headers.get("content-length") ?? NaN);
  if (declared > opts.maxFileBytes + MULTIPART_OVERHEAD) {
    await request.body?.cancel().catch(() => {});
    throw tooLarge(opts.maxFileBytes);
  }
  if (!/^multipart\/form-data\s*;/i.test(request.headers.get("content-type") ?? "")) {
    await request.body?.cancel().catch(() => {});
    throw new AppError("BAD_REQUEST", "the body must be multipart/form-data");
  }
  const out: Upload = { fields: {} };
  try {
    const parts = parseMultipartRequest(request, {
      maxFileSize: opts.maxFileBytes,
      maxTotalSize: opts.maxFileBytes + MULTIPART_OVERHEAD,
      maxParts: MAX_PARTS,
    });
    for await (const part of parts) {
      if (!part.name) continue;
      if (part.name === opts.fileField && part.isFile) {
        if (out.file) throw validationError(`body.${opts.fileField}`, "send exactly one file");
        out.file = { filename: baseName(part.filename ?? ""), bytes: part.bytes };
      } else if (!part.isFile) {
        if (part.size > MAX_TEXT_FIELD) throw validationError(`body.${part.name}`, `a field may hold at most ${MAX_TEXT_FIELD} bytes`);
        out.fields[part.name] = part.text;
      }
    }
  } catch (e) {
    // Stop reading whatever the client is still sending.
    await request.body?.cancel().catch(() => {});
    if (e instanceof AppError) throw e;
    if (e instanceof MaxFileSizeExceededError || e instanceof MaxTotalSizeExceededError) throw tooLarge(opts.maxFileBytes);
    if (e instanceof MaxPartsExceededError || e instanceof MaxHeaderSizeExceededError) throw new AppError("BAD_REQUEST", "too many or too large multipart parts");
    if (e instanceof MultipartParseError || e instanceof TypeError) throw new AppError("BAD_REQUEST", "the multipart body could not be parsed");
    throw e;
  }
  return out;
}
