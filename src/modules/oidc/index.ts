// Signing in through the instance's OpenID provider (OIDC_ISSUER): the two browser steps
// (start: to the provider; callback: back, checked, signed in) and the owner's linked
// identities (/v1/user/me/identities). Nothing of a login in progress is in a process's
// memory (logins.ts): a callback may come to any api node.
import { Elysia, t } from "elysia";
import { AppError } from "../../core/errors.ts";
import { addressesOf } from "../../http/addresses.ts";
import { clientIp } from "../../http/client-ip.ts";
import { requestCookie } from "../../http/request-cookie.ts";
import { outageError, requestIdOf } from "../../http/core.ts";
import { NoContent, Ok, ok, sharedModels } from "../../http/envelope.ts";
import { OWN_PATHS } from "../../http/openapi.ts";
import { ID_PATTERN } from "../../infra/ids.ts";
import type { RouteServices } from "../../wiring/services.ts";
import { createLoginLimiter, DEVICE_COOKIE, deviceCookie, relyingPartyOf, sessionCookies, signInThroughProvider, ticketPaths } from "../identity/public.ts";
import { accountFor, listIdentities, unlinkIdentity } from "./accounts.ts";
import { oidcPageDocumentation } from "./docs.ts";
import { BROWSER_COOKIE, beginLogin, COOKIE_PATH, LOGIN_TTL_MS, takeLogin } from "./logins.ts";
import { IdentityListQuery, IdentityPage } from "./model.ts";
import { refusalPage, seeOther } from "./page.ts";
import { createProvider } from "./provider.ts";

/** Starts one IP may make a minute: each holds a login in the kv for ten minutes. */
const STARTS_PER_MINUTE = 30;
const CALLBACK_PATH = "/v1/auth/oidc/callback";

const signInController = ({ deps, identity, notify }: RouteServices) => {
  const provider = createProvider(deps);
  const limiter = createLoginLimiter(deps.kv, deps.clock);
  const [consentPath, devicePath] = ticketPaths(deps.config) as [string, string];

  const at = (request: Request) => addressesOf(deps.config, request);
  const secureAt = (request: Request) => at(request).PUBLIC_URL.startsWith("https://");
  const browserCookie = (request: Request, value: string, maxAgeS: number) =>
    `${BROWSER_COOKIE}=${value}; Path=${new URL(at(request).PUBLIC_URL).pathname.replace(/\/+$/, "")}${COOKIE_PATH}; Max-Age=${maxAgeS}; HttpOnly; SameSite=Lax${secureAt(request) ? "; Secure" : ""}`;
  const dashboard = (request: Request, fragment: string) => `${at(request).CENTER_URL}/#/${fragment}`;

  /**
   * Where a sign-in goes back to: the consent or device page it was begun on (`return`, that
   * page's path and query, at that page's address), else the dashboard. Anything else is the
   * dashboard: never another site.
   */
  function returnOf(request: Request, given: string | undefined): string {
    const a = at(request);
    if (given && given.length <= 4096 && !/[\s\\#]/.test(given)) {
      for (const [path, base] of [
        [consentPath, a.PUBLIC_URL],
        [devicePath, a.CENTER_URL],
      ] as const) {
        if (given === path || given.startsWith(`${path}?`)) {
          const url = new URL(given, new URL(base).origin);
          if (url.pathname === path) return url.href;
        }
      }
    }
    return dashboard(request, "library");
  }

  /** A refusal said on a page, with the way back to where the sign-in began; other failures as every route's. */
  async function answer(request: Request, back: () => string, run: () => Promise<Response>): Promise<Response> {
    try {
      return await run();
    } catch (caught) {
      const e = outageError(caught, request, requestIdOf(request), deps.log) ?? caught;
      if (!(e instanceof AppError)) throw e;
      const page = refusalPage(
        e.status,
        { message: e.message, reason: String(e.meta.reason ?? e.code.toLowerCase()) },
        { href: back(), label: "Back to sign in" },
        [browserCookie(request, "", 0)],
      );
      if (e.headers["retry-after"]) page.headers.set("retry-after", e.headers["retry-after"]);
      return page;
    }
  }

  const documented = { hide: true, [OWN_PATHS]: oidcPageDocumentation };
  return new Elysia({ name: "oidc-sign-in" })
    .get(
      "/v1/auth/oidc/start",
      ({ request, server }) => {
        const query = new URL(request.url).searchParams;
        const returnTo = returnOf(request, query.get("return") ?? undefined);
        const back = () => (returnTo.startsWith(dashboard(request, "")) ? dashboard(request, "signin") : returnTo);
        return answer(request, back, async () => {
          if (!provider.issuer) throw new AppError("NOT_FOUND", "signing in through an OpenID provider is not set up on this server", { entity: "oidc" });
          const ip = clientIp(request, server, deps.config.TRUST_PROXY);
          const window = await deps.kv.slidingWindow(`oidc-start:${ip}`, STARTS_PER_MINUTE, 60_000, deps.clock.nowMs()).catch(() => null);
          if (window && !window.allowed)
            throw new AppError("RATE_LIMITED", "too many sign-ins begun from this address; wait a minute", {}, { "retry-after": "60" });
          const redirectUri = `${at(request).PUBLIC_URL}${CALLBACK_PATH}`;
          const { login, browser } = await beginLogin(deps, { redirectUri, returnTo, issuer: provider.issuer });
          const url = await provider.authorizationUrl({ ...login, scope: deps.config.OIDC_SCOPES });
          return seeOther(url.href, [browserCookie(request, browser, LOGIN_TTL_MS / 1000)]);
        });
      },
      { detail: documented },
    )
    .get(
      CALLBACK_PATH,
      async ({ request, server }) => {
        let back = () => dashboard(request, "signin");
        return answer(
          request,
          () => back(),
          async () => {
            if (!provider.issuer) throw new AppError("NOT_FOUND", "signing in through an OpenID provider is not set up on this server", { entity: "oidc" });
            const params = new URL(request.url).searchParams;
            const login = await takeLogin(deps, params.get("state"), requestCookie(request, BROWSER_COOKIE));
            if (!login.returnTo.startsWith(dashboard(request, ""))) back = () => login.returnTo;
            if (login.issuer !== provider.issuer)
              throw new AppError("BAD_REQUEST", "the sign-in provider changed meanwhile; start the sign-in again", { reason: "issuer" });
            const callbackUrl = new URL(login.redirectUri);
            callbackUrl.search = params.toString();
            const claims = await provider.exchange(callbackUrl, login);
            const ip = clientIp(request, server, deps.config.TRUST_PROXY);
            const { user } = await accountFor(deps, claims, () => limiter.assertSignupAllowed(ip));
            const clear = browserCookie(request, "", 0);
            try {
              const grant = await signInThroughProvider(
                deps,
                identity.signer,
                user,
                {
                  ip,
                  userAgent: request.headers.get("user-agent") ?? undefined,
                  deviceProof: requestCookie(request, DEVICE_COOKIE),
                  rp: relyingPartyOf(deps.config, at(request)),
                },
                notify,
              );
              const cookies = sessionCookies(deps.config, grant, { secure: secureAt(request), nowMs: deps.clock.nowMs() });
              return seeOther(login.returnTo, [clear, ...cookies, deviceCookie(grant.deviceProof, "/v1/auth/login", secureAt(request))]);
            } catch (e) {
              // Two factors on: the dashboard asks for the code, then goes back where the sign-in began.
              if (!(e instanceof AppError) || e.code !== "TWO_FACTOR_REQUIRED") throw e;
              const next = new URL(login.returnTo);
              const sameSite = next.origin === new URL(at(request).CENTER_URL).origin && !login.returnTo.startsWith(dashboard(request, ""));
              // The methods the account has, and a passkey's options, ride in the fragment (never sent to a server).
              const fragment = new URLSearchParams({
                challenge: String(e.meta.challenge),
                methods: (e.meta.methods as string[]).join(","),
                ...(e.meta.passkey ? { passkey: Buffer.from(JSON.stringify(e.meta.passkey)).toString("base64url") } : {}),
                ...(sameSite ? { next: `${next.pathname}${next.search}` } : {}),
              });
              return seeOther(dashboard(request, `sign-in-code?${fragment}`), [clear]);
            }
          },
        );
      },
      { detail: { hide: true } },
    );
};

const identitiesController = ({ deps, guard }: RouteServices) =>
  new Elysia({ name: "oidc-identities", detail: { tags: ["account"] } })
    .use(sharedModels)
    .use(guard)
    .get(
      "/v1/user/me/identities",
      async ({ principal, query }) => ok(await listIdentities(deps, principal.userId, { cursor: query.cursor, limit: query.limit ?? 20 })),
      {
        auth: { scope: "session", tier: "read" },
        query: IdentityListQuery,
        response: { 200: Ok(IdentityPage), 400: "Error" },
        detail: {
          summary: "The account's identities at the instance's OpenID provider: each one signs in to this account, newest first",
          description:
            "Signed-in sessions only (an API key or OAuth token gets 403). An identity is linked by its first sign-in through the provider (GET /v1/auth/oidc/start): to the account with the same address when the provider says the address is verified, or to the account that sign-in made.",
        },
      },
    )
    .delete(
      "/v1/user/me/identities/:id",
      async ({ principal, params, status }) => {
        await unlinkIdentity(deps, principal.userId, params.id);
        return status(204, undefined);
      },
      {
        auth: { scope: "session", tier: "mutation" },
        params: t.Object({ id: t.String({ pattern: ID_PATTERN }) }),
        response: { 204: NoContent, 404: "Error", 409: "Error" },
        detail: {
          summary: "Unlink an identity: it no longer signs in to this account (its next sign-in links again by the rules of a first one)",
          description:
            "404 NOT_FOUND for an identity not of this account. 409 CONFLICT (meta.reason last_sign_in) when it is the account's only way to sign in: an account made through the provider has no password until it sets one (POST /v1/auth/password-reset mails a link).",
        },
      },
    );

export const oidcModule = (services: RouteServices) => new Elysia({ name: "oidc" }).use(signInController(services)).use(identitiesController(services));
