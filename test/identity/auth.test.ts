import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { createClock } from "../../src/infra/clock.ts";
import { REFRESH_COOKIE } from "../../src/modules/identity/index.ts";
import { MAX_FAILURES_PER_ACCOUNT, MAX_FAILURES_PER_PAIR, MAX_SIGNUPS_PER_IP_HOUR } from "../../src/modules/identity/login-limit.ts";
import { getUserByEmail, login } from "../../src/modules/identity/public.ts";
import { createTokenSigner, REFRESH_TOKEN_TTL_MS, sha256Hex } from "../../src/modules/identity/tokens.ts";
import { stoppedClock } from "../helpers/clock.ts";
import { call, callJson, testContext } from "../helpers/context.ts";
import { makeUser, PASSWORD } from "../helpers/factories.ts";
import { TEST_TIMEOUT_MS } from "../helpers/timeout.ts";

setDefaultTimeout(TEST_TIMEOUT_MS);

const email = () => `s-${crypto.randomUUID()}@example.test`;
const cookieOf = (res: { headers: Headers }) => res.headers.getSetCookie().find((c) => c.startsWith(`${REFRESH_COOKIE}=`));
const cookieValue = (setCookie: string | undefined) => (setCookie ?? "").split(";")[0]!.split("=")[1] ?? "";
const withCookie = (token: string) => ({ headers: { cookie: `${REFRESH_COOKIE}=${token}` } });
const randomIp = () => `10.${Array.from(crypto.getRandomValues(new Uint8Array(3))).join(".")}`;

/** The shared app's parts with some replaced (a clock, the config, the kv), as another app. */
async function appWith(change: (deps: Awaited<ReturnType<typeof testContext>>["deps"]) => object) {
  const { services, deps } = await testContext();
  const { createApp } = await import("../../src/wiring/app.ts");
  const app = createApp({ ...services, deps: { ...deps, ...change(deps) } });
  return async (method: string, path: string, init: { json?: unknown; headers?: Record<string, string> } = {}) => {
    const headers = new Headers(init.headers);
    if (init.json !== undefined) headers.set("content-type", "application/json");
    const res = await app.handle(
      new Request(`http://shelf.test${path}`, { method, headers, body: init.json === undefined ? undefined : JSON.stringify(init.json) }),
    );
    return { status: res.status, headers: res.headers, body: (await res.text().then((t) => (t ? JSON.parse(t) : null))) as any };
  };
}
/**
 * An app behind a trusted proxy (TRUST_PROXY=true): the client address is the last X-Forwarded-For hop.
 * Its clock stands still, so no test's sign-in window ends half-way through it.
 */
const proxiedApp = () => appWith((deps) => ({ config: { ...deps.config, TRUST_PROXY: true }, clock: stoppedClock(deps.clock.nowMs()) }));

describe("POST /v1/auth/signup", () => {
  test("creates a trial account, returns a session and sets the refresh cookie", async () => {
    const e = email();
    const res = await callJson("POST", "/v1/auth/signup", { json: { email: e.toUpperCase(), password: "a good password", nickname: "Ada" } });
    expect(res.status).toBe(201);
    expect(res.body.success).toBe(true);
    expect(res.body.data.user).toEqual({ id: expect.stringMatching(/^[A-Za-z0-9_-]{21}$/), email: e, nickname: "Ada", plan: "trial", isAdmin: false });
    expect(res.body.data).toMatchObject({ firstAccount: false, notice: null });
    expect(res.body.data.expiresIn).toBe(900);
    const cookie = cookieOf(res)!;
    expect(cookie).toContain("HttpOnly");
    expect(cookie).toContain("SameSite=Lax");
    expect(cookie).toContain("Path=/v1/auth");
    expect(cookie).toContain("Max-Age=604800");
    expect(cookie).not.toContain("Secure"); // PUBLIC_URL of the tests is http
    const me = await callJson("GET", "/v1/user/me", { token: res.body.data.accessToken });
    expect(me.status).toBe(200);
    expect(me.body.data.email).toBe(e);
  });

  test("an email already registered is 409 CONFLICT, whatever its case", async () => {
    const e = email();
    expect((await call("POST", "/v1/auth/signup", { json: { email: e, password: "a good password" } })).status).toBe(201);
    const again = await callJson("POST", "/v1/auth/signup", { json: { email: e.toUpperCase(), password: "another password" } });
    expect(again.status).toBe(409);
    expect(again.body.code).toBe("CONFLICT");
  });

  test("malformed or weak input is 422 VALIDATION_ERROR", async () => {
    const cases = [
      { email: "not-an-email", password: "a good password" },
      { email: email(), password: "short" },
      { email: email(), password: "aaaaaaaaaaaa" },
      { email: email() },
      { email: email(), password: "a good password", nickname: "" },
      { email: email(), password: "x".repeat(300) },
    ];
    for (const json of cases) {
      const res = await callJson("POST", "/v1/auth/signup", { json });
      expect(res.status).toBe(422);
      expect(res.body.code).toBe("VALIDATION_ERROR");
      expect(res.body.meta.path).toStartWith("body");
    }
  });
});

describe("POST /v1/auth/login", () => {
  test("right credentials give a session; wrong email and wrong password give the same 401", async () => {
    const u = await makeUser();
    const ok = await callJson("POST", "/v1/auth/login", { json: { email: u.email, password: PASSWORD } });
    expect(ok.status).toBe(200);
    expect(ok.body.data.user.id).toBe(u.id);
    expect(cookieOf(ok)).toBeDefined();

    const wrongPassword = await callJson("POST", "/v1/auth/login", { json: { email: u.email, password: "nope nope nope" } });
    const wrongEmail = await callJson("POST", "/v1/auth/login", { json: { email: email(), password: PASSWORD } });
    expect(wrongPassword.status).toBe(401);
    expect(wrongEmail.status).toBe(401);
    expect(wrongPassword.body).toEqual(wrongEmail.body);
  });

  test("repeated failures for one email from one address are refused there with 429, even with the right password", async () => {
    const u = await makeUser();
    const send = await proxiedApp();
    const ip = randomIp();
    const login = (password: string) => send("POST", "/v1/auth/login", { json: { email: u.email, password }, headers: { "x-forwarded-for": ip } });
    for (let i = 0; i < MAX_FAILURES_PER_PAIR; i++) expect((await login("wrong password")).status).toBe(401);
    const blocked = await login(PASSWORD);
    expect(blocked.status).toBe(429);
    expect(blocked.body.code).toBe("RATE_LIMITED");
    expect(Number(blocked.headers.get("retry-after"))).toBeGreaterThan(0);
    // A 429 carries RateLimit-Limit, RateLimit-Remaining and Retry-After, here of the limit per email and address.
    expect(blocked.headers.get("ratelimit-limit")).toBe(String(MAX_FAILURES_PER_PAIR));
    expect(blocked.headers.get("ratelimit-remaining")).toBe("0");
    expect(Number(blocked.headers.get("retry-after"))).toBeLessThanOrEqual(15 * 60);
    expect(blocked.body.meta).toMatchObject({ type: "login_failures", per: "email_address", limit: MAX_FAILURES_PER_PAIR });
  });

  test("parallel wrong-password logins for one email from new addresses: at most the email's limit are checked (401), the rest are 429", async () => {
    const u = await makeUser();
    const send = await proxiedApp();
    // Each from its own address, so only the per-email limit can refuse them.
    const results = await Promise.all(
      Array.from({ length: 40 }, () =>
        send("POST", "/v1/auth/login", { json: { email: u.email, password: "wrong password" }, headers: { "x-forwarded-for": randomIp() } }),
      ),
    );
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s !== 401 && s !== 429)).toEqual([]);
    expect(statuses.filter((s) => s === 401).length).toBeLessThanOrEqual(MAX_FAILURES_PER_ACCOUNT);
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(40 - MAX_FAILURES_PER_ACCOUNT);
    for (const r of results.filter((r) => r.status === 429)) {
      expect(r.body.code).toBe("RATE_LIMITED");
      expect(r.headers.get("ratelimit-limit")).toBe(String(MAX_FAILURES_PER_ACCOUNT));
      expect(r.headers.get("ratelimit-remaining")).toBe("0");
      expect(Number(r.headers.get("retry-after"))).toBeGreaterThan(0);
    }
    // And the right password is refused too until the window passes, from an address and a browser that never signed in.
    expect((await send("POST", "/v1/auth/login", { json: { email: u.email, password: PASSWORD }, headers: { "x-forwarded-for": randomIp() } })).status).toBe(
      429,
    );
  });

  test("a successful login clears the failures of its email and address and does not count against the address", async () => {
    const u = await makeUser();
    const send = await proxiedApp();
    const ip = randomIp();
    const login = (password: string) => send("POST", "/v1/auth/login", { json: { email: u.email, password }, headers: { "x-forwarded-for": ip } });
    for (let i = 0; i < MAX_FAILURES_PER_PAIR - 1; i++) expect((await login("wrong password")).status).toBe(401);
    expect((await login(PASSWORD)).status).toBe(200);
    for (let i = 0; i < MAX_FAILURES_PER_PAIR; i++) expect((await login("wrong password")).status).toBe(401);
    expect((await login(PASSWORD)).status).toBe(429);
  });

  test("the login limiter fails closed when the kv cannot be reached", async () => {
    const { services, deps } = await testContext();
    const { createApp } = await import("../../src/wiring/app.ts");
    const down = async () => Promise.reject(new Error("redis down"));
    const brokenKv = { ...deps.kv, get: down, incr: down };
    const app = createApp({ ...services, deps: { ...deps, kv: brokenKv } });
    const u = await makeUser();
    const res = await app.handle(
      new Request("http://localhost/v1/auth/login", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ email: u.email, password: PASSWORD }),
      }),
    );
    expect(res.status).toBe(503);
    expect(((await res.json()) as any).code).toBe("SERVICE_UNAVAILABLE");
  });
});

describe("POST /v1/auth/signup limits", () => {
  test("sign-ups are limited per address; behind a proxy the address is the hop it appended, whatever the client wrote before it", async () => {
    const send = await proxiedApp();
    const ip = randomIp();
    // The client writes a new first hop each time; the proxy appends the real address last.
    const signupVia = () =>
      send("POST", "/v1/auth/signup", { json: { email: email(), password: "a good password" }, headers: { "x-forwarded-for": `${randomIp()}, ${ip}` } });
    for (let i = 0; i < MAX_SIGNUPS_PER_IP_HOUR; i++) expect((await signupVia()).status).toBe(201);
    const over = await signupVia();
    expect(over.status).toBe(429);
    expect(over.body).toMatchObject({ code: "RATE_LIMITED", meta: { type: "signups", limit: MAX_SIGNUPS_PER_IP_HOUR } });
    expect(over.headers.get("ratelimit-limit")).toBe(String(MAX_SIGNUPS_PER_IP_HOUR));
    expect(over.headers.get("ratelimit-remaining")).toBe("0");
    expect(Number(over.headers.get("retry-after"))).toBe(3600);
    // Another address is not affected.
    const other = await send("POST", "/v1/auth/signup", {
      json: { email: email(), password: "a good password" },
      headers: { "x-forwarded-for": `${ip}, ${randomIp()}` },
    });
    expect(other.status).toBe(201);
  });

  test("a refused password does not use up the address's sign-ups", async () => {
    const send = await proxiedApp();
    const ip = randomIp();
    for (let i = 0; i < MAX_SIGNUPS_PER_IP_HOUR + 5; i++) {
      const res = await send("POST", "/v1/auth/signup", { json: { email: email(), password: "zzzzzzzzzz" }, headers: { "x-forwarded-for": ip } });
      expect(res.status).toBe(422);
      expect(res.body.meta.path).toBe("body.password");
    }
    expect((await send("POST", "/v1/auth/signup", { json: { email: email(), password: "a good password" }, headers: { "x-forwarded-for": ip } })).status).toBe(
      201,
    );
  });
});

describe("refresh and logout", () => {
  test("refresh rotates the cookie and returns a new access token", async () => {
    const u = await makeUser();
    const res = await callJson("POST", "/v1/auth/refresh", withCookie(u.refreshToken));
    expect(res.status).toBe(200);
    expect(res.body.data.accessToken).toBeString();
    const next = cookieValue(cookieOf(res));
    expect(next.length).toBeGreaterThan(20);
    expect(next).not.toBe(u.refreshToken);
    expect((await call("GET", "/v1/user/me", { token: res.body.data.accessToken })).status).toBe(200);
    expect((await call("POST", "/v1/auth/refresh", withCookie(next))).status).toBe(200);
  });

  test("presenting a rotated refresh token after the reuse grace revokes the whole session", async () => {
    const u = await makeUser();
    const first = await callJson("POST", "/v1/auth/refresh", withCookie(u.refreshToken));
    const newest = cookieValue(cookieOf(first));
    // Within REFRESH_REUSE_GRACE_S it would get the same successor (test/security/refresh.test.ts).
    const { deps } = await testContext();
    deps.clock.advance((deps.config.REFRESH_REUSE_GRACE_S + 1) * 1000);
    const replay = await callJson("POST", "/v1/auth/refresh", withCookie(u.refreshToken));
    expect(replay.status).toBe(401);
    expect(replay.body.code).toBe("UNAUTHORIZED");
    // Every token of that session is now dead: the newest refresh token and the access tokens.
    expect((await call("POST", "/v1/auth/refresh", withCookie(newest))).status).toBe(401);
    expect((await call("GET", "/v1/user/me", { token: first.body.data.accessToken })).status).toBe(401);
    expect((await call("GET", "/v1/user/me", { token: u.jwt })).status).toBe(401);
  });

  test("refresh without a cookie or with garbage is 401", async () => {
    expect((await call("POST", "/v1/auth/refresh")).status).toBe(401);
    expect((await call("POST", "/v1/auth/refresh", withCookie("garbage"))).status).toBe(401);
  });

  test("logout ends the session", async () => {
    const u = await makeUser();
    const res = await call("POST", "/v1/auth/logout", withCookie(u.refreshToken));
    expect(res.status).toBe(204);
    expect(cookieOf(res)).toContain("Max-Age=0");
    expect((await call("POST", "/v1/auth/refresh", withCookie(u.refreshToken))).status).toBe(401);
    expect((await call("GET", "/v1/user/me", { token: u.jwt })).status).toBe(401);
  });

  test("logout with only the Bearer access token ends its session: 204, then the token is refused", async () => {
    const u = await makeUser();
    expect((await call("GET", "/v1/user/me", { token: u.jwt })).status).toBe(200);
    const res = await call("POST", "/v1/auth/logout", { token: u.jwt });
    expect(res.status).toBe(204);
    const after = await callJson("GET", "/v1/user/me", { token: u.jwt });
    expect(after.status).toBe(401);
    expect(after.body.code).toBe("UNAUTHORIZED");
    // The session's refresh token died with it.
    expect((await call("POST", "/v1/auth/refresh", withCookie(u.refreshToken))).status).toBe(401);
  });

  test("a refresh token expires 7 days after it was issued, on the server (401)", async () => {
    const { deps } = await testContext();
    const clock = createClock(deps.clock.now().toISOString());
    const send = await appWith(() => ({ clock }));
    const u = await makeUser();
    clock.advance(REFRESH_TOKEN_TTL_MS - 60_000);
    const stillValid = await send("POST", "/v1/auth/refresh", withCookie(u.refreshToken));
    expect(stillValid.status).toBe(200);
    const next = cookieValue(cookieOf(stillValid));
    // The rotated token has its own 7 days from its issue; a minute past them it is refused.
    clock.advance(REFRESH_TOKEN_TTL_MS + 60_000);
    const expired = await send("POST", "/v1/auth/refresh", withCookie(next));
    expect(expired.status).toBe(401);
    expect(expired.body.code).toBe("UNAUTHORIZED");
    expect(cookieOf(expired)).toContain("Max-Age=0");
  });
});

describe("access tokens", () => {
  test("an expired access token is 401 TOKEN_EXPIRED", async () => {
    const { config, deps } = await testContext();
    const u = await makeUser();
    const past = createClock(new Date(deps.clock.nowMs() - 16 * 60_000).toISOString());
    const { token } = await createTokenSigner(config.JWT_SECRET, past).sign({ userId: u.id, sessionId: crypto.randomUUID() });
    const res = await callJson("GET", "/v1/user/me", { token });
    expect(res.status).toBe(401);
    expect(res.body.code).toBe("TOKEN_EXPIRED");
  });

  test("a token signed with another secret is 401 UNAUTHORIZED", async () => {
    const { deps } = await testContext();
    const u = await makeUser();
    const { token } = await createTokenSigner("another-secret-another-secret-0123456789", deps.clock).sign({ userId: u.id, sessionId: "x" });
    const res = await callJson("GET", "/v1/user/me", { token });
    expect(res.status).toBe(401);
    expect(res.body.code).toBe("UNAUTHORIZED");
  });

  test("a token signed with the app's key but naming another user's live session, or claims that are no ids, is 401 UNAUTHORIZED", async () => {
    const { config, deps } = await testContext();
    const [owner, other] = [await makeUser(), await makeUser()];
    const liveSid = (JSON.parse(Buffer.from(owner.jwt.split(".")[1]!, "base64url").toString()) as { sid: string }).sid;
    const signer = createTokenSigner(config.JWT_SECRET, deps.clock);
    // The owner's own token passes first, so the session is in the node's cache when the others come.
    expect((await callJson("GET", "/v1/user/me", { token: owner.jwt })).status).toBe(200);
    for (const [userId, sessionId] of [
      [other.id, liveSid],
      ["abcdefghijklmnopqrstu", liveSid],
      [`${owner.id}\u0000`, liveSid],
      [owner.id, "a\u0000b"],
      [owner.id, "s".repeat(10_000)],
    ]) {
      const { token } = await signer.sign({ userId: userId!, sessionId: sessionId! });
      const res = await callJson("GET", "/v1/user/me", { token });
      expect({ userId: userId!.slice(0, 30), sessionId: sessionId!.slice(0, 30), status: res.status, code: res.body.code }).toEqual({
        userId: userId!.slice(0, 30),
        sessionId: sessionId!.slice(0, 30),
        status: 401,
        code: "UNAUTHORIZED",
      });
    }
    // The other user's data was never reachable through the owner's session.
    expect((await callJson("GET", "/v1/user/me", { token: owner.jwt })).body.data.id).toBe(owner.id);
  });

  test("the password is stored as an argon2id hash", async () => {
    const { deps } = await testContext();
    const e = email();
    await call("POST", "/v1/auth/signup", { json: { email: e, password: "a good password" } });
    const user = await getUserByEmail(deps.db, e);
    expect(user!.passwordHash).toStartWith("$argon2id$");
  });
});

test("prune-sessions removes refresh tokens a day past expiry and sessions left without one", async () => {
  const { deps, services, runner } = await testContext();
  // A login 9 days ago: its refresh token expired 2 days ago.
  const user = await getUserByEmail(deps.db, (await makeUser()).email);
  const old = await login({ ...deps, clock: stoppedClock(deps.clock.nowMs() - 9 * 86_400_000) }, services.identity.signer, user!);
  const oldSession = JSON.parse(Buffer.from(old.accessToken.split(".")[1]!, "base64url").toString()).sid as string;
  const fresh = await makeUser();
  const run = await runner.runNow("prune-sessions");
  expect(run.outcome).toBe("ok");
  // The stored rows, deliberately: gone, not merely refused.
  const { refreshTokens, sessions } = await import("../../src/modules/identity/table.ts");
  const { eq } = await import("drizzle-orm");
  expect(await deps.db.select().from(sessions).where(eq(sessions.id, oldSession))).toHaveLength(0);
  expect(
    await deps.db
      .select()
      .from(refreshTokens)
      .where(eq(refreshTokens.tokenHash, sha256Hex(old.refreshToken))),
  ).toHaveLength(0);
  expect((await call("POST", "/v1/auth/refresh", withCookie(fresh.refreshToken))).status).toBe(200);
  expect((await call("POST", "/v1/auth/refresh", withCookie(old.refreshToken))).status).toBe(401);
});

describe("a password change", () => {
  test("ends the account's other sessions (access and refresh) and keeps the one that made it", async () => {
    const { deps, services } = await testContext();
    const u = await makeUser();
    const account = await getUserByEmail(deps.db, u.email);
    const other = await login(deps, services.identity.signer, account!);
    const meWith = (token: string) => call("GET", "/v1/user/me", { token });
    expect((await meWith(other.accessToken)).status).toBe(200);

    const changed = await call("POST", "/v1/user/me/password", { token: u.jwt, json: { currentPassword: PASSWORD, newPassword: "a brand new secret" } });
    expect(changed.status).toBe(204);

    // The other session: its access token and its refresh token are refused from now on.
    expect((await meWith(other.accessToken)).status).toBe(401);
    expect((await call("POST", "/v1/auth/refresh", withCookie(other.refreshToken))).status).toBe(401);
    // The session that changed it goes on.
    expect((await meWith(u.jwt)).status).toBe(200);
    expect((await call("POST", "/v1/auth/refresh", withCookie(u.refreshToken))).status).toBe(200);
  });

  test("a wrong current password ends nothing", async () => {
    const { deps, services } = await testContext();
    const u = await makeUser();
    const other = await login(deps, services.identity.signer, (await getUserByEmail(deps.db, u.email))!);
    const res = await call("POST", "/v1/user/me/password", { token: u.jwt, json: { currentPassword: "not it at all", newPassword: "a brand new secret" } });
    expect(res.status).toBe(401);
    expect((await call("GET", "/v1/user/me", { token: other.accessToken })).status).toBe(200);
  });
});
