// A cookie's value read straight from the request's Cookie header, for the routes that read
// one cookie without Elysia's cookie jar (the OAuth pages, the OpenID callback, share pages).

/** The value of the cookie `name` the request carries: the first, the most specific path's (one of another path or site is ignored). */
export function requestCookie(request: Request, name: string): string | undefined {
  for (const part of (request.headers.get("cookie") ?? "").split(";")) {
    const eq = part.indexOf("=");
    if (eq >= 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}
