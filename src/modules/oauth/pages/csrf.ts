// Cross-site request forgery defences of the pages' forms. A form carries a token that is
// an HMAC of the page session's nonce and the page's path under a key only the server
// has, so a site that can make a browser post here cannot make the token: the nonce sits
// in an httpOnly cookie it cannot read, and the key never leaves the server. The token
// changes with the page session (a new nonce at every sign-in and sign-out), so one seen
// before a sign-in is worth nothing after it. Where the browser says where the post came
// from (Sec-Fetch-Site, Origin), that must be the page's own origin as well
// (http/own-site.ts, the one rule for every route a session cookie acts on).
import { createHmac, timingSafeEqual } from "node:crypto";

// Its own key, derived from the server secret, so a token can never equal a MAC made with
// that secret for anything else (session tokens, refresh-token successors).
const KEY_LABEL = "shelf/page-csrf/v1";

export function csrfKey(secret: string): Buffer {
  return createHmac("sha256", secret).update(KEY_LABEL).digest();
}

/** The token for forms of the page at `path` in the page session of `nonce`. */
export function csrfToken(key: Buffer, path: string, nonce: string): string {
  return createHmac("sha256", key).update(`${path}\n${nonce}`).digest("base64url");
}

/** Whether `given` is the token of that page and page session (compared in constant time). */
export function csrfValid(key: Buffer, path: string, nonce: string | undefined, given: string | undefined): boolean {
  if (!nonce || !given || given.length > 64) return false;
  const want = Buffer.from(csrfToken(key, path, nonce));
  const got = Buffer.from(given);
  return got.length === want.length && timingSafeEqual(got, want);
}
