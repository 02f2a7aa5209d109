// Who may make the routes the refresh cookie acts on (sign-up, sign-in, refresh, sign-out)
// act: the service's own pages (Sec-Fetch-Site same-origin, or an Origin of PUBLIC_URL or
// CENTER_URL) and clients that are no browser (neither header). What another site's page
// makes a browser send is refused; the attacks themselves are test/security/cross-site.test.ts.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { REFRESH_COOKIE } from "../../src/modules/identity/index.ts";
import { createApp } from "../../src/wiring/app.ts";
import { call, callJson, testContext } from "../helpers/context.ts";
import { makeUser, PASSWORD } from "../helpers/factories.ts";
import { TEST_TIMEOUT_MS } from "../helpers/timeout.ts";

setDefaultTimeout(TEST_TIMEOUT_MS);

const cookieOf = (res: { headers: Headers }) => res.headers.getSetCookie().find((c) => c.startsWith(`${REFRESH_COOKIE}=`));
const successorOf = (res: { headers: Headers }) => (cookieOf(res) ?? "").split(";")[0]!.split("=")[1] ?? "";
const withCookie = (token: string, headers: Record<string, string> = {}) => ({ headers: { cookie: `${REFRESH_COOKIE}=${token}`, ...headers } });

/** What a browser sends on a call of a page at PUBLIC_URL to its own origin. */
const SAME_ORIGIN = { "sec-fetch-site": "same-origin", origin: "http://shelf.test" };

describe("refresh and sign-out: the service's own pages and non-browser clients", () => {
  test("same-origin (as the dashboard sends it, Origin null under its no-referrer policy included): refresh rotates, sign-out ends the session", async () => {
    const u = await makeUser();
    const refreshed = await call("POST", "/v1/auth/refresh", withCookie(u.refreshToken, { "sec-fetch-site": "same-origin", origin: "null" }));
    expect(refreshed.status).toBe(200);
    const next = successorOf(refreshed);
    expect(next).not.toBe(u.refreshToken);
    const out = await call("POST", "/v1/auth/logout", withCookie(next, SAME_ORIGIN));
    expect(out.status).toBe(204);
    expect(cookieOf(out)).toContain("Max-Age=0");
    expect((await call("POST", "/v1/auth/refresh", withCookie(next))).status).toBe(401);
  });

  test("a browser that sends no Sec-Fetch-Site (plain http) with the service's own Origin is let in", async () => {
    const u = await makeUser();
    const refreshed = await call("POST", "/v1/auth/refresh", withCookie(u.refreshToken, { origin: "http://shelf.test" }));
    expect(refreshed.status).toBe(200);
    expect((await call("POST", "/v1/auth/logout", withCookie(successorOf(refreshed), { origin: "http://shelf.test" }))).status).toBe(204);
  });

  test("a client with neither header (curl, scripts) refreshes and signs out", async () => {
    const u = await makeUser();
    const refreshed = await call("POST", "/v1/auth/refresh", withCookie(u.refreshToken));
    expect(refreshed.status).toBe(200);
    expect((await call("POST", "/v1/auth/logout", withCookie(successorOf(refreshed)))).status).toBe(204);
    expect((await call("GET", "/v1/user/me", { token: u.jwt })).status).toBe(401);
  });

  test("sign-in and sign-up from the service's own page are let in; from another site they are 403 and set no cookie", async () => {
    const u = await makeUser();
    const own = await call("POST", "/v1/auth/login", { json: { email: u.email, password: PASSWORD }, headers: SAME_ORIGIN });
    expect(own.status).toBe(200);
    expect(cookieOf(own)).toContain("Max-Age=604800");
    const foreign = { "sec-fetch-site": "cross-site", origin: "https://evil.example" };
    const login = await call("POST", "/v1/auth/login", { json: { email: u.email, password: PASSWORD }, headers: foreign });
    expect(login.status).toBe(403);
    expect(cookieOf(login)).toBeUndefined();
    const email = `o-${crypto.randomUUID()}@example.test`;
    const signup = await callJson("POST", "/v1/auth/signup", { json: { email, password: "a good password" }, headers: foreign });
    expect(signup.status).toBe(403);
    expect(signup.body).toMatchObject({ code: "FORBIDDEN", meta: { reason: "cross_site" } });
    // Refused before anything was done: the address is still free.
    expect((await call("POST", "/v1/auth/signup", { json: { email, password: "a good password" } })).status).toBe(201);
  });
});

describe("what counts as another site", () => {
  test("Sec-Fetch-Site cross-site or same-site from another origin, none on a POST, or without Sec-Fetch-Site an Origin not the service's (null included): 403, the session untouched", async () => {
    const u = await makeUser();
    const foreign: Record<string, string>[] = [
      { "sec-fetch-site": "cross-site", origin: "https://evil.example" },
      { "sec-fetch-site": "same-site", origin: "http://uploads.shelf.test" },
      { "sec-fetch-site": "cross-site" },
      // No page sends a POST marked as typed by the user.
      { "sec-fetch-site": "none" },
      { origin: "https://evil.example" },
      { origin: "http://shelf.test.evil.example" },
      { origin: "null" },
    ];
    for (const headers of foreign) {
      for (const path of ["/v1/auth/refresh", "/v1/auth/logout"]) {
        const res = await callJson("POST", path, withCookie(u.refreshToken, headers));
        expect(res.status, `${path} ${JSON.stringify(headers)}`).toBe(403);
        expect(res.body).toMatchObject({ success: false, code: "FORBIDDEN", meta: { reason: "cross_site" } });
        expect(res.body.error).toContain("another site");
        expect(cookieOf(res)).toBeUndefined();
      }
    }
    // Neither rotated nor ended: the refresh token is the one issued.
    expect((await call("POST", "/v1/auth/refresh", withCookie(u.refreshToken, SAME_ORIGIN))).status).toBe(200);
  });

  test("with the dashboard at a CENTER_URL of its own, its origin may call (same-site or cross-site); another origin may not", async () => {
    const { services, deps } = await testContext();
    const app = createApp({ ...services, deps: { ...deps, config: { ...deps.config, CENTER_URL: "https://center.example/app" } } });
    const u = await makeUser();
    const send = (token: string, headers: Record<string, string>) =>
      call("POST", "/v1/auth/refresh", { app, headers: { cookie: `${REFRESH_COOKIE}=${token}`, ...headers } });
    const fromCenter = await send(u.refreshToken, { "sec-fetch-site": "cross-site", origin: "https://center.example" });
    expect(fromCenter.status).toBe(200);
    const plainHttp = await send(successorOf(fromCenter), { origin: "https://center.example" });
    expect(plainHttp.status).toBe(200);
    expect((await send(successorOf(plainHttp), { "sec-fetch-site": "cross-site", origin: "https://centre.example" })).status).toBe(403);
  });

  test("a sign-out by the Bearer access token alone is held to the same rule: from another site 403 and the session lives", async () => {
    const u = await makeUser();
    const foreign = await call("POST", "/v1/auth/logout", { token: u.jwt, headers: { "sec-fetch-site": "cross-site", origin: "https://evil.example" } });
    expect(foreign.status).toBe(403);
    expect((await call("GET", "/v1/user/me", { token: u.jwt })).status).toBe(200);
    expect((await call("POST", "/v1/auth/logout", { token: u.jwt })).status).toBe(204);
    expect((await call("GET", "/v1/user/me", { token: u.jwt })).status).toBe(401);
  });
});
