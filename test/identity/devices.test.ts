// The owner's list of signed-in devices (GET /v1/user/me/sessions) and signing them out,
// one (DELETE .../:id) or all but the asking one (DELETE /v1/user/me/sessions): what each
// session shows, that an ended session is refused at once, and that nobody else's is reachable.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { REFRESH_COOKIE } from "../../src/modules/identity/index.ts";
import { deviceName } from "../../src/modules/identity/devices.ts";
import { createApp } from "../../src/wiring/app.ts";
import { call, callJson, testContext } from "../helpers/context.ts";
import { makeKey, makeUser, PASSWORD } from "../helpers/factories.ts";
import { TEST_TIMEOUT_MS } from "../helpers/timeout.ts";

setDefaultTimeout(TEST_TIMEOUT_MS);

const FIREFOX = "Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0";
const IPHONE = "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1";

/** Signs in as a browser with this User-Agent does: its access token and refresh cookie. */
async function signIn(email: string, userAgent: string) {
  const res = await callJson("POST", "/v1/auth/login", { json: { email, password: PASSWORD }, headers: { "user-agent": userAgent } });
  expect(res.status).toBe(200);
  const cookie = res.headers.getSetCookie().find((c) => c.startsWith(`${REFRESH_COOKIE}=`))!;
  return { jwt: res.body.data.accessToken as string, refreshToken: cookie.split(";")[0]!.split("=")[1]! };
}

describe("signed-in devices", () => {
  test("each live session with its device, address, sign-in and last use, newest first; the asking one marked current", async () => {
    const { deps } = await testContext();
    const u = await makeUser();
    deps.clock.advance(5);
    const laptop = await signIn(u.email, FIREFOX);
    deps.clock.advance(5);
    const phone = await signIn(u.email, IPHONE);

    const list = await callJson("GET", "/v1/user/me/sessions", { token: laptop.jwt });
    expect(list.status).toBe(200);
    expect(list.body.success).toBe(true);
    const items = list.body.data.items as Array<Record<string, unknown>>;
    expect(items).toHaveLength(3);
    expect(items.map((s) => s.device)).toEqual(["Safari 17 on iOS", "Firefox 133 on Linux", null]);
    expect(items.map((s) => s.current)).toEqual([false, true, false]);
    expect(items[1]!.userAgent).toBe(FIREFOX);
    // Through app.handle there is no socket to read an address from: none is shown.
    expect(items[1]!.address).toBeNull();
    expect(items[1]!.lastUsedAt).toBe(items[1]!.createdAt);
    expect(list.body.data.nextCursor).toBeNull();

    // A refresh is a use: it moves the session's last use, not its sign-in.
    deps.clock.advance(60_000);
    const refreshed = await call("POST", "/v1/auth/refresh", { headers: { cookie: `${REFRESH_COOKIE}=${phone.refreshToken}` } });
    expect(refreshed.status).toBe(200);
    const after = (await callJson("GET", "/v1/user/me/sessions", { token: laptop.jwt })).body.data.items;
    expect(Date.parse(after[0].lastUsedAt) - Date.parse(after[0].createdAt)).toBeGreaterThanOrEqual(60_000);
  });

  test("the address is the client's (behind a trusted proxy, its X-Forwarded-For), at sign-in and then at each refresh", async () => {
    const { services, deps } = await testContext();
    const app = createApp({ ...services, deps: { ...deps, config: { ...deps.config, TRUST_PROXY: true } } });
    const u = await makeUser();
    const login = await callJson("POST", "/v1/auth/login", {
      app,
      json: { email: u.email, password: PASSWORD },
      headers: { "user-agent": FIREFOX, "x-forwarded-for": "203.0.113.7" },
    });
    const jwt = login.body.data.accessToken as string;
    const cookie = login.headers
      .getSetCookie()
      .find((c) => c.startsWith(`${REFRESH_COOKIE}=`))!
      .split(";")[0]!;
    const current = async () =>
      (await callJson("GET", "/v1/user/me/sessions", { app, token: jwt })).body.data.items.find((s: { current: boolean }) => s.current);
    expect((await current()).address).toBe("203.0.113.7");
    expect((await call("POST", "/v1/auth/refresh", { app, headers: { cookie, "x-forwarded-for": "198.51.100.2" } })).status).toBe(200);
    expect((await current()).address).toBe("198.51.100.2");
  });

  test("pages through the one cursor", async () => {
    const u = await makeUser();
    for (let i = 0; i < 2; i++) await signIn(u.email, FIREFOX);
    const first = await callJson("GET", "/v1/user/me/sessions?limit=2", { token: u.jwt });
    expect(first.body.data.items).toHaveLength(2);
    const rest = await callJson("GET", `/v1/user/me/sessions?limit=2&cursor=${encodeURIComponent(first.body.data.nextCursor)}`, { token: u.jwt });
    expect(rest.body.data.items).toHaveLength(1);
    const ids = [...first.body.data.items, ...rest.body.data.items].map((s: { id: string }) => s.id);
    expect(new Set(ids).size).toBe(3);
  });

  test("signing one device out ends its session at once: its token and refresh cookie are refused, the list no longer shows it", async () => {
    const u = await makeUser();
    const laptop = await signIn(u.email, FIREFOX);
    const phone = await signIn(u.email, IPHONE);
    const list = (await callJson("GET", "/v1/user/me/sessions", { token: laptop.jwt })).body.data.items;
    const phoneId = list.find((s: { device: string }) => s.device === "Safari 17 on iOS").id;

    expect((await call("DELETE", `/v1/user/me/sessions/${phoneId}`, { token: laptop.jwt })).status).toBe(204);
    expect((await call("GET", "/v1/user/me", { token: phone.jwt })).status).toBe(401);
    expect((await call("POST", "/v1/auth/refresh", { headers: { cookie: `${REFRESH_COOKIE}=${phone.refreshToken}` } })).status).toBe(401);
    const left = (await callJson("GET", "/v1/user/me/sessions", { token: laptop.jwt })).body.data.items.map((s: { id: string }) => s.id);
    expect(left).not.toContain(phoneId);
    // Ended already: 404, as any id that is not a live session of the account.
    const again = await callJson("DELETE", `/v1/user/me/sessions/${phoneId}`, { token: laptop.jwt });
    expect(again.status).toBe(404);
    expect(again.body.code).toBe("NOT_FOUND");
  });

  test("signing out every other device keeps the asking one", async () => {
    const u = await makeUser();
    const laptop = await signIn(u.email, FIREFOX);
    const phone = await signIn(u.email, IPHONE);
    const ended = await callJson("DELETE", "/v1/user/me/sessions", { token: laptop.jwt });
    expect(ended.status).toBe(200);
    expect(ended.body.data).toEqual({ ended: 2 });
    expect((await call("GET", "/v1/user/me", { token: laptop.jwt })).status).toBe(200);
    expect((await call("GET", "/v1/user/me", { token: phone.jwt })).status).toBe(401);
    expect((await call("GET", "/v1/user/me", { token: u.jwt })).status).toBe(401);
    const left = (await callJson("GET", "/v1/user/me/sessions", { token: laptop.jwt })).body.data.items;
    expect(left.map((s: { current: boolean }) => s.current)).toEqual([true]);
  });

  test("another account's session is not found, and stays signed in", async () => {
    const owner = await makeUser();
    const other = await makeUser();
    const theirs = (await callJson("GET", "/v1/user/me/sessions", { token: other.jwt })).body.data.items[0].id;
    const res = await callJson("DELETE", `/v1/user/me/sessions/${theirs}`, { token: owner.jwt });
    expect(res.status).toBe(404);
    expect((await call("GET", "/v1/user/me", { token: other.jwt })).status).toBe(200);
    const mine = (await callJson("GET", "/v1/user/me/sessions", { token: owner.jwt })).body.data.items.map((s: { id: string }) => s.id);
    expect(mine).not.toContain(theirs);
  });

  test("an API key cannot see or end sign-ins (403)", async () => {
    const u = await makeUser();
    const { key } = await makeKey(u);
    for (const [method, path] of [
      ["GET", "/v1/user/me/sessions"],
      ["DELETE", "/v1/user/me/sessions"],
    ] as const) {
      const res = await callJson(method, path, { token: key });
      expect(res.status).toBe(403);
      expect(res.body.success).toBe(false);
    }
  });

  test("a device's name is read from its User-Agent, or is null", () => {
    expect(deviceName(FIREFOX)).toBe("Firefox 133 on Linux");
    expect(deviceName(null)).toBeNull();
    expect(deviceName("")).toBeNull();
    expect(deviceName("curl/8.5.0")).not.toBe("");
  });
});
