// The access line: one log line per request (docs/operators.md, "Logs"), at info, or at
// debug with ACCESS_LOG=debug, none with ACCESS_LOG=off.
//   {"t":…,"level":"info","msg":"request","method":"GET","route":"/v1/images/:id",
//    "status":200,"ms":1.8,"bytes":412,"requestId":"…","userId":"…","via":"api_key"}
// What it holds is chosen so that nothing secret can reach it: the route is the pattern a
// request matched, never the path it was sent to (so no id, no query string, no signed URL's
// signature, no `token=`), and a path no route matched is logged without its query. No
// header is read: the credential is named by the principal it resolved to (user id, how,
// and an API key's id), never by what was sent.
//
// It is written when the answer is made: Elysia's afterResponse (after the body is mapped,
// off the answer's own path), and for the routes Bun serves without Elysia (the media edge)
// when their handler's Response is ready. `ms` runs from the request's arrival to then;
// a streamed body is still being sent at that point.
import { Elysia, ElysiaCustomStatusResponse } from "elysia";
import type { Log } from "../infra/log.ts";
import { type Metrics, noMetrics } from "../infra/metrics.ts";
import { epochMs, noTracing, type Tracing } from "../infra/tracing.ts";
import type { Principal } from "../core/principal.ts";

/** ACCESS_LOG: the level of the access lines, or off. */
export type AccessLogMode = "info" | "debug" | "off";

/** The paths of unmatched requests are the client's: cut, so one cannot write a novel into the log. */
const MAX_PATH = 200;

const principals = new WeakMap<Request, Principal>();
const arrivals = new WeakMap<Request, number>();
const errorBodies = new WeakMap<Request, unknown>();

/** The auth guard (and the edge's owner check) tell who a request turned out to be. */
export function notePrincipal(request: Request, principal: Principal): void {
  principals.set(request, principal);
}

/** The error envelope the core's onError answered with (Elysia hands afterResponse none). */
export function noteErrorBody(request: Request, body: unknown): void {
  errorBodies.set(request, body);
}

/** The path of a URL, without its query or fragment. */
function pathOf(url: string): string {
  const start = url.indexOf("/", url.indexOf("//") + 2);
  if (start < 0) return "/";
  let end = url.length;
  const q = url.indexOf("?", start);
  if (q >= 0) end = q;
  const h = url.indexOf("#", start);
  if (h >= 0 && h < end) end = h;
  return url.slice(start, Math.min(end, start + MAX_PATH));
}

/** Bytes of a body as Elysia or a handler gave it; undefined when not known without reading it. */
function bodyBytes(value: unknown): number | undefined {
  if (value === undefined || value === null) return 0;
  if (typeof value === "string") return Buffer.byteLength(value);
  if (value instanceof Response) return responseBytes(value);
  if (value instanceof ElysiaCustomStatusResponse) return bodyBytes(value.response);
  if (value instanceof Blob) return value.size;
  if (value instanceof ArrayBuffer || ArrayBuffer.isView(value)) return value.byteLength;
  if (value instanceof ReadableStream || typeof (value as { next?: unknown }).next === "function") return undefined;
  if (typeof value === "object") {
    try {
      return Buffer.byteLength(JSON.stringify(value));
    } catch {
      return undefined;
    }
  }
  return Buffer.byteLength(String(value));
}

const round = (ms: number) => Math.round(ms * 10) / 10;

/** A string as JSON: as it is between quotes when nothing in it needs escaping (a method, a route, an id). */
function jsonString(s: string): string {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x20 || c === 0x22 || c === 0x5c || (c >= 0xd800 && c <= 0xdfff)) return JSON.stringify(s);
  }
  return `"${s}"`;
}

/**
 * Bytes of a Response: its Content-Length, which every answer of the edge with a body
 * says. Its body is looked at only when it has none: reading `body` of a Response
 * made from bytes or a file turns them into a stream, which Bun then sends through
 * JavaScript instead of at once: read on every hit, it nearly doubled the deployed node's
 * CPU per cached 14 KB image (docs/benchmarks.md, "(t) as deployed").
 */
function responseBytes(res: Response): number | undefined {
  if (res.status === 304 || res.status === 204) return 0;
  const length = res.headers.get("content-length");
  if (length !== null) return Number(length);
  return res.body === null ? 0 : undefined;
}

/** The upload routes (templates as Elysia matches them) and the kind each one's bytes are counted as. */
const UPLOAD_ROUTES: Record<string, string> = {
  "POST /v1/images": "image",
  "POST /v1/videos": "video",
  "POST /v1/videos/:id/thumbnail": "image",
  "PUT /v1/videos/:id/captions/:language": "caption",
  "POST /v1/audio": "audio",
  "POST /v1/uploads": "resumable",
  "PATCH /v1/uploads/:id": "resumable",
  "PUT /v1/kbs/:id/files/:sha256": "kb_file",
};

/** Which part a 503 names (the core's outage answers say it in meta.dependency, the store's by its code). */
function dependencyOf(body: unknown): string | undefined {
  const b = body as { code?: unknown; meta?: { dependency?: unknown } } | undefined;
  if (typeof b?.meta?.dependency === "string") return b.meta.dependency;
  return b?.code === "STORAGE_ERROR" ? "storage" : undefined;
}

/**
 * The metrics of one answered request, counted where its access line is written: the
 * request, and for an upload route its bytes or its refusal's code; a 503 by the part it
 * names. `body` is the error envelope, when the answer was one.
 */
function count(metrics: Metrics, request: Request, route: string, status: number, started: number | undefined, body: unknown) {
  const seconds = started === undefined ? 0 : (performance.now() - started) / 1000;
  metrics.request(request.method, route, status, seconds);
  if (status === 503) {
    const dependency = dependencyOf(body);
    if (dependency) metrics.dependencyError(dependency);
  }
  const kind = UPLOAD_ROUTES[`${request.method} ${route}`];
  if (kind === undefined) return;
  if (status < 300) metrics.upload(kind, Number(request.headers.get("content-length")) || 0);
  else if (status >= 400) {
    const code = (body as { code?: unknown } | undefined)?.code;
    metrics.uploadRefused(kind, typeof code === "string" ? code : `HTTP_${status}`);
  }
}

export interface AccessLog {
  /** Notes when a request arrived (http core's first hook). */
  arrived(request: Request): void;
  /** The Elysia side: one line per request the app answers (mounted by http core). */
  plugin: Elysia;
  /** A Bun route handler (the media edge's) with its line: `route` is the pattern it serves. */
  route<R extends Response | Promise<Response>>(route: string, handler: (request: Request) => R): (request: Request) => Response | Promise<Response>;
}

/**
 * `metrics`: every request is counted there too, whether or not its line is written;
 * `tracing`: and sent as a span, with its request id.
 */
export function accessLog(log: Log, mode: AccessLogMode, metrics: Metrics = noMetrics, tracing: Tracing = noTracing): AccessLog {
  const counting = metrics.enabled;
  const tracingOn = tracing.enabled;

  /** One request's span, from its arrival (or its handler's start) to its answer. */
  function span(request: Request, route: string, status: number, requestId: unknown, started: number | undefined) {
    const now = performance.now();
    tracing.record({
      name: `${request.method} ${route}`,
      kind: "server",
      startMs: epochMs(started ?? now),
      endMs: epochMs(now),
      attributes: {
        "http.request.method": request.method,
        "http.route": route,
        "http.response.status_code": status,
        "shelf.request_id": typeof requestId === "string" ? requestId : undefined,
        "enduser.id": principals.get(request)?.userId,
      },
      error: status >= 500 ? `answered ${status}` : undefined,
    });
  }
  // Whether lines are written at all: ACCESS_LOG on, and LOG_LEVEL not above its level.
  const writes = mode !== "off" && log.enabled?.(mode) !== false;
  const level = mode === "debug" ? "debug" : "info";
  const emit = log.line
    ? (json: string) => log.line!(level, "request", json)
    : (json: string) => log[level]("request", JSON.parse(`{${json}}`) as Record<string, unknown>);

  /**
   * One request's line, its fields written as JSON text in their documented order: no
   * object is built and serialized per request. `route` is already JSON (a string of
   * the edge's pattern is made once). Only the method and a path no route matched are
   * looked at for escaping: a request id is one the core accepted or made (1 to 128 of
   * `A-Z a-z 0-9 . _ : -`, or a UUID), ids are nanoids and `via` one of three words.
   */
  function line(request: Request, route: string, status: number, bytes: number | undefined, requestId: unknown, started: number | undefined) {
    let json = `"method":${jsonString(request.method)},"route":${route},"status":${status}`;
    if (started !== undefined) json += `,"ms":${round(performance.now() - started)}`;
    if (bytes !== undefined) json += `,"bytes":${Number.isFinite(bytes) ? bytes : "null"}`;
    if (requestId !== undefined) json += `,"requestId":${typeof requestId === "string" ? `"${requestId}"` : JSON.stringify(requestId)}`;
    const p = principals.get(request);
    if (p) {
      json += `,"userId":"${p.userId}","via":"${p.via}"`;
      if (p.keyId) json += `,"keyId":"${p.keyId}"`;
    }
    emit(json);
  }

  // Off (and no metrics or traces), no hook at all: Elysia then compiles its handlers without an afterResponse step.
  const plugin = new Elysia({ name: "access-log" });
  if (mode !== "off" || counting || tracingOn)
    plugin.onAfterResponse({ as: "global" }, ({ request, route, set, responseValue }) => {
      const value = responseValue === undefined ? errorBodies.get(request) : responseValue;
      const status =
        responseValue instanceof Response
          ? responseValue.status
          : responseValue instanceof ElysiaCustomStatusResponse
            ? responseValue.code
            : typeof set.status === "number"
              ? set.status
              : 200;
      const started = arrivals.get(request);
      if (counting) count(metrics, request, route || "unmatched", status, started, errorBodies.get(request));
      if (tracingOn) span(request, route || "unmatched", status, set.headers["x-request-id"], started);
      if (!writes) return;
      const bytes = request.method === "HEAD" ? 0 : bodyBytes(value);
      line(request, jsonString(route || pathOf(request.url)), status, bytes, set.headers["x-request-id"], started);
    });

  return {
    arrived: mode === "off" && !counting && !tracingOn ? () => {} : (request) => void arrivals.set(request, performance.now()),
    plugin: plugin as AccessLog["plugin"],
    route(pattern, handler) {
      // No wrapper at all when its lines would be dropped (LOG_LEVEL above the access log's):
      // the edge's cached hits are a few microseconds, and the wrapper was a tenth of them.
      if (!writes && !counting && !tracingOn) return handler;
      const meter = metrics.route(pattern);
      if (!writes && !tracingOn)
        // Counted only. An answer made without waiting (a cached edge hit, a few microseconds
        // of this thread) is counted as taking no time, without reading the clock: two reads
        // were most of what the metrics cost such a hit. One that waits is timed from then.
        return (request) => {
          const out = handler(request);
          if (!(out instanceof Promise)) {
            meter(request.method, out.status, 0);
            return out;
          }
          const started = performance.now();
          return out.then((res) => {
            meter(request.method, res.status, (performance.now() - started) / 1000);
            return res;
          });
        };
      const patternJson = jsonString(pattern);
      // Defined once, not per request: a cached hit's answer is synchronous and allocates no closure.
      const done = (request: Request, res: Response, started: number) => {
        if (counting) meter(request.method, res.status, (performance.now() - started) / 1000);
        if (tracingOn) span(request, pattern, res.status, res.headers.get("x-request-id"), started);
        if (writes) line(request, patternJson, res.status, request.method === "HEAD" ? 0 : responseBytes(res), res.headers.get("x-request-id"), started);
        return res;
      };
      return (request) => {
        const started = performance.now();
        const out = handler(request);
        return out instanceof Promise ? out.then((res) => done(request, res, started)) : done(request, out, started);
      };
    },
  };
}
