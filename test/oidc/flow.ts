// The OpenID sign-in tests' world: a real provider (test/helpers/oidc-provider.ts) and shelf
// apps on the shared parts set up to sign in through it, and the browser's steps between
// the two: shelf's start, the provider's forms, shelf's callback.
import { afterAll, expect } from "bun:test";
import type { Deps } from "../../src/wiring/deps.ts";
import { expectDocumented } from "../helpers/context.ts";
import { startOidcProvider, type TestProvider } from "../helpers/oidc-provider.ts";
import type { oauthApp } from "../oauth/flow.ts";
import { pageClient } from "../oauth/page-client.ts";

/**
 * A provider of the calling test file's own, stopped after its tests (a file's afterAll: a
 * provider shared by a module would stop with the first file that ran, under one `bun test`).
 */
export async function oidcProvider(): Promise<TestProvider> {
  const provider = await startOidcProvider();
  afterAll(() => provider.stop());
  return provider;
}

export const oidcConfig =
  (p: TestProvider, extra: Record<string, unknown> = {}) =>
  (deps: Deps) => ({
    config: {
      ...deps.config,
      OIDC_ISSUER: p.issuer,
      OIDC_CLIENT_ID: p.clientId,
      OIDC_CLIENT_SECRET: p.clientSecret,
      OIDC_NAME: "Testprovider",
      OIDC_SIGNUP: true,
      ...extra,
    },
  });

export type OidcApp = Awaited<ReturnType<typeof oauthApp>>;

const FIREFOX = "Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0";

let people = 0;
/** A person at the provider with a fresh subject and address. */
export function personAt(p: TestProvider, email = `p${++people}-${crypto.randomUUID().slice(0, 8)}@example.test`, verified = true) {
  const sub = `sub-${crypto.randomUUID()}`;
  p.person(sub, { email, email_verified: verified, name: "Pat Tester" });
  return { sub, email };
}

/** One browser: shelf's pages through an app (the cookie jar follows it to another node), the provider over the network. */
export function browserOf(o: OidcApp, p: TestProvider) {
  const ip = o.ip();
  const shelf = pageClient(o.app, { ip });
  const atProvider = p.browser();
  return {
    shelf,
    ip,
    /** GET /v1/auth/oidc/start: its answer. */
    start: (ret?: string) => shelf.get(`/v1/auth/oidc/start${ret === undefined ? "" : `?return=${encodeURIComponent(ret)}`}`),
    /** Start, then the provider's forms as `sub`: the callback URL the provider sends the browser to. */
    async toCallback(sub: string, ret?: string): Promise<URL> {
      const started = await shelf.get(`/v1/auth/oidc/start${ret === undefined ? "" : `?return=${encodeURIComponent(ret)}`}`);
      expect(started.status).toBe(303);
      return atProvider.signIn(started.headers.get("location")!, sub);
    },
    /** GET the callback URL on `on` (another node, say) with this browser's cookies. */
    async callback(url: URL, on: OidcApp = o) {
      const path = `${url.pathname}${url.search}`;
      const headers = new Headers({ "x-forwarded-for": ip, "user-agent": FIREFOX });
      if (shelf.jar.size) headers.set("cookie", [...shelf.jar].map(([k, v]) => `${k}=${v}`).join("; "));
      const res = await on.app.handle(new Request(`http://shelf.test${path}`, { headers }));
      await expectDocumented("GET", url.pathname, res.clone());
      for (const c of res.headers.getSetCookie()) {
        const [pair] = c.split(";");
        const eq = pair!.indexOf("=");
        if (/max-age=0/i.test(c)) shelf.jar.delete(pair!.slice(0, eq));
        else shelf.jar.set(pair!.slice(0, eq), pair!.slice(eq + 1));
      }
      return { status: res.status, location: res.headers.get("location"), html: await res.text(), cookies: res.headers.getSetCookie() };
    },
    /** The dashboard's first step with the refresh cookie this browser holds: the access token. */
    async refresh(on: OidcApp = o) {
      const res = await on.app.handle(
        new Request("http://shelf.test/v1/auth/refresh", { method: "POST", headers: { cookie: `shelf_refresh=${shelf.jar.get("shelf_refresh") ?? ""}` } }),
      );
      return { status: res.status, body: (await res.json()) as any };
    },
  };
}

/** The machine word of a refusal page (its data-reason), and the sentence it says. */
export const refusalOf = (html: string) => {
  const m = /<p class="error" role="alert" id="oidc-refused" data-reason="([^"]*)">([^<]*)<\/p>/.exec(html);
  return { reason: m?.[1], message: m?.[2] };
};
