// Proving an address by mail: a sign-up held until it opens its link when the operator asks
// for it (SIGNUP_EMAIL_VERIFICATION), and moving an account to a new address, which takes
// effect only when the link mailed to the new address is opened, the old address told.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { call, callJson } from "../helpers/context.ts";
import { makeKey, makeUser, PASSWORD } from "../helpers/factories.ts";
import { mailingApp, randomIp } from "../helpers/mailing-app.ts";
import { TEST_TIMEOUT_MS } from "../helpers/timeout.ts";
import { startSmtp, type TestSmtp } from "../notifications/fixtures.ts";
import { ADDRESS_LINK_TTL_MS } from "../../src/modules/identity/email-address.ts";

setDefaultTimeout(TEST_TIMEOUT_MS);

let smtp: TestSmtp;
let w: Awaited<ReturnType<typeof mailingApp>>;
beforeAll(async () => {
  smtp = await startSmtp();
  w = await mailingApp(smtp.url, { SIGNUP_EMAIL_VERIFICATION: true });
});
afterAll(async () => {
  await w.close();
  await smtp.close();
});

const post = (path: string, json: unknown, opts: { token?: string } = {}) =>
  callJson("POST", path, { app: w.app, json, token: opts.token, headers: { "x-forwarded-for": randomIp() } });
/** A POST answered 204 (no body), by its status. */
const posted = async (path: string, json: unknown) => (await call("POST", path, { app: w.app, json })).status;
const email = () => `u-${crypto.randomUUID()}@example.test`;

/** The tokens of the links with `subject` mailed to `to`, oldest first. */
async function linkTokens(to: string, subject: string, path: string): Promise<string[]> {
  await w.deliver();
  return smtp
    .to(to)
    .filter((m) => m.subject === subject)
    .map((m) => new RegExp(`#/${path}\\?token=([A-Za-z0-9_-]+)`).exec(m.text)![1]!);
}

describe("moving an account to another address", () => {
  test("the link goes to the new address; the account moves only when it is opened, and the old address is told", async () => {
    const u = await makeUser();
    const next = email();
    const asked = await post("/v1/user/me/email", { newEmail: next.toUpperCase(), currentPassword: PASSWORD }, { token: u.jwt });
    expect(asked.status).toBe(202);
    // Nothing changed yet.
    expect((await callJson("GET", "/v1/user/me", { app: w.app, token: u.jwt })).body.data.email).toBe(u.email);
    const [token] = await linkTokens(next, "Confirm your new e-mail address", "confirm-email");
    expect(smtp.to(u.email).filter((m) => m.subject === "Confirm your new e-mail address")).toEqual([]);

    expect(await posted("/v1/auth/email-change/confirm", { token })).toBe(204);
    const me = (await callJson("GET", "/v1/user/me", { app: w.app, token: u.jwt })).body.data;
    expect(me).toMatchObject({ email: next, emailVerified: true });
    expect((await post("/v1/auth/login", { email: next, password: PASSWORD })).status).toBe(200);
    expect((await post("/v1/auth/login", { email: u.email, password: PASSWORD })).status).toBe(401);
    await w.deliver();
    const told = smtp.to(u.email).filter((m) => m.subject === "The e-mail address of your account was changed");
    expect(told).toHaveLength(1);
    expect(told[0]!.text).toContain(next);
    expect(await posted("/v1/auth/email-change/confirm", { token })).toBe(400);
  });

  test("refusals: a wrong password (401), the account's own address (422), another account's (409), a key instead of a session (403), and an address taken before the link is opened (409)", async () => {
    const u = await makeUser();
    const other = await makeUser();
    expect((await post("/v1/user/me/email", { newEmail: email(), currentPassword: "not it at all" }, { token: u.jwt })).status).toBe(401);
    expect((await post("/v1/user/me/email", { newEmail: u.email, currentPassword: PASSWORD }, { token: u.jwt })).status).toBe(422);
    const taken = await post("/v1/user/me/email", { newEmail: other.email, currentPassword: PASSWORD }, { token: u.jwt });
    expect(taken.status).toBe(409);
    expect(taken.body.code).toBe("CONFLICT");
    const { key } = await makeKey(u);
    expect((await post("/v1/user/me/email", { newEmail: email(), currentPassword: PASSWORD }, { token: key })).status).toBe(403);

    const next = email();
    expect((await post("/v1/user/me/email", { newEmail: next, currentPassword: PASSWORD }, { token: u.jwt })).status).toBe(202);
    const [token] = await linkTokens(next, "Confirm your new e-mail address", "confirm-email");
    // Someone signs up with the address before the owner opens the link.
    expect((await post("/v1/auth/signup", { email: next, password: PASSWORD })).status).toBe(202);
    const late = await post("/v1/auth/email-change/confirm", { token });
    expect(late.status).toBe(409);
    expect((await callJson("GET", "/v1/user/me", { app: w.app, token: u.jwt })).body.data.email).toBe(u.email);
  });

  test("bad bodies are 422, never 500", async () => {
    const u = await makeUser();
    for (const json of [{}, { newEmail: "nope", currentPassword: PASSWORD }, { newEmail: email() }]) {
      expect((await post("/v1/user/me/email", json, { token: u.jwt })).status).toBe(422);
    }
    for (const path of ["/v1/auth/email-change/confirm", "/v1/auth/verify-email/confirm"]) {
      for (const json of [{}, { token: "" }, { token: "x".repeat(500) }, { token: 7 }]) {
        const res = await post(path, json);
        expect([path, JSON.stringify(json), res.status, res.body.code]).toEqual([path, JSON.stringify(json), 422, "VALIDATION_ERROR"]);
      }
    }
  });
});

describe("sign-ups prove their address (SIGNUP_EMAIL_VERIFICATION)", () => {
  test("a sign-up gets no session until its mailed link is opened; signing in meanwhile is 403 EMAIL_NOT_VERIFIED", async () => {
    const address = email();
    const made = await post("/v1/auth/signup", { email: address, password: PASSWORD });
    expect(made.status).toBe(202);
    expect(made.body).toMatchObject({ success: true, data: { verificationRequired: true } });
    expect(made.headers.getSetCookie()).toEqual([]);

    const early = await post("/v1/auth/login", { email: address, password: PASSWORD });
    expect(early.status).toBe(403);
    expect(early.body.code).toBe("EMAIL_NOT_VERIFIED");

    // A new link on asking; the same answer for an address with no such account.
    expect((await post("/v1/auth/verify-email", { email: address })).status).toBe(202);
    expect((await post("/v1/auth/verify-email", { email: email() })).body).toEqual((await post("/v1/auth/verify-email", { email: address })).body);
    const tokens = await linkTokens(address, "Confirm your e-mail address", "verify-email");
    expect(tokens).toHaveLength(3);
    expect(await posted("/v1/auth/verify-email/confirm", { token: tokens[2] })).toBe(204);
    // Opening one spends the others.
    expect((await post("/v1/auth/verify-email/confirm", { token: tokens[0] })).body.code).toBe("RESET_TOKEN_INVALID");

    const signedIn = await post("/v1/auth/login", { email: address, password: PASSWORD });
    expect(signedIn.status).toBe(200);
    const me = await callJson("GET", "/v1/user/me", { app: w.app, token: signedIn.body.data.accessToken });
    expect(me.body.data.emailVerified).toBe(true);
  });

  test("a link past its day is refused, and a password reset link proves the address too", async () => {
    const address = email();
    expect((await post("/v1/auth/signup", { email: address, password: PASSWORD })).status).toBe(202);
    const [late] = await linkTokens(address, "Confirm your e-mail address", "verify-email");
    // Last in the file: tokens made on the shared clock are past their life after this.
    w.clock.advance(ADDRESS_LINK_TTL_MS + 1);
    expect((await post("/v1/auth/verify-email/confirm", { token: late })).body.code).toBe("RESET_TOKEN_INVALID");

    expect((await post("/v1/auth/password-reset", { email: address })).status).toBe(202);
    await w.deliver();
    const reset = /#\/reset-password\?token=([A-Za-z0-9_-]+)/.exec(smtp.to(address).find((m) => m.subject === "Reset your password")!.text)![1]!;
    expect(await posted("/v1/auth/password-reset/confirm", { token: reset, newPassword: "a fresh long password 3" })).toBe(204);
    expect((await post("/v1/auth/login", { email: address, password: "a fresh long password 3" })).status).toBe(200);
  });
});
