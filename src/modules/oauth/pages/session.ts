// The page session: who is signed in on a server-rendered page, and the nonce its forms'
// CSRF tokens are bound to.
//
// Who is signed in is the browser session's: the session ticket identity sets on these
// pages' paths whenever the person signs in, on the dashboard or on either page (identity's
// session-cookies.ts). It names a session, checked to be live on every request, so one
// sign-in serves the dashboard and both pages, and a session ended anywhere ends here too.
// The nonce is the page's own cookie, and like the ticket it is
// - httpOnly: no script, not even user content served from this origin, can read it;
// - SameSite=Lax: another site's form post to the page arrives without it, so a forged
//   Approve has no session (the CSRF token and the Origin check hold as well);
// - scoped to the page's own path: the API never receives it. The API authenticates by
//   Authorization headers alone, and a cookie sent along to it (or to the media and
//   document routes on the same origin) would be ambient authority nobody asked for;
// - Secure when the service is reached over https.
// It has no Max-Age: it ends with the browser session.
import { requestCookie } from "../../../http/request-cookie.ts";
import { randomBytes } from "node:crypto";
import type { Deps } from "../../../core/deps.ts";
import { AppError } from "../../../core/errors.ts";
import { type Addresses, addressesOf } from "../../../http/addresses.ts";
import { fromOwnSite, siteRules } from "../../../http/own-site.ts";
import type { RouteServices } from "../../../wiring/services.ts";
import {
  DEVICE_COOKIE,
  deviceCookie,
  getUser,
  liveSessionUser,
  logout,
  SESSION_TICKET_COOKIE,
  sessionCookies,
  completeSignIn,
  signInWithPassword,
  passkeySignInOptions,
  relyingPartyOf,
  signInWithPasskey,
  ticketSession,
} from "../../identity/public.ts";
import { notify } from "../../notifications/public.ts";
import { csrfKey, csrfToken, csrfValid } from "./csrf.ts";
import { postedAssertion } from "./passkey.ts";

const COOKIE = "shelf_page";
const NONCE = /^[A-Za-z0-9_-]{22}$/;
const EMAIL = /^[^\s@]+@[^\s@]+$/;

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
  /** The instance's OpenID provider, when set up: its button's name, the API's start, and this page's path to come back to. */
  provider?: { name: string; start: string; path: string };
}

type Identity = Pick<RouteServices["identity"], "signer" | "resolvePrincipal">;

/** The page session's nonce; a value from before sessions moved to the ticket ("nonce.token") keeps its nonce. */
function nonceOf(request: Request): string | undefined {
  const value = requestCookie(request, COOKIE)?.split(".")[0];
  return value !== undefined && NONCE.test(value) ? value : undefined;
}

/**
 * The page sessions of the page served at `path` (as the browser sees it, at every address).
 * `pages`: the addresses the page is served at, whose forms alone may post to it.
 */
export function createPageSessions(deps: Deps, identity: Identity, opts: { path: string; pages: (a: Addresses) => string[] }) {
  const key = csrfKey(deps.config.JWT_SECRET);
  // The forms post to their own page, and carry the CSRF token: an opaque Origin (what the
  // pages' Referrer-Policy no-referrer makes a browser send) is left to the token.
  const siteOf = siteRules(deps.config, opts.pages, { crossOrigin: false, opaqueOrigin: true });
  const secureAt = (request: Request) => opts.pages(addressesOf(deps.config, request)).some((o) => o.startsWith("https://"));
  const cookie = (request: Request, value: string) => `${COOKIE}=${value}; Path=${opts.path}; HttpOnly; SameSite=Lax${secureAt(request) ? "; Secure" : ""}`;
  const newNonce = () => randomBytes(16).toString("base64url");
  /** The browser session's cookies (identity's), or with none the values that clear them. */
  const sessionOf = (request: Request, session?: { refreshToken: string; sessionId: string }) =>
    sessionCookies(deps.config, session, { secure: secureAt(request), nowMs: deps.clock.now().getTime() });

  const rpOf = (request: Request) => relyingPartyOf(deps.config, addressesOf(deps.config, request));

  async function userOf(request: Request): Promise<PageUser | undefined> {
    const sessionId = ticketSession(deps.config.JWT_SECRET, requestCookie(request, SESSION_TICKET_COOKIE), deps.clock.now().getTime());
    if (!sessionId) return undefined;
    const userId = await liveSessionUser(deps.db, sessionId);
    const user = userId ? await getUser(deps.db, userId) : undefined;
    return user && { id: user.id, email: user.email, sessionId };
  }

  return {
    /**
     * The page session of a request. A GET without one begins one (`begin`); a POST never
     * does, so its CSRF check fails as it should.
     */
    async open(request: Request, begin = request.method === "GET"): Promise<PageVisit> {
      const user = await userOf(request);
      const nonce = nonceOf(request);
      const { OIDC_ISSUER, OIDC_CLIENT_ID, OIDC_NAME } = deps.config;
      const provider =
        OIDC_ISSUER && OIDC_CLIENT_ID
          ? { name: OIDC_NAME, start: `${addressesOf(deps.config, request).PUBLIC_URL}/v1/auth/oidc/start`, path: opts.path }
          : undefined;
      if (!nonce && begin) {
        const fresh = newNonce();
        return { nonce: fresh, user, csrf: csrfToken(key, opts.path, fresh), cookies: [cookie(request, fresh)], provider };
      }
      return { nonce, user, csrf: nonce ? csrfToken(key, opts.path, nonce) : "", cookies: [], provider };
    },

    /** 403 FORBIDDEN (meta.reason csrf) unless the form came from this page of this page session. */
    checkForm(request: Request, visit: PageVisit, form: Record<string, string>): void {
      if (!fromOwnSite(request, siteOf(request)) || !csrfValid(key, opts.path, visit.nonce, form.csrf)) {
        throw new AppError("FORBIDDEN", "this form did not come from this page, or the page has expired; reload it and try again", { reason: "csrf" });
      }
    },

    /**
     * Signs the visitor in (identity's sign-in, with its limits, given the device cookie the
     * browser holds for this page): the Set-Cookie of a new page session, of the new browser
     * session (its tickets and the dashboard's refresh cookie) and of the renewed device
     * cookie on the page's path. 401, 429 or 503 as the sign-in gives.
     */
    async signIn(request: Request, input: { email: string; password: string; ip: string }): Promise<string[]> {
      // What could never be an account's email or password (the API's Credentials schema)
      // never reaches the database: text it cannot store (NUL) would fail there.
      if (!EMAIL.test(input.email.trim()) || input.email.length > 254 || !input.password || input.password.length > 256 || /\p{Cc}/u.test(input.email)) {
        throw new AppError("UNAUTHORIZED", "wrong email or password");
      }
      const grant = await signInWithPassword(
        deps,
        identity.signer,
        { ...input, userAgent: request.headers.get("user-agent") ?? undefined, deviceProof: requestCookie(request, DEVICE_COOKIE), rp: rpOf(request) },
        notify,
      );
      return [cookie(request, newNonce()), ...sessionOf(request, grant), deviceCookie(grant.deviceProof, opts.path, secureAt(request))];
    },

    /**
     * Completes a sign-in the password began with two factors on: the challenge and the code
     * or recovery code of the second form; the Set-Cookie values as signIn's. 401 for a wrong
     * code or a challenge gone, 429 or 503 as the sign-in gives.
     */
    async completeSignIn(
      request: Request,
      input: { challenge: string; code?: string; recoveryCode?: string; passkey?: string; ip: string },
    ): Promise<string[]> {
      const passkey = input.passkey ? postedAssertion(input.passkey) : undefined;
      const code = passkey ? undefined : input.code?.trim() || undefined;
      const recoveryCode = passkey || code ? undefined : input.recoveryCode?.trim() || undefined;
      if (
        !input.challenge ||
        input.challenge.length > 128 ||
        (!passkey && !code && !recoveryCode) ||
        (code?.length ?? 0) > 16 ||
        (recoveryCode?.length ?? 0) > 64
      ) {
        throw new AppError("UNAUTHORIZED", "enter the code of your authenticator app or a recovery code", { triesLeft: 1 });
      }
      const grant = await completeSignIn(
        deps,
        identity.signer,
        {
          challenge: input.challenge,
          code,
          recoveryCode,
          passkey: passkey as never,
          ip: input.ip,
          userAgent: request.headers.get("user-agent") ?? undefined,
          deviceProof: requestCookie(request, DEVICE_COOKIE),
          rp: rpOf(request),
        },
        notify,
      );
      return [cookie(request, newNonce()), ...sessionOf(request, grant), deviceCookie(grant.deviceProof, opts.path, secureAt(request))];
    },

    /**
     * The options of a passkey sign-in for this page's sign-in form, as text (a challenge of
     * five minutes); undefined when the kv cannot keep one: the password form still works.
     */
    async passkeyOptions(request: Request): Promise<string | undefined> {
      try {
        return JSON.stringify((await passkeySignInOptions(deps, rpOf(request))).options);
      } catch (e) {
        if (e instanceof AppError && e.code === "SERVICE_UNAVAILABLE") return undefined;
        throw e;
      }
    },

    /** Signs the visitor in with a passkey alone (the passkey form's answer); the Set-Cookie values as signIn's. 422 PASSKEY_INVALID, 429 or 503 as the sign-in gives. */
    async signInWithPasskey(request: Request, input: { passkey?: string; ip: string }): Promise<string[]> {
      const grant = await signInWithPasskey(
        deps,
        identity.signer,
        {
          response: postedAssertion(input.passkey) as never,
          ip: input.ip,
          userAgent: request.headers.get("user-agent") ?? undefined,
          deviceProof: requestCookie(request, DEVICE_COOKIE),
          rp: rpOf(request),
        },
        notify,
      );
      return [cookie(request, newNonce()), ...sessionOf(request, grant), deviceCookie(grant.deviceProof, opts.path, secureAt(request))];
    },

    /** Ends the visitor's browser session (the dashboard's too) and begins a new page session without one. */
    async signOut(request: Request, visit: PageVisit): Promise<string[]> {
      if (visit.user) await logout(deps, { sessionId: visit.user.sessionId });
      return [cookie(request, newNonce()), ...sessionOf(request)];
    },
  };
}
