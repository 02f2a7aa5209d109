// The HTTP rules of the media edge: content negotiation, conditional requests and byte
// ranges, kept apart from where the bytes come from and which kind they belong to.

/**
 * True when the client names image/webp with a non-zero quality. `image/*` and `*\/*`
 * are not enough: older browsers send them and cannot decode WebP.
 */
export function acceptsWebp(accept: string | null): boolean {
  // A browser sends the same Accept on every image request: the last answer is kept.
  if (accept === lastAccept.header) return lastAccept.webp;
  const webp = parseAcceptsWebp(accept);
  lastAccept = { header: accept, webp };
  return webp;
}
let lastAccept: { header: string | null; webp: boolean } = { header: null, webp: false };

/** True when the client names image/avif with a non-zero quality (as acceptsWebp). */
export function acceptsAvif(accept: string | null): boolean {
  if (accept === lastAvif.header) return lastAvif.avif;
  const avif = names(accept, "image/avif");
  lastAvif = { header: accept, avif };
  return avif;
}
let lastAvif: { header: string | null; avif: boolean } = { header: null, avif: false };

const parseAcceptsWebp = (accept: string | null) => names(accept, "image/webp");

function names(accept: string | null, mediaType: string): boolean {
  // Media types and parameter names are case-insensitive (RFC 9110 8.3.1, 12.4.2).
  const a = accept?.toLowerCase();
  if (!a?.includes(mediaType)) return false;
  for (const range of a.split(",")) {
    const [type, ...params] = range.split(";");
    if (type!.trim() !== mediaType) continue;
    const q = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
    return !q || Number(q.slice(2)) > 0;
  }
  return false;
}

/** If-None-Match with weak comparison (RFC 9110 13.1.2): `*`, or a listed tag equal to ours. */
export function notModified(ifNoneMatch: string | null, etag: string): boolean {
  if (!ifNoneMatch) return false;
  if (ifNoneMatch.trim() === "*") return true;
  return ifNoneMatch.split(",").some((t) => t.trim().replace(/^W\//, "") === etag);
}

export type RangeResult = { start: number; end: number } | "unsatisfiable" | null;

/**
 * One byte range of `bytes=a-b`, `bytes=a-` or `bytes=-n`; null means "send it all"
 * (no Range, a multi-range or malformed header, or an If-Range that no longer matches).
 */
export function parseRange(range: string | null, ifRange: string | null, size: number, etag: string): RangeResult {
  if (!range) return null;
  if (ifRange && ifRange.trim() !== etag) return null;
  const m = /^bytes=(\d*)-(\d*)$/.exec(range.trim());
  if (!m || (m[1] === "" && m[2] === "")) return null;
  if (m[1] === "") {
    const n = Number(m[2]);
    if (n === 0) return "unsatisfiable";
    return { start: Math.max(0, size - n), end: size - 1 };
  }
  const start = Number(m[1]);
  const end = m[2] === "" ? size - 1 : Math.min(Number(m[2]), size - 1);
  if (start >= size || end < start) return "unsatisfiable";
  return { start, end };
}

export const IMMUTABLE = "public, max-age=31536000, immutable";
/** A public URL whose representation may change: caches keep it, but ask before reusing it. */
export const REVALIDATE = "public, no-cache";
/** A public URL whose representation follows state (a playlist): kept briefly, then asked again. */
export const SHORT = "public, max-age=30";
/** Served to its owner only: a shared cache must never keep it. */
export const PRIVATE = "private, no-cache";
/** What every refusal of the edge carries (of any kind), as the API's answers do (src/http/core.ts). */
export const REFUSAL = { "cache-control": "no-store", "x-content-type-options": "nosniff" } as const;
