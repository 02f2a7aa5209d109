// A KB file's bytes as an answer (raw by path, and by hash): its own Content-Type with the
// headers that keep it from acting on the API's origin (content-type.ts), its hash as
// X-Source-Hash and as a strong ETag (If-None-Match: 304), and one byte range at a time
// (206, 416 past the end), as the media edge answers. Never cached by a shared cache: it
// is served to its owner only.
import type { Deps } from "../../../core/deps.ts";
import { storageError } from "../../../core/errors.ts";
import { logStoreFailure } from "../../../infra/storage/outages.ts";
import { notModified, parseRange } from "../../edge/public.ts";
import { servedAs } from "./content-type.ts";
import type { KbFileRow } from "./table.ts";

/**
 * What of the request decides the answer: its method and its conditional and range headers.
 * `measured`: a HEAD reached the GET route, whose answer the router measures for its
 * Content-Length (Elysia reads the body of a GET answer to a HEAD and drops it): its body
 * is zeros of the file's length, never the file. A HEAD route's answer has no body.
 */
export interface Asked {
  method: string;
  measured?: boolean;
  range: string | null;
  ifRange: string | null;
  ifNoneMatch: string | null;
}

export const askedOf = (request: Request, route: "GET" | "HEAD" = "GET"): Asked => ({
  method: request.method,
  measured: route === "GET",
  range: request.headers.get("range"),
  ifRange: request.headers.get("if-range"),
  ifNoneMatch: request.headers.get("if-none-match"),
});

const ZEROS = new Uint8Array(64 * 1024);

/** `length` zero bytes, a chunk at a time from one buffer: what the router measures a HEAD by. */
const zeros = (length: number) => {
  let left = length;
  return new ReadableStream<Uint8Array>({
    pull(c) {
      if (left <= 0) return c.close();
      const n = Math.min(left, ZEROS.length);
      left -= n;
      c.enqueue(ZEROS.subarray(0, n));
    },
  });
};

/** The bytes start..end of a blob: its file where the store has files (sent from disk), else a stream. */
async function bytesOf(deps: Deps, blob: KbFileRow, start: number, end: number, whole: boolean): Promise<BodyInit> {
  try {
    const file = deps.storage.file?.(blob.objectKey);
    if (file !== undefined && file !== null && file.size === blob.sizeBytes) return whole ? file : file.slice(start, end + 1);
    if (file === undefined) {
      const stream = await deps.storage.get(blob.objectKey, whole ? undefined : { start, end });
      if (stream) return stream;
    }
    throw new Error("the object is missing or of another size than its record");
  } catch (err) {
    logStoreFailure(deps.log, "KB file read failed", { key: blob.objectKey }, err);
    throw storageError(err, "the file's bytes could not be read");
  }
}

/** The answer to `asked` for `blob`, named `filename` (Content-Disposition); `extra`: headers of the route (rate limits, the document's version). */
export async function serveBlob(deps: Deps, blob: KbFileRow, filename: string, asked: Asked, extra: Record<string, string> = {}): Promise<Response> {
  const etag = `"${blob.sha256}"`;
  const size = blob.sizeBytes;
  const headers: Record<string, string> = {
    ...extra,
    ...servedAs(blob.contentType, filename),
    "x-source-hash": blob.sha256,
    etag,
    "accept-ranges": "bytes",
    "cache-control": "no-store",
  };
  if (notModified(asked.ifNoneMatch, etag)) return new Response(null, { status: 304, headers });
  const range = parseRange(asked.range, asked.ifRange, size, etag);
  if (range === "unsatisfiable") return new Response(null, { status: 416, headers: { ...headers, "content-range": `bytes */${size}` } });
  const start = range ? range.start : 0;
  const end = range ? range.end : size - 1;
  const status = range ? 206 : 200;
  if (range) headers["content-range"] = `bytes ${start}-${end}/${size}`;
  headers["content-length"] = String(end - start + 1);
  if (asked.method === "HEAD") return new Response(asked.measured ? zeros(end - start + 1) : null, { status, headers });
  if (size === 0) return new Response(null, { status, headers });
  return new Response(await bytesOf(deps, blob, start, end, !range), { status, headers });
}
