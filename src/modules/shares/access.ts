// Who may see a link's content: anyone holding the URL while the link is live, and for a
// link with a password, a browser that gave it. The password is checked once per browser:
// it is answered with a cookie scoped to the link's path (CENTER_URL/s/<token>), an HMAC of
// the link's id, an expiry and its current password hash, so a new password or the end of
// COOKIE_TTL_S closes it again. Guessing is slowed per link and address (kv windows, every
// node alike).
import { requestCookie } from "../../http/request-cookie.ts";
import { createHmac, timingSafeEqual } from "node:crypto";
import type { Deps } from "../../core/deps.ts";
import { type OpenedShare, isLive, shareByToken } from "./service.ts";

/** How long a given password holds in that browser. */
const COOKIE_TTL_S = 3600;
const COOKIE = "shelf_share";
const KEY_LABEL = "shelf share password cookie v1";

/** Password tries per link: from one address, and from all. */
const TRIES_PER_ADDRESS = 10;
const TRIES_PER_LINK = 100;
const TRIES_WINDOW_MS = 15 * 60_000;

export type Opened = { state: "missing" } | { state: "gone" } | { state: "locked"; share: OpenedShare } | { state: "open"; share: OpenedShare };

function macOf(secret: string, share: Pick<OpenedShare, "id" | "passwordHash">, expiresAtS: number): string {
  const key = createHmac("sha256", secret).update(KEY_LABEL).digest();
  return createHmac("sha256", key)
    .update(`${share.id}\n${expiresAtS}\n${share.passwordHash ?? ""}`)
    .digest("base64url");
}

function cookieHolds(deps: Pick<Deps, "config" | "clock">, share: OpenedShare, request: Request): boolean {
  const value = requestCookie(request, COOKIE);
  const m = value ? /^(\d{1,12})\.([A-Za-z0-9_-]{43})$/.exec(value) : null;
  if (!m) return false;
  const expiresAtS = Number(m[1]);
  if (expiresAtS * 1000 <= deps.clock.nowMs()) return false;
  return timingSafeEqual(Buffer.from(m[2]!), Buffer.from(macOf(deps.config.JWT_SECRET, share, expiresAtS)));
}

/** What a request may see of the link its token names, read from the database now. */
export async function openShare(deps: Pick<Deps, "db" | "config" | "clock">, token: string, request: Request): Promise<Opened> {
  const share = await shareByToken(deps.db, token);
  if (!share) return { state: "missing" };
  if (!isLive(share, deps.clock.nowMs())) return { state: "gone" };
  if (share.passwordHash && !cookieHolds(deps, share, request)) return { state: "locked", share };
  return { state: "open", share };
}

/** The Set-Cookie header that opens `share` in this browser, on the link's path only. */
export function passwordCookie(deps: Pick<Deps, "config" | "clock">, share: OpenedShare, path: string, secure: boolean): string {
  const expiresAtS = Math.floor(deps.clock.nowMs() / 1000) + COOKIE_TTL_S;
  const value = `${expiresAtS}.${macOf(deps.config.JWT_SECRET, share, expiresAtS)}`;
  return `${COOKIE}=${value}; Path=${path}; Max-Age=${COOKIE_TTL_S}; HttpOnly; SameSite=Lax${secure ? "; Secure" : ""}`;
}

/** Counts one password try; the milliseconds to wait when over a limit, else null. */
export async function tryPassword(deps: Pick<Deps, "kv" | "clock">, share: OpenedShare, address: string): Promise<number | null> {
  const now = deps.clock.nowMs();
  const [one, all] = await Promise.all([
    deps.kv.slidingWindow(`share-pw:${share.id}:${address}`, TRIES_PER_ADDRESS, TRIES_WINDOW_MS, now),
    deps.kv.slidingWindow(`share-pw:${share.id}`, TRIES_PER_LINK, TRIES_WINDOW_MS, now),
  ]);
  if (!one.allowed || !all.allowed) return Math.max(one.allowed ? 0 : one.resetMs, all.allowed ? 0 : all.resetMs);
  return null;
}

export const passwordMatches = (share: OpenedShare, password: string) =>
  share.passwordHash ? Bun.password.verify(password, share.passwordHash) : Promise.resolve(false);
