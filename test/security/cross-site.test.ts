// Another site's page drives the victim's browser at the routes the refresh cookie acts on:
// a form it auto-submits (text/plain, so no preflight stops it) carries the victim's cookie,
// and the answer's Set-Cookie lands in the victim's browser even though the page cannot
// read it. Each attack is refused (403) with nothing done: no session ended, no cookie
// cleared, rotated or planted. The rules in full: test/identity/session-origin.test.ts.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { REFRESH_COOKIE } from "../../src/modules/identity/index.ts";
import { call, callJson } from "../helpers/context.ts";
import { makeUser, PASSWORD } from "../helpers/factories.ts";
import { TEST_TIMEOUT_MS } from "../helpers/timeout.ts";

setDefaultTimeout(TEST_TIMEOUT_MS);

const cookieOf = (res: { headers: Headers }) => res.headers.getSetCookie().find((c) => c.startsWith(`${REFRESH_COOKIE}=`));
const successorOf = (res: { headers: Headers }) => (cookieOf(res) ?? "").split(";")[0]!.split("=")[1] ?? "";

/** The headers of a form another site's page submits, as each kind of browser sends them. */
const BROWSERS: Record<string, Record<string, string>> = {
  // Sec-Fetch-* on https and localhost.
  "a current browser": { origin: "https://evil.example", "sec-fetch-site": "cross-site", "sec-fetch-mode": "navigate", "sec-fetch-dest": "document" },
  // A page on a sibling host (user content, another service of the same domain).
  "a current browser, from a sibling host": { origin: "http://evil.shelf.test", "sec-fetch-site": "same-site", "sec-fetch-mode": "navigate" },
  // No Sec-Fetch-* over plain http: Origin alone says where the form came from.
  "a browser on plain http": { origin: "https://evil.example" },
  // The attacker's page under Referrer-Policy no-referrer (or in a sandboxed frame).
  "a browser on plain http, the page hiding its origin": { origin: "null" },
};

/** An auto-submitted `<form enctype="text/plain">` posting to `path` with the victim's cookie. */
const forgedForm = (path: string, browser: Record<string, string>, refreshToken?: string, body = '{"a":"=b"}') =>
  callJson("POST", path, {
    headers: { ...browser, "content-type": "text/plain", ...(refreshToken ? { cookie: `${REFRESH_COOKIE}=${refreshToken}` } : {}) },
    body,
  });

/** The service's own dashboard refreshing, as a current browser sends it. */
const ownRefresh = (refreshToken: string) =>
  call("POST", "/v1/auth/refresh", { headers: { cookie: `${REFRESH_COOKIE}=${refreshToken}`, "sec-fetch-site": "same-origin", origin: "null" } });

describe("sign-out by another site", () => {
  for (const [browser, headers] of Object.entries(BROWSERS)) {
    test(`${browser}: the forged sign-out is 403, clears no cookie, and the session lives on (its refresh still works)`, async () => {
      const u = await makeUser();
      const res = await forgedForm("/v1/auth/logout", headers, u.refreshToken);
      expect(res.status).toBe(403);
      expect(res.body).toMatchObject({ success: false, code: "FORBIDDEN", meta: { reason: "cross_site" } });
      expect(res.headers.getSetCookie()).toEqual([]);
      expect((await call("GET", "/v1/user/me", { token: u.jwt })).status).toBe(200);
      const refreshed = await ownRefresh(u.refreshToken);
      expect(refreshed.status).toBe(200);
      expect(successorOf(refreshed)).not.toBe(u.refreshToken);
    });
  }
});

describe("refresh forced by another site", () => {
  test("a forged refresh is 403 and rotates nothing: the token the browser holds is still the session's", async () => {
    const u = await makeUser();
    for (const headers of Object.values(BROWSERS)) {
      const res = await forgedForm("/v1/auth/refresh", headers, u.refreshToken);
      expect(res.status).toBe(403);
      expect(res.headers.getSetCookie()).toEqual([]);
    }
    expect((await ownRefresh(u.refreshToken)).status).toBe(200);
  });
});

describe("signing the victim in to the attacker's account (login CSRF)", () => {
  test("a forged sign-in with the attacker's credentials plants no refresh cookie", async () => {
    const attacker = await makeUser();
    const credentials = JSON.stringify({ email: attacker.email, password: PASSWORD });
    for (const headers of Object.values(BROWSERS)) {
      const res = await forgedForm("/v1/auth/login", headers, undefined, credentials);
      expect(res.status).toBe(403);
      expect(cookieOf(res)).toBeUndefined();
    }
  });
});
