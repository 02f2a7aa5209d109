// Which web origins may read the media edge's answers (CORS), from MEDIA_CORS_ORIGINS:
// `*` (the default: public media is public, and a player on any site must read its
// playlists and segments), `none`, or a comma-separated list of exact origins. How the
// edge applies it: cors.ts; for operators: docs/operators.md. src/config.ts reads this file
// at load, so it imports nothing.

/** `*`: any origin; a list: those origins only (none when empty). */
export type MediaCorsOrigins = "*" | readonly string[];

/**
 * The origins MEDIA_CORS_ORIGINS names, or the problem with it. An origin is a scheme,
 * host and port as a browser sends it in `Origin` (`https://player.example.com`,
 * `http://localhost:3000`): no path, query or credentials. It is compared in the form a
 * browser serializes it (lower-case host, no default port), so `HTTPS://Example.com:443`
 * is read as `https://example.com`.
 */
export function parseMediaCorsOrigins(raw: string): { origins: MediaCorsOrigins } | { problem: string } {
  const value = raw.trim();
  if (value === "*") return { origins: "*" };
  if (value.toLowerCase() === "none") return { origins: [] };
  const origins: string[] = [];
  for (const entry of value.split(",").map((e) => e.trim())) {
    if (entry === "") continue;
    if (entry === "*" || entry.toLowerCase() === "none") return { problem: `${entry} stands alone, not in a list` };
    const origin = originOf(entry);
    if (!origin) return { problem: `${JSON.stringify(entry)} is not an origin (scheme://host[:port], http or https, nothing after it)` };
    if (!origins.includes(origin)) origins.push(origin);
  }
  if (origins.length === 0) return { problem: "names no origin (`*`, `none` or a comma-separated list of origins)" };
  return { origins };
}

function originOf(entry: string): string | null {
  let url: URL;
  try {
    url = new URL(entry);
  } catch {
    return null;
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return null;
  // Only the origin: a trailing slash is the URL parser's own, anything more is a mistake.
  const rest = entry.replace(/^[a-z]+:\/\/[^/?#]*/i, "");
  if ((rest !== "" && rest !== "/") || url.username || url.password) return null;
  return url.origin;
}
