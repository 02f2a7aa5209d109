// Every request body is bounded before it is held: read as it arrives, counted, and
// refused the moment it passes its route's limit. The refusal is 413 FILE_TOO_LARGE with
// `Connection: close`, so the rest of the body is never read either (Bun would otherwise
// read and discard it for as long as the client sends, to keep the connection).
//
// Who reads a body:
// - the app's body parser (json-body.ts), for every route that does not read its own: up
//   to the route's limit (JSON_MAX_BYTES unless the route is one of LARGE_BODY_ROUTES),
//   whatever the body's type, so a body a route ignores is refused too, not drained;
// - a route declared `parse: "none"` reads its own, through readBody (signed callbacks,
//   OAuth forms) or a streaming reader with its own limit (uploads: multipart.ts,
//   streamed-upload.ts);
// - GET and HEAD carry no body (RFC 9110 section 9.3.1): one that comes with a body is
//   refused before anything else (refuseGetBody).
import { AppError } from "./errors.ts";

/** The largest body of a route that names no other limit: every JSON body of the API is a few fields. */
export const JSON_MAX_BYTES = 1024 * 1024;

/**
 * Routes whose body carries documents (SPEC 4.5: up to 5 MB of text on the largest plan,
 * more while its images are still inline as base64, which rewriting turns into links; a
 * sync batch carries up to 100 texts, and a client with large ones sends smaller batches).
 */
const LARGE_BODY_ROUTES: Record<string, number> = { "POST /v1/docs": 64 * 1024 * 1024, "POST /v1/kbs/:id/sync": 64 * 1024 * 1024 };

/** 413 FILE_TOO_LARGE naming the limit; the connection is closed after the answer (errorAnswer). */
export const bodyTooLarge = (limit: number, what = "the request body", headers: Record<string, string> = {}) =>
  new AppError("FILE_TOO_LARGE", limit === 0 ? `${what} must be empty` : `${what} may have at most ${limit} bytes here`, { limit }, headers);

/** The body's declared length, when the client declared one (undefined when chunked). */
export const declaredLength = (request: Request): number | undefined => {
  const n = Number(request.headers.get("content-length") ?? Number.NaN);
  return Number.isFinite(n) ? n : undefined;
};

/** Whether the request says it carries a body: a length over 0, or chunked. */
export const announcesBody = (request: Request): boolean => {
  const length = request.headers.get("content-length");
  return length !== null ? length !== "0" : request.headers.has("transfer-encoding");
};

/** 413 for a GET or HEAD that carries a body (with `headers`); undefined for any other request. */
export function refuseGetBody(request: Request, headers?: Record<string, string>): AppError | undefined {
  if ((request.method === "GET" || request.method === "HEAD") && announcesBody(request)) {
    return bodyTooLarge(0, `the body of a ${request.method} request`, headers);
  }
  return undefined;
}

/**
 * The whole body, read as it arrives; bodyTooLarge as soon as it passes `limit` bytes (or
 * its declared length does, before a byte is read), the rest left unread.
 */
export async function readBody(request: Request, limit: number): Promise<Uint8Array> {
  const declared = declaredLength(request);
  if (declared !== undefined && declared > limit) {
    await request.body?.cancel().catch(() => {});
    throw bodyTooLarge(limit);
  }
  if (!request.body) return new Uint8Array(0);
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of request.body) {
    size += chunk.length;
    if (size > limit) throw bodyTooLarge(limit); // leaving the loop cancels the stream
    chunks.push(chunk);
  }
  return chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size);
}

type RouteLike = { method: string; path: string; hooks?: { parse?: unknown } };

/** A route declared `parse: "none"`: it reads its own body. */
const readsOwnBody = (r: RouteLike) => Array.isArray(r.hooks?.parse) && r.hooks.parse.some((p: { fn?: unknown }) => p?.fn === "none");

/**
 * The limit the body parser reads each route's body within, or "own" for a route that reads
 * its own. Learned from the app's routes once they are all mounted (`learn`); until then,
 * and for a route it does not know, JSON_MAX_BYTES.
 */
export function bodyLimits() {
  const own = new Set<string>();
  return {
    learn(routes: readonly RouteLike[]) {
      own.clear();
      for (const r of routes) if (readsOwnBody(r)) own.add(`${r.method} ${r.path}`);
    },
    of(method: string, route: string): number | "own" {
      const key = `${method} ${route}`;
      return own.has(key) ? "own" : (LARGE_BODY_ROUTES[key] ?? JSON_MAX_BYTES);
    },
  };
}
export type BodyLimits = ReturnType<typeof bodyLimits>;
