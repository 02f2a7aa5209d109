// The page session: who is signed in on a server-rendered page, kept in one cookie.
//
// The cookie holds a random nonce (what the forms' CSRF tokens are bound to) and, once the
// visitor signs in on the page, the access token of an identity session opened by that
// sign-in (a 15-minute JWT, checked on every request like any other, so a session ended
// elsewhere ends here too). It is
// - httpOnly: no script, not even user content served from this origin, can read it;
// - SameSite=Lax: another site's form post to the page arrives without it, so a forged
//   Approve has no session (the CSRF token and the Origin check hold as well);
// - scoped to the page's own path: the API never receives it. The API authenticates by
//   Authorization headers alone, and a cookie sent along to it (or to the media and
//   document routes on the same origin) would be ambient authority nobody asked for;
// - Secure when the service is reached over https.
// It has no Max-Age: it ends with the browser session, and the token in it after 15 minutes.
import { randomBytes } from "node:crypto";
import type { Deps } from "../../../core/deps.ts";
import { AppError } from "../../../core/errors.ts";
import { fromOwnSite, originsOf, type SiteRule } from "../../../http/own-site.ts";
import type { RouteServices } from "../../../wiring/services.ts";
import { DEVICE_COOKIE, deviceCookie, getUser, logout, signInWithPassword } from "../../identity/public.ts";
import { notify } from "../../notifications/public.ts";
import { csrfKey, csrfToken, csrfValid } from "./csrf.ts";

const COOKIE = "shelf_page";
const NONCE = /^[A-Za-z0-9_-]{22}$/;
const EMAIL = /^[^\s@]+@[^\s@]+$/;
const JWT = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/;

export interface PageUser {
  id: string;
  email: string;
  sessionId: string;
}

/** One request's view of its page session. */
export interface PageVisit {
  /** The page session's nonce; undefined when the request came without a page session. */
  nonce?: string;
  /** The signed-in user, when the page session holds a live identity session. */
  user?: PageUser;
  /** The CSRF token this answer's forms carry. */
  csrf: string;
  /** Set-Cookie values this answer must carry (a page session begun by it). */
  cookies: string[];
}

type Identity = Pick<RouteServices["identity"], "signer" | "resolvePrincipal">;

/** The value of the cookie `name` the request carries: the first, the most specific path's (one of another path or site is ignored). */
function cookieOf(request: Request, name: string): string | undefined {
  for (const part of (request.headers.get("cookie") ?? "").split(";")) {
    const eq = part.indexOf("=");
    if (eq >= 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

function readCookie(request: Request): { nonce?: string; token?: string } {
  const value = cookieOf(request, COOKIE);
  if (value === undefined) return {};
  const dot = value.indexOf(".");
  const nonce = dot < 0 ? value : value.slice(0, dot);
  const token = dot < 0 ? undefined : value.slice(dot + 1);
  if (!NONCE.test(nonce)) return {};
  return { nonce, token: token && JWT.test(token) && token.length <= 2048 ? token : undefined };
}

/**
 * The page sessions of the page served at `path` (as the browser sees it). `origins`: the
 * addresses the page is served at, whose forms alone may post to it.
 */
export function createPageSessions(deps: Deps, identity: Identity, opts: { path: string; origins: string[] }) {
  const key = csrfKey(deps.config.JWT_SECRET);
  // The forms post to their own page, and carry the CSRF token: an opaque Origin (what the
  // pages' Referrer-Policy no-referrer makes a browser send) is left to the token.
  const site: SiteRule = { origins: originsOf(...opts.origins), crossOrigin: false, opaqueOrigin: true };
  const secure = opts.origins.some((o) => o.startsWith("https://"));
  const cookie = (value: string, clear = false) =>
    `${COOKIE}=${value}; Path=${opts.path}; HttpOnly; SameSite=Lax${secure ? "; Secure" : ""}${clear ? "; Max-Age=0" : ""}`;
  const newNonce = () => randomBytes(16).toString("base64url");

  async function userOf(token: string | undefined): Promise<PageUser | undefined> {
    if (!token) return undefined;
    try {
      const principal = await identity.resolvePrincipal(`Bearer ${token}`);
      if (principal.via !== "jwt" || !principal.sessionId) return undefined;
      const user = await getUser(deps.db, principal.userId);
      return user && { id: user.id, email: user.email, sessionId: principal.sessionId };
    } catch (e) {
      // Expired, ended or forged: the visitor is simply not signed in.
      if (e instanceof AppError && e.status === 401) return undefined;
      throw e;
    }
  }

  return {
    /**
     * The page session of a request. A GET without one begins one (`begin`); a POST never
     * does, so its CSRF check fails as it should.
     */
    async open(request: Request, begin = request.method === "GET"): Promise<PageVisit> {
      const read = readCookie(request);
      if (!read.nonce && begin) {
        const nonce = newNonce();
        return { nonce, csrf: csrfToken(key, opts.path, nonce), cookies: [cookie(nonce)] };
      }
      const nonce = read.nonce;
      return { nonce, user: await userOf(read.token), csrf: nonce ? csrfToken(key, opts.path, nonce) : "", cookies: [] };
    },

    /** 403 FORBIDDEN (meta.reason csrf) unless the form came from this page of this page session. */
    checkForm(request: Request, visit: PageVisit, form: Record<string, string>): void {
      if (!fromOwnSite(request, site) || !csrfValid(key, opts.path, visit.nonce, form.csrf)) {
        throw new AppError("FORBIDDEN", "this form did not come from this page, or the page has expired; reload it and try again", { reason: "csrf" });
      }
    },

    /**
     * Signs the visitor in (identity's sign-in, with its limits, given the device cookie the
     * browser holds for this page): the Set-Cookie of a new page session holding the new
     * identity session, and of the renewed device cookie, on the page's path. 401, 429 or
     * 503 as the sign-in gives.
     */
    async signIn(request: Request, input: { email: string; password: string; ip: string }): Promise<string[]> {
      // What could never be an account's email or password (the API's Credentials schema)
      // never reaches the database: text it cannot store (NUL) would fail there.
      if (!EMAIL.test(input.email.trim()) || input.email.length > 254 || !input.password || input.password.length > 256 || /\p{Cc}/u.test(input.email)) {
        throw new AppError("UNAUTHORIZED", "wrong email or password");
      }
      const grant = await signInWithPassword(deps, identity.signer, { ...input, deviceProof: cookieOf(request, DEVICE_COOKIE) }, notify);
      return [cookie(`${newNonce()}.${grant.accessToken}`), deviceCookie(grant.deviceProof, opts.path, secure)];
    },

    /** Ends the visitor's identity session and begins a new page session without one. */
    async signOut(visit: PageVisit): Promise<string[]> {
      if (visit.user) await logout(deps, { sessionId: visit.user.sessionId });
      return [cookie(newNonce())];
    },
  };
}
