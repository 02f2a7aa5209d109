// Every request body is bounded before it is held: read as it arrives, counted, and
// refused the moment it passes its route's limit. The refusal is 413 FILE_TOO_LARGE with
// `Connection: close`: past a short lingering read (LINGER_BYTES) the rest of the body is
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
//
// The credential comes first. A route the guard protects carries the guard's check among
// its hooks (beforeBody), and the body parser runs it before it reads a byte or reserves
// upload memory: a caller without a valid credential, the route's scope or room in its
// rate tier is answered at once and its body is never held. Routes nobody needs to be
// signed in for (sign-in, sign-up, client registration) take small bodies only
// (OPEN_JSON_MAX_BYTES), so anonymous traffic cannot hold much either.
import { AppError } from "../core/errors.ts";
import type { UploadBody } from "../core/streamed-upload.ts";
import { type FormReader, formReaderOf } from "./form-body.ts";

/** The largest body of a route that names no other limit: every JSON body of the API is a few fields. */
export const JSON_MAX_BYTES = 1024 * 1024;
/**
 * The largest body of a route that takes no credential before its body (sign-in, sign-up,
 * refresh, client registration, a batch of document ids): each is a few hundred bytes.
 */
export const OPEN_JSON_MAX_BYTES = 64 * 1024;

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
const LINGER_BYTES = 8 * 1024 * 1024;
/**
 * How long at most the lingering read waits for those bytes: a client that sends slowly
 * (a few bytes a second) would otherwise keep the refusal from being answered, and the
 * request open, for as long as it likes.
 */
const LINGER_MS = 2_000;

/** Reads and drops what `chunks` still hold, up to `bytes` or for LINGER_MS, whichever comes first. */
async function drop(chunks: AsyncIterator<Uint8Array>, bytes: number): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<"late">((resolve) => {
    timer = setTimeout(() => resolve("late"), LINGER_MS);
  });
  try {
    for (let n = 0; n < bytes; ) {
      const next = await Promise.race([chunks.next(), late]);
      if (next === "late" || next.done) return;
      n += next.value.length;
    }
  } catch {
    /* the client hung up: nothing more to read */
  } finally {
    clearTimeout(timer);
    // Not awaited: a read still pending (the slow client) settles when the connection closes.
    chunks.return?.().catch(() => {});
  }
}

/**
 * For a refusal made before the body was read (the credential, the upload it names): the
 * headers that close the connection, once the body has been read and dropped if it is small
 * enough to be (the lingering close above; a declared body larger than that, which could
 * not be read to its end anyway, is not read at all). Nothing when there is no unread body:
 * the connection then stays open.
 */
export async function lingeringClose(request: Request): Promise<Record<string, string>> {
  if (!request.body || request.bodyUsed || request.body.locked) return {};
  const declared = declaredLength(request);
  await drop(request.body.values({ preventCancel: true }), declared === undefined || declared <= LINGER_BYTES ? LINGER_BYTES : 0);
  return CLOSE;
}

/** The body's declared length, when the client declared one (undefined when chunked). */
export const declaredLength = (request: Request): number | undefined => {
  const n = Number(request.headers.get("content-length") ?? Number.NaN);
  return Number.isFinite(n) ? n : undefined;
};

/** A streamed upload's body as the rules that store it take it: plain values, no Request. */
export const uploadBodyOf = (request: Request): UploadBody => ({
  body: request.body,
  contentType: request.headers.get("content-type") ?? "",
  declaredLength: declaredLength(request),
  signal: request.signal,
});

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
 * little more has been read and dropped (LINGER_BYTES). `headers` go with the refusal.
 */
export async function readBody(request: Request, limit: number, headers: Record<string, string> = {}): Promise<Uint8Array> {
  const refusal = () => bodyTooLarge(limit, undefined, { ...headers, ...CLOSE });
  if (!request.body) return new Uint8Array(0);
  const chunks = request.body.values({ preventCancel: true });
  const declared = declaredLength(request);
  if (declared !== undefined && declared > limit) {
    // A body that would take long to read is not read at all: the client learns at once.
    await drop(chunks, declared <= limit + LINGER_BYTES ? declared : 0);
    throw refusal();
  }
  const kept: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const next = await chunks.next();
    if (next.done) break;
    size += next.value.length;
    if (size > limit) {
      await drop(chunks, LINGER_BYTES);
      throw refusal();
    }
    kept.push(next.value);
  }
  return kept.length === 1 ? kept[0]! : Buffer.concat(kept, size);
}

type RouteLike = { method: string; path: string; hooks?: { parse?: unknown; transform?: unknown } };

/** A route declared `parse: "none"`: it reads its own body. */
const readsOwnBody = (r: RouteLike) => Array.isArray(r.hooks?.parse) && r.hooks.parse.some((p: { fn?: unknown }) => p?.fn === "none");

const BEFORE_BODY = Symbol("checked before the body is read");

/** A check a route makes before its body is read (the guard's credential check); it throws its refusal. */
export type BeforeBody = (context: { request: Request; set: { headers: Record<string, unknown> } }) => Promise<void>;

/**
 * Marks a route's transform hook as one the body parser runs before it reads the body. The
 * hook runs again in its own step; it must remember its answer for the request.
 */
export const beforeBody = <F extends BeforeBody>(check: F): F => Object.assign(check, { [BEFORE_BODY]: true });

/** The transform hook a route marked with beforeBody, if it has one. */
function beforeBodyOf(transform: unknown): BeforeBody | undefined {
  if (!Array.isArray(transform)) return undefined;
  for (const hook of transform as { fn?: unknown }[]) {
    const fn = hook?.fn as (BeforeBody & { [BEFORE_BODY]?: true }) | undefined;
    if (typeof fn === "function" && fn[BEFORE_BODY]) return fn;
  }
  return undefined;
}

interface RouteBody {
  /** The most the parser reads, or "own" for a route that reads its own body. */
  limit: number | "own";
  form?: FormReader;
  check?: BeforeBody;
}

/**
 * What the body parser needs of each route: the limit it reads the body within (or "own"
 * for a route that reads its own), the form reader of a route that also takes
 * multipart/form-data (form-body.ts), and the check to make before a byte is read (the
 * guard's). Learned from the app's routes once they are all mounted (`learn`); until
 * then, and for a route it does not know, JSON_MAX_BYTES and nothing else.
 */
export function bodyLimits() {
  const routes = new Map<string, RouteBody>();
  const unknown: RouteBody = { limit: JSON_MAX_BYTES };
  return {
    learn(all: readonly RouteLike[]) {
      routes.clear();
      for (const r of all) {
        const key = `${r.method} ${r.path}`;
        const check = beforeBodyOf(r.hooks?.transform);
        const limit = readsOwnBody(r) ? "own" : (LARGE_BODY_ROUTES[key] ?? (check ? JSON_MAX_BYTES : OPEN_JSON_MAX_BYTES));
        routes.set(key, { limit, form: formReaderOf(r.hooks?.parse), check });
      }
    },
    of: (method: string, route: string): RouteBody => routes.get(`${method} ${route}`) ?? unknown,
  };
}
export type BodyLimits = ReturnType<typeof bodyLimits>;
