// CORS of the API: which answers a page on another origin may read. Single-page apps and
// browser MCP clients are public OAuth clients (PKCE, no secret): they discover the
// provider, register, redeem a code and call /v1 from their own origin, with a Bearer
// header. A Bearer token is no ambient credential (a page must hold it to send it), so any
// origin may read those answers: `Access-Control-Allow-Origin: *`, never with
// Allow-Credentials, and `*` is what makes a browser refuse to send cookies along.
// What a cookie authorizes is left out: /v1/auth/* (the refresh cookie's Path, sign-in,
// sign-up, refresh, sign-out) and the server-rendered pages (/oauth/authorize, /device)
// answer without CORS, so a page of another site cannot read them. The media edge has
// its own rule (modules/edge/cors.ts), and so has the MCP endpoint, whose Origin check
// guards against DNS rebinding (modules/mcp/authorization.ts).
// The answer does not depend on the request's Origin, so no cache needs `Vary: Origin`.
import { Elysia } from "elysia";

const WRITE = "GET, HEAD, POST, PUT, PATCH, DELETE";
const READ = "GET, HEAD";

/** Protocol endpoints and documents a browser client reads, with the methods they answer. */
const EXACT: Readonly<Record<string, string>> = {
  "/oauth/token": "POST",
  "/oauth/register": "POST",
  "/oauth/revoke": "POST",
  "/.well-known/oauth-authorization-server": READ,
  "/.well-known/openid-configuration": READ,
  "/.well-known/oauth-protected-resource": READ,
  "/swagger/json": READ,
};

/**
 * What a page may send besides the CORS-safelisted headers: its credential and body type,
 * and every header the API reads (sync version, revalidation, tus). Idempotency-Key is
 * let through for clients that send it on every write, MCP-Protocol-Version for the MCP
 * SDK, which sends it when it reads the metadata documents.
 */
const ALLOW_HEADERS = [
  "Authorization",
  "Content-Type",
  "Accept",
  "X-Request-Id",
  "If-None-Match",
  "Service-Sync-Version",
  "Idempotency-Key",
  "MCP-Protocol-Version",
  "Tus-Resumable",
  "Upload-Length",
  "Upload-Defer-Length",
  "Upload-Metadata",
  "Upload-Offset",
  "Upload-Checksum",
  "Range",
  "If-Range",
].join(", ");

/**
 * Every header the API answers with that a client reads and a browser hides by default: the
 * request id, limits (RateLimit-*, Retry-After), challenges, validators, the sync v1
 * sunset, tus's and a finished upload's, a raw document's version, a rendering's filename, a KB
 * file's range and policy.
 */
const EXPOSE_HEADERS = [
  "X-Request-Id",
  "Location",
  "Allow",
  "WWW-Authenticate",
  "Retry-After",
  "RateLimit-Limit",
  "RateLimit-Remaining",
  "RateLimit-Reset",
  "ETag",
  "Deprecation",
  "Sunset",
  "Content-Disposition",
  "Upload-Offset",
  "Upload-Length",
  "Upload-Metadata",
  "Upload-Expires",
  "Tus-Resumable",
  "Tus-Version",
  "Tus-Extension",
  "Tus-Max-Size",
  "Tus-Checksum-Algorithm",
  "X-Resource-Id",
  "X-Resource-Url",
  "X-Doc-Id",
  "X-Source-Hash",
  "X-Updated-At",
  "Content-Range",
  "Accept-Ranges",
  "Content-Security-Policy",
].join(", ");

/** How long a browser keeps a preflight's answer (Chromium keeps at most 2 hours of it). */
const PREFLIGHT_MAX_AGE_S = 86_400;

/**
 * The path as the router could take it, for matching only: decoded, single slashes,
 * lower-case, so that no spelling of /v1/auth/... slips out of the exclusion.
 */
function normalized(path: string): string {
  let p = path;
  try {
    p = decodeURIComponent(path);
  } catch {
    // Not percent-encoding the router would decode either: matched as it is.
  }
  return p.replace(/\/{2,}/g, "/").toLowerCase();
}

/** The methods a path's answers are readable for from any origin, or undefined: no CORS. */
function corsMethods(path: string): string | undefined {
  const p = normalized(path);
  if (p === "/v1/auth" || p.startsWith("/v1/auth/")) return undefined;
  if (p === "/v1" || p.startsWith("/v1/")) return WRITE;
  if (p.startsWith("/.well-known/oauth-protected-resource/")) return READ;
  return EXACT[p];
}

/**
 * The API's one CORS rule, by path and method: a preflight (OPTIONS with
 * Access-Control-Request-Method) of a covered path is answered here, before any route or
 * guard (it carries no credential); every other answer of a covered path, errors
 * included, carries Allow-Origin and Expose-Headers. A plain OPTIONS (tus discovery) gets
 * what a preflight would as well.
 */
export const apiCors = () =>
  new Elysia({ name: "api-cors" }).onRequest(({ request, set }) => {
    const methods = corsMethods(new URL(request.url).pathname);
    if (methods === undefined) return;
    const allowed = { "access-control-allow-origin": "*" };
    if (request.method === "OPTIONS") {
      const preflight = {
        ...allowed,
        "access-control-allow-methods": `${methods}, OPTIONS`,
        "access-control-allow-headers": ALLOW_HEADERS,
        "access-control-max-age": String(PREFLIGHT_MAX_AGE_S),
      };
      if (request.headers.has("access-control-request-method")) {
        // set.headers (the request id, no-store) are merged into the answer.
        return new Response(null, { status: 204, headers: preflight });
      }
      Object.assign(set.headers, preflight);
    }
    Object.assign(set.headers, allowed, { "access-control-expose-headers": EXPOSE_HEADERS });
  });
