// Two factors with TOTP and recovery codes: enrolment and its confirmation, sign-in in two
// steps (the password's challenge, then a code), replay of a code, recovery codes used once,
// the tries a challenge allows, API keys unaffected, and the OAuth consent and device pages
// asking for the code. Codes come from the otpauth library's generator at the app's clock.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { call, callJson } from "../helpers/context.ts";
import { makeKey, type TestUser } from "../helpers/factories.ts";
import { MAX_CHALLENGE_TRIES } from "../../src/modules/identity/sign-in.ts";
import { totpOf } from "../../src/modules/identity/two-factor.ts";
import { authorizeQuery, formFields, pkce } from "../oauth/authorize-steps.ts";
import { oauthApp } from "../oauth/flow.ts";
import { fieldOf, pageClient } from "../oauth/page-client.ts";
import { TEST_TIMEOUT_MS } from "../helpers/timeout.ts";

setDefaultTimeout(TEST_TIMEOUT_MS);

const o = await oauthApp();
const STEP_MS = 30_000;

/** The code the authenticator app shows now, on the app's clock (or `atMs`). */
const codeAt = (secret: string, atMs = o.deps.clock.nowMs()) => totpOf(secret, "x").generate({ timestamp: atMs });
/** Moves the clock to the next time step, so that a new code may be used. */
const nextStep = () => o.clock.advance(STEP_MS);

const as = (user: TestUser, method: string, path: string, json?: unknown) => callJson(method, path, { app: o.app, token: user.jwt, json });
const login = (email: string, password: string, from = o.ip()) =>
  callJson("POST", "/v1/auth/login", { app: o.app, json: { email, password }, headers: { "x-forwarded-for": from } });
const second = (body: Record<string, string>, from = o.ip()) =>
  callJson("POST", "/v1/auth/login/2fa", { app: o.app, json: body, headers: { "x-forwarded-for": from } });
const kinds = async (user: TestUser) => (await as(user, "GET", "/v1/notifications")).body.data.items.map((i: { kind: string }) => i.kind) as string[];

/** A user with two factors on: its secret and recovery codes. */
async function enrolled() {
  const user = await o.makeUser();
  const enrol = await as(user, "POST", "/v1/user/me/2fa/totp");
  expect(enrol.status).toBe(200);
  const { secret } = enrol.body.data as { secret: string };
  const confirmed = await as(user, "POST", "/v1/user/me/2fa/totp/confirm", { code: codeAt(secret) });
  expect(confirmed.status).toBe(200);
  nextStep();
  return { user, secret, recoveryCodes: confirmed.body.data.recoveryCodes as string[] };
}

/** The challenge of a right password for a user with two factors on. */
async function challengeOf(user: TestUser) {
  const res = await login(user.email, user.password);
  expect(res.status).toBe(401);
  expect(res.body.code).toBe("TWO_FACTOR_REQUIRED");
  return res.body.meta.challenge as string;
}

describe("enrolment", () => {
  test("a secret pending until confirmed with a code; then ten recovery codes, the profile says so, the owner is told", async () => {
    const user = await o.makeUser();
    expect((await as(user, "GET", "/v1/user/me")).body.data.twoFactor).toEqual({ totp: false, recoveryCodesLeft: 0 });
    const enrol = await as(user, "POST", "/v1/user/me/2fa/totp");
    expect(enrol.status).toBe(200);
    const { secret, otpauthUrl } = enrol.body.data;
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(otpauthUrl).toStartWith("otpauth://totp/shelf:");
    expect(otpauthUrl).toContain(`secret=${secret}`);
    expect(enrol.body.data.qrCode).toStartWith("data:image/svg+xml;base64,");
    expect(Buffer.from(enrol.body.data.qrCode.split(",")[1], "base64").toString()).toStartWith("<svg");
    // Pending: the password alone still signs in.
    expect((await login(user.email, user.password)).status).toBe(200);

    const wrong = await as(user, "POST", "/v1/user/me/2fa/totp/confirm", { code: codeAt(secret, o.deps.clock.nowMs() + 10 * STEP_MS) });
    expect(wrong.status).toBe(422);
    expect(wrong.body.code).toBe("VALIDATION_ERROR");

    const ok = await as(user, "POST", "/v1/user/me/2fa/totp/confirm", { code: codeAt(secret) });
    expect(ok.status).toBe(200);
    const codes = ok.body.data.recoveryCodes as string[];
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    expect((await as(user, "GET", "/v1/user/me")).body.data.twoFactor).toEqual({ totp: true, recoveryCodesLeft: 10 });
    expect(await kinds(user)).toContain("two_factor_enabled");
    // Enrolling again while it is on is refused.
    expect((await as(user, "POST", "/v1/user/me/2fa/totp")).status).toBe(409);
  });

  test("turning it off takes the password or a current code; the owner is told; the password alone signs in again", async () => {
    const { user, secret } = await enrolled();
    const wrongPassword = await callJson("DELETE", "/v1/user/me/2fa", { app: o.app, token: user.jwt, json: { password: "not the password" } });
    expect(wrongPassword.status).toBe(401);
    const wrongCode = await callJson("DELETE", "/v1/user/me/2fa", { app: o.app, token: user.jwt, json: { code: "000000" } });
    expect(wrongCode.status).toBe(422);
    const off = await call("DELETE", "/v1/user/me/2fa", { app: o.app, token: user.jwt, json: { code: codeAt(secret) } });
    expect(off.status).toBe(204);
    expect((await as(user, "GET", "/v1/user/me")).body.data.twoFactor).toEqual({ totp: false, recoveryCodesLeft: 0 });
    expect(await kinds(user)).toContain("two_factor_disabled");
    expect((await login(user.email, user.password)).status).toBe(200);

    const again = await enrolled().then((e) => e.user);
    expect((await call("DELETE", "/v1/user/me/2fa", { app: o.app, token: again.jwt, json: { password: again.password } })).status).toBe(204);
  });

  test("new recovery codes for a current code; the old ones stop working", async () => {
    const { user, secret, recoveryCodes } = await enrolled();
    const fresh = await as(user, "POST", "/v1/user/me/2fa/recovery-codes", { code: codeAt(secret) });
    expect(fresh.status).toBe(200);
    expect(fresh.body.data.recoveryCodes).toHaveLength(10);
    const old = await second({ challenge: await challengeOf(user), recoveryCode: recoveryCodes[0]! });
    expect(old.status).toBe(401);
    const used = await second({ challenge: await challengeOf(user), recoveryCode: fresh.body.data.recoveryCodes[0] });
    expect(used.status).toBe(200);
  });

  test("wrong codes on the signed-in routes are limited per account", async () => {
    const { user } = await enrolled();
    const answers: number[] = [];
    for (let i = 0; i < 6; i++) answers.push((await as(user, "POST", "/v1/user/me/2fa/recovery-codes", { code: "000000" })).status);
    expect(answers).toEqual([422, 422, 422, 422, 422, 429]);
  });

  test("an API key cannot enrol or turn two factors off: they are for signed-in sessions", async () => {
    const user = await o.makeUser();
    const { key } = await makeKey(user);
    expect((await callJson("POST", "/v1/user/me/2fa/totp", { app: o.app, token: key })).status).toBe(403);
    expect((await callJson("DELETE", "/v1/user/me/2fa", { app: o.app, token: key, json: { password: user.password } })).status).toBe(403);
  });
});

describe("sign-in with two factors", () => {
  test("the right password opens no session: a challenge, then the code completes it with the login's cookies", async () => {
    const { user, secret } = await enrolled();
    const res = await login(user.email, user.password);
    expect(res.status).toBe(401);
    expect(res.body.code).toBe("TWO_FACTOR_REQUIRED");
    expect(res.body.meta.expiresIn).toBe(300);
    expect(res.headers.getSetCookie().filter((c) => c.startsWith("shelf_refresh=") && !/max-age=0/i.test(c))).toEqual([]);
    const done = await second({ challenge: res.body.meta.challenge, code: codeAt(secret) });
    expect(done.status).toBe(200);
    expect(done.body.data.user.id).toBe(user.id);
    expect(typeof done.body.data.accessToken).toBe("string");
    const cookies = done.headers.getSetCookie();
    expect(cookies.some((c) => c.startsWith("shelf_refresh=") && !/max-age=0/i.test(c))).toBe(true);
    expect(cookies.some((c) => c.startsWith("shelf_device="))).toBe(true);
    const me = await callJson("GET", "/v1/user/me", { app: o.app, token: done.body.data.accessToken });
    expect(me.status).toBe(200);
  });

  test("a wrong password gets no challenge", async () => {
    const { user } = await enrolled();
    const res = await login(user.email, "not the password");
    expect(res.status).toBe(401);
    expect(res.body.code).toBe("UNAUTHORIZED");
    expect(res.body.meta.challenge).toBeUndefined();
  });

  test("a wrong code is refused; the same code used twice is refused the second time (replay)", async () => {
    const { user, secret } = await enrolled();
    const wrong = await second({ challenge: await challengeOf(user), code: "000000" });
    expect(wrong.status).toBe(401);
    expect(wrong.body.code).toBe("UNAUTHORIZED");

    const code = codeAt(secret);
    expect((await second({ challenge: await challengeOf(user), code })).status).toBe(200);
    const replay = await second({ challenge: await challengeOf(user), code });
    expect(replay.status).toBe(401);
    // Nor an earlier step's code still inside the window.
    const earlier = await second({ challenge: await challengeOf(user), code: codeAt(secret, o.deps.clock.nowMs() - STEP_MS) });
    expect(earlier.status).toBe(401);
    nextStep();
    expect((await second({ challenge: await challengeOf(user), code: codeAt(secret) })).status).toBe(200);
  });

  test("the same code sent twice at once signs in once", async () => {
    const { user, secret } = await enrolled();
    const [a, b] = [await challengeOf(user), await challengeOf(user)];
    const code = codeAt(secret);
    const answers = await Promise.all([second({ challenge: a, code }), second({ challenge: b, code })]);
    expect(answers.map((r) => r.status).sort()).toEqual([200, 401]);
  });

  test("a challenge is used once", async () => {
    const { user, secret } = await enrolled();
    const challenge = await challengeOf(user);
    expect((await second({ challenge, code: codeAt(secret) })).status).toBe(200);
    nextStep();
    expect((await second({ challenge, code: codeAt(secret) })).status).toBe(401);
  });

  test("a recovery code signs in once, and the owner is told", async () => {
    const { user, recoveryCodes } = await enrolled();
    const used = await second({ challenge: await challengeOf(user), recoveryCode: recoveryCodes[3]!.toUpperCase() });
    expect(used.status).toBe(200);
    expect((await as(user, "GET", "/v1/user/me")).body.data.twoFactor.recoveryCodesLeft).toBe(9);
    expect(await kinds(user)).toContain("recovery_code_used");
    expect((await second({ challenge: await challengeOf(user), recoveryCode: recoveryCodes[3]! })).status).toBe(401);
  });

  test(`a challenge allows ${MAX_CHALLENGE_TRIES} codes, then is gone even for the right one`, async () => {
    const { user, secret } = await enrolled();
    const challenge = await challengeOf(user);
    for (let i = 0; i < MAX_CHALLENGE_TRIES; i++) expect((await second({ challenge, code: "000000" })).status).toBe(401);
    const right = await second({ challenge, code: codeAt(secret) });
    expect(right.status).toBe(401);
    expect(right.body.error).toContain("sign in again");
  });

  test("a challenge expires after five minutes", async () => {
    const { user, secret } = await enrolled();
    const challenge = await challengeOf(user);
    o.clock.advance(5 * 60_000 + 1);
    expect((await second({ challenge, code: codeAt(secret) })).status).toBe(401);
  });

  test("codes are counted in the login limits of the address", async () => {
    const { user } = await enrolled();
    const from = o.ip();
    const statuses: number[] = [];
    // Each challenge costs one attempt for the password and one per code until a code is right.
    for (let i = 0; i < 4; i++) {
      const res = await login(user.email, user.password, from);
      if (res.status !== 401) {
        statuses.push(res.status);
        break;
      }
      const challenge = res.body.meta.challenge as string;
      for (let j = 0; j < 3; j++) statuses.push((await second({ challenge, code: "000000" }, from)).status);
    }
    expect(statuses).toContain(429);
  });

  test("another user's challenge does not sign in with this user's code", async () => {
    const a = await enrolled();
    const b = await enrolled();
    const res = await second({ challenge: await challengeOf(a.user), code: codeAt(b.secret) });
    expect(res.status).toBe(401);
  });

  test("an API key is no sign-in: it goes on working with two factors on", async () => {
    const { user } = await enrolled();
    const { key } = await makeKey(user);
    expect((await callJson("GET", "/v1/api-keys", { app: o.app, token: key })).status).toBe(200);
  });
});

describe("the OAuth pages ask for the code", () => {
  const REDIRECT = "http://127.0.0.1:43817/oauth/callback";
  const PAGE = "/oauth/authorize";

  test("the consent page: the password alone opens no session; the code does, then the consent form", async () => {
    const { user, secret } = await enrolled();
    const url = `${PAGE}?${new URLSearchParams(authorizeQuery(pkce().challenge, { redirect_uri: REDIRECT }))}`;
    const v = pageClient(o.app, { ip: o.ip() });
    const signInPage = await v.get(url);
    const asked = await v.post(PAGE, { ...formFields(signInPage.html, "sign-in"), email: user.email, password: user.password });
    expect(asked.status).toBe(200);
    expect(asked.html).toContain('id="second-factor"');
    expect(asked.html).toContain('<label for="code">Authentication code</label>');
    expect(asked.headers.getSetCookie().some((c) => c.startsWith("shelf_session") || c.startsWith("shelf_refresh="))).toBe(false);
    expect(asked.html).not.toContain('id="approve"');

    const wrong = await v.post(PAGE, { ...formFields(asked.html, "second-factor"), code: "000000" });
    expect(wrong.status).toBe(401);
    expect(wrong.html).toContain('id="second-factor"');

    const done = await v.post(PAGE, { ...formFields(wrong.html, "second-factor"), code: codeAt(secret) });
    expect(done.status).toBe(303);
    const next = new URL(done.headers.get("location")!, `http://shelf.test${PAGE}`);
    const consent = await v.get(next.pathname + next.search);
    expect(consent.html).toContain('id="approve"');
  });

  test("the device page: the code step, a recovery code completing it", async () => {
    const { user, recoveryCodes } = await enrolled();
    const v = pageClient(o.app, { ip: o.ip() });
    const asked = await v.signIn("/device", user.email, user.password);
    expect(asked.status).toBe(200);
    expect(asked.html).toContain('id="second-factor"');
    expect(asked.html).not.toContain('id="code-form"');
    const challenge = fieldOf(asked.html, "challenge")!;
    const done = await v.post("/device", { action: "sign_in_code", challenge, code: "", recovery_code: recoveryCodes[0]! });
    expect(done.status).toBe(303);
    const page = await v.get("/device");
    expect(page.html).toContain('id="code-form"');
  });
});

test("the pages' code step takes hostile fields without a 5xx", async () => {
  const { user } = await enrolled();
  for (const path of ["/device", "/oauth/authorize"]) {
    const v = pageClient(o.app, { ip: o.ip() });
    const first = await v.get(
      path === "/device" ? path : `${path}?${new URLSearchParams(authorizeQuery(pkce().challenge, { redirect_uri: "http://127.0.0.1:43817/oauth/callback" }))}`,
    );
    const asked = await v.post(path, { ...formFields(first.html, "sign-in"), email: user.email, password: user.password });
    const base = formFields(asked.html, "second-factor");
    for (const fields of <Record<string, string>[]>[
      { challenge: "x".repeat(5000), code: "123456" },
      { code: "\u0000\u0001" },
      { code: "", recovery_code: "\u0000".repeat(64) },
      { code: "", recovery_code: "" },
    ]) {
      const res = await v.post(path, { ...base, ...fields });
      expect(res.status).toBeLessThan(500);
      expect(res.status).not.toBe(303);
    }
  }
});
