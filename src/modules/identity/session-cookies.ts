// The cookies a browser session lives in. The dashboard keeps its session in the refresh
// cookie (Path /v1/auth, rotated on every refresh) and its access token in memory; the
// server-rendered pages (OAuth consent, device sign-in) read the session ticket: the
// session's id and an expiry under an HMAC only the server can make, on those pages' paths
// only. So one sign-in, on the dashboard or on either page, serves all three, and ending the
// session anywhere ends it everywhere (the ticket names a session that must still be live).
// The ticket is not the refresh token: the pages must not rotate what the dashboard holds,
// and a second holder of one refresh chain would look like a replay and end the session.
// Every cookie is HttpOnly and SameSite=Lax (an app's redirect to the consent page is a
// top-level GET and carries it; another site's form post does not), and Secure over https.
import { createHmac, timingSafeEqual } from "node:crypto";
import type { Config } from "../../config.ts";
import { REFRESH_TOKEN_TTL_MS } from "./tokens.ts";

export const REFRESH_COOKIE = "shelf_refresh";
export const SESSION_TICKET_COOKIE = "shelf_session";
export const REFRESH_PATH = "/v1/auth";
/** A ticket lasts as long as an unused refresh token. */
const REFRESH_TTL_S = REFRESH_TOKEN_TTL_MS / 1000;

const KEY_LABEL = "shelf/session-ticket/v1";
const TICKET = /^([A-Za-z0-9_-]{1,64})\.(\d{1,12})\.([A-Za-z0-9_-]{43})$/;

const macOf = (secret: string, sessionId: string, expiresAtS: number) =>
  createHmac("sha256", createHmac("sha256", secret).update(KEY_LABEL).digest()).update(`${sessionId}\n${expiresAtS}`).digest();

/** The paths of the pages that take the session ticket: consent at PUBLIC_URL, device at CENTER_URL. */
export function ticketPaths(config: Pick<Config, "PUBLIC_URL" | "CENTER_URL">): string[] {
  const pathOf = (url: string) => new URL(url).pathname.replace(/\/+$/, "");
  return [`${pathOf(config.PUBLIC_URL)}/oauth/authorize`, `${pathOf(config.CENTER_URL)}/device`];
}

/** The session a ticket names, when the server made it and it has not expired. */
export function ticketSession(secret: string, ticket: string | undefined, nowMs: number): string | undefined {
  const m = ticket ? TICKET.exec(ticket) : null;
  if (!m) return undefined;
  const expiresAtS = Number(m[2]);
  if (expiresAtS * 1000 <= nowMs) return undefined;
  const given = Buffer.from(m[3]!, "base64url");
  const want = macOf(secret, m[1]!, expiresAtS);
  return given.length === want.length && timingSafeEqual(given, want) ? m[1] : undefined;
}

const attributes = (path: string, secure: boolean, maxAgeS: number) => `Path=${path}; Max-Age=${maxAgeS}; HttpOnly; SameSite=Lax${secure ? "; Secure" : ""}`;

/**
 * The Set-Cookie values of the session tickets, one per page path; without a session, the
 * values that clear them.
 */
function ticketCookies(
  config: Pick<Config, "JWT_SECRET" | "PUBLIC_URL" | "CENTER_URL">,
  sessionId: string | undefined,
  opts: { secure: boolean; nowMs: number },
): string[] {
  const expiresAtS = Math.floor(opts.nowMs / 1000) + REFRESH_TTL_S;
  const value = sessionId ? `${sessionId}.${expiresAtS}.${macOf(config.JWT_SECRET, sessionId, expiresAtS).toString("base64url")}` : "";
  return ticketPaths(config).map((p) => `${SESSION_TICKET_COOKIE}=${value}; ${attributes(p, opts.secure, sessionId ? REFRESH_TTL_S : 0)}`);
}

/** The Set-Cookie value of the dashboard's refresh cookie ("" clears it). */
const refreshCookie = (refreshToken: string, secure: boolean) =>
  `${REFRESH_COOKIE}=${refreshToken}; ${attributes(REFRESH_PATH, secure, refreshToken ? REFRESH_TTL_S : 0)}`;

/**
 * The Set-Cookie values of a browser session: the refresh cookie and the pages' tickets;
 * without a session, the values that clear them all.
 */
export function sessionCookies(
  config: Pick<Config, "JWT_SECRET" | "PUBLIC_URL" | "CENTER_URL">,
  session: { refreshToken: string; sessionId: string } | undefined,
  opts: { secure: boolean; nowMs: number },
): string[] {
  return [refreshCookie(session?.refreshToken ?? "", opts.secure), ...ticketCookies(config, session?.sessionId, opts)];
}
