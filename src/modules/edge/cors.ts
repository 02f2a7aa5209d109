// CORS on the media edge: a player or page on another origin (hls.js, a canvas reading an
// image) reads the edge's answers only when they allow its origin. MEDIA_CORS_ORIGINS
// (cors-origins.ts) says which origins:
// - `*`: every answer carries `Access-Control-Allow-Origin: *`, the same for every
//   request, so it is part of a variant's shared headers and a CDN may keep it;
// - a list: a listed `Origin` is echoed, an unlisted one gets no CORS header, and every
//   answer says `Vary: Origin` (it depends on the origin, so a cache must key on it);
// - `none` (an empty list): no CORS header at all.
// CORS guards nothing here: the edge reads no cookie, so a page on another site can have
// only what it could fetch itself. Owner-only objects stay behind their owner's bearer,
// private videos behind their signature; those answers carry the same headers.
import type { MediaCorsOrigins } from "./cors-origins.ts";

/** What a browser lets a page read besides the CORS-safelisted headers. */
const EXPOSE = "Content-Length, Content-Range, Accept-Ranges, ETag, X-Request-Id, Retry-After";
const METHODS = "GET, HEAD, OPTIONS";
/** What a player sends (ranges, revalidation) and what the edge reads (Accept, an owner's bearer). */
const REQUEST_HEADERS = "Range, If-Range, If-None-Match, If-Modified-Since, Accept, Authorization, X-Request-Id";
/** How long a browser keeps a preflight's answer (Chromium keeps at most 2 hours of it). */
const PREFLIGHT_MAX_AGE_S = 86_400;

export interface EdgeCors {
  /** Headers every answer carries, whatever the request (merged into a variant's shared headers). */
  readonly always: Readonly<Record<string, string>>;
  /** Adds what this request's Origin earns beyond `always` (a listed origin echoed). */
  apply(request: Request, headers: Headers): void;
  /** The headers of an OPTIONS answer (a preflight): what may be asked, for how long. */
  preflight(request: Request): Headers;
}

export function edgeCors(origins: MediaCorsOrigins): EdgeCors {
  const any = origins === "*";
  const listed = new Set(any ? [] : origins);
  const allowed = { "access-control-allow-origin": "*", "access-control-expose-headers": EXPOSE };
  const always: Record<string, string> = any ? allowed : listed.size > 0 ? { vary: "Origin" } : {};
  /** The origin this request may be answered for, or null. */
  const grantedTo = (request: Request): string | null => {
    if (any) return "*";
    if (listed.size === 0) return null;
    const origin = request.headers.get("origin");
    return origin !== null && listed.has(origin) ? origin : null;
  };
  return {
    always,
    apply(request, headers) {
      if (any || listed.size === 0) return;
      const origin = grantedTo(request);
      if (origin === null) return;
      headers.set("access-control-allow-origin", origin);
      headers.set("access-control-expose-headers", EXPOSE);
    },
    preflight(request) {
      const headers = new Headers({ allow: METHODS });
      if (!any && listed.size > 0) headers.set("vary", "Origin");
      const origin = grantedTo(request);
      if (origin === null) return headers;
      headers.set("access-control-allow-origin", origin);
      headers.set("access-control-allow-methods", METHODS);
      headers.set("access-control-allow-headers", REQUEST_HEADERS);
      headers.set("access-control-max-age", String(PREFLIGHT_MAX_AGE_S));
      return headers;
    },
  };
}
