// Every request body is bounded before it is held: read as it arrives, counted, and
// refused the moment it passes its route's limit. The refusal is 413 FILE_TOO_LARGE with
// `Connection: close`: past a short lingering read (lingerBytes) the rest of the body is
// not read (Bun would otherwise read and discard it for as long as the client sends, to
// keep the connection).
//
// Who reads a body:
// - the app's body parser (json-body.ts), for every route that does not read its own: up
//   to the route's limit (JSON_MAX_BYTES unless the route is one of LARGE_BODY_ROUTES),
//   whatever the body's type, so a body a route ignores is refused too, not drained;
// - a route that also takes a form (`parse: formBody(read)`, form-body.ts) has a multipart
//   body read by its reader, through the upload reader with its own limit (multipart.ts);
// - a route declared `parse: "none"` reads its own, through readBody (signed callbacks,
//   OAuth forms) or a streaming reader with its own limit (uploads: multipart.ts,
//   streamed-upload.ts);
// - GET and HEAD carry no body (RFC 9110 section 9.3.1): one that comes with a body is
//   refused before anything else (refuseGetBody).
import { AppError } from "./errors.ts";
import { type FormReader, formReaderOf } from "./form-body.ts";

/** The largest body of a route that names no other limit: every JSON body of the API is a few fields. */
export const JSON_MAX_BYTES = 1024 * 1024;

/**
 * Routes whose body carries documents (up to 5 MB of text on the largest plan,
 * more while its images are still inline as base64, which rewriting turns into links; a
 * sync batch carries up to 100 texts, and a client with large ones sends smaller batches).
 */
export const DOCUMENT_BODY_MAX_BYTES = 64 * 1024 * 1024;
const LARGE_BODY_ROUTES: Record<string, number> = { "POST /v1/docs": DOCUMENT_BODY_MAX_BYTES, "POST /v1/kbs/:id/sync": DOCUMENT_BODY_MAX_BYTES };

/** 413 FILE_TOO_LARGE naming the limit, with `headers` (Connection: close where the body was being read). */
const bodyTooLarge = (limit: number, what = "the request body", headers: Record<string, string> = {}) =>
  new AppError("FILE_TOO_LARGE", limit === 0 ? `${what} must be empty` : `${what} may have at most ${limit} bytes here`, { limit }, headers);

const CLOSE = { connection: "close" };

/**
 * How much more of a refused body is read (and dropped) before the connection is closed.
 * A connection closed with unread data on it is reset, and a reset can destroy the answer
 * before the client reads it (RFC 9112 section 9.6 asks for a "lingering close" for this
 * reason): a client whose body was only somewhat too large has sent it all by then and
 * reads its 413; one that goes on sending is cut off.
 */
const lingerBytes = (limit: number) => Math.max(limit, 8 * 1024 * 1024);

/** Reads and drops what `chunks` still hold, up to `bytes`. */
async function drop(chunks: AsyncIterator<Uint8Array>, bytes: number): Promise<void> {
  try {
    for (let n = 0; n < bytes; ) {
      const next = await chunks.next();
      if (next.done) return;
      n += next.value.length;
    }
  } catch {
    /* the client hung up: nothing more to read */
  } finally {
    await chunks.return?.().catch(() => {});
  }
}

/**
 * For a refusal made before the body was read (the credential, the upload it names): a
 * little of the body is read and dropped (the lingering close above), and the headers
 * that close the connection are returned. Nothing when there is no unread body: the
 * connection then stays open.
 */
export async function lingeringClose(request: Request): Promise<Record<string, string>> {
  if (!request.body || request.bodyUsed || request.body.locked) return {};
  await drop(request.body.values({ preventCancel: true }), lingerBytes(0));
  return CLOSE;
}

/** The body's declared length, when the client declared one (undefined when chunked). */
export const declaredLength = (request: Request): number | undefined => {
  const n = Number(request.headers.get("content-length") ?? Number.NaN);
  return Number.isFinite(n) ? n : undefined;
};

/** Whether the request says it carries a body: a length over 0, or chunked. */
const announcesBody = (request: Request): boolean => {
  const length = request.headers.get("content-length");
  return length !== null ? length !== "0" : request.headers.has("transfer-encoding");
};

/**
 * 413 for a GET or HEAD that says it carries a body (RFC 9110 section 9.3.1: it has no
 * meaning there); undefined for any other request. Bun hands such a body to no handler
 * (request.body is null) and drops it as it arrives, without holding it; since nothing
 * here can read it, closing at once would reset the connection under the answer, so the
 * connection stays.
 */
export function refuseGetBody(request: Request, headers: Record<string, string> = {}): AppError | undefined {
  if ((request.method !== "GET" && request.method !== "HEAD") || !announcesBody(request)) return undefined;
  return bodyTooLarge(0, `the body of a ${request.method} request`, headers);
}

/**
 * The whole body, read as it arrives. Past `limit` bytes (or when its declared length is
 * past it, before a byte is kept) it throws bodyTooLarge, with Connection: close, once a
 * little more has been read and dropped (lingerBytes). `headers` go with the refusal.
 */
export async function readBody(request: Request, limit: number, headers: Record<string, string> = {}): Promise<Uint8Array> {
  const refusal = () => bodyTooLarge(limit, undefined, { ...headers, ...CLOSE });
  if (!request.body) return new Uint8Array(0);
  const chunks = request.body.values({ preventCancel: true });
  const declared = declaredLength(request);
  if (declared !== undefined && declared > limit) {
    // A body that would take long to read is not read at all: the client learns at once.
    await drop(chunks, declared <= limit + lingerBytes(limit) ? declared : 0);
    throw refusal();
  }
  const kept: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const next = await chunks.next();
    if (next.done) break;
    size += next.value.length;
    if (size > limit) {
      await drop(chunks, lingerBytes(limit));
      throw refusal();
    }
    kept.push(next.value);
  }
  return kept.length === 1 ? kept[0]! : Buffer.concat(kept, size);
}

type RouteLike = { method: string; path: string; hooks?: { parse?: unknown } };

/** A route declared `parse: "none"`: it reads its own body. */
const readsOwnBody = (r: RouteLike) => Array.isArray(r.hooks?.parse) && r.hooks.parse.some((p: { fn?: unknown }) => p?.fn === "none");

/**
 * The limit the body parser reads each route's body within, or "own" for a route that reads
 * its own, and the form reader of a route that also takes multipart/form-data (form-body.ts).
 * Learned from the app's routes once they are all mounted (`learn`); until then, and for a
 * route it does not know, JSON_MAX_BYTES and no form.
 */
export function bodyLimits() {
  const own = new Set<string>();
  const forms = new Map<string, FormReader>();
  return {
    learn(routes: readonly RouteLike[]) {
      own.clear();
      forms.clear();
      for (const r of routes) {
        if (readsOwnBody(r)) own.add(`${r.method} ${r.path}`);
        const form = formReaderOf(r.hooks?.parse);
        if (form) forms.set(`${r.method} ${r.path}`, form);
      }
    },
    of(method: string, route: string): number | "own" {
      const key = `${method} ${route}`;
      return own.has(key) ? "own" : (LARGE_BODY_ROUTES[key] ?? JSON_MAX_BYTES);
    },
    formOf: (method: string, route: string): FormReader | undefined => forms.get(`${method} ${route}`),
  };
}
export type BodyLimits = ReturnType<typeof bodyLimits>;
