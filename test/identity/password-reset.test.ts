// Resetting a forgotten password by e-mail (POST /v1/auth/password-reset, then .../confirm
// with the link's token): the same answer for any address, the link mailed to an account's
// owner only, used once within the hour, every session ended, and the limits on asking.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { MAX_LINK_ASKS_PER_IP_HOUR, MAX_LINKS_PER_ACCOUNT_HOUR } from "../../src/modules/identity/email-links.ts";
import { RESET_TTL_MS } from "../../src/modules/identity/password-reset.ts";
import { REFRESH_COOKIE } from "../../src/modules/identity/index.ts";
import { call, callJson } from "../helpers/context.ts";
import { makeUser, PASSWORD } from "../helpers/factories.ts";
import { mailingApp, randomIp } from "../helpers/mailing-app.ts";
import { createApp } from "../../src/wiring/app.ts";
import { createServices } from "../../src/wiring/services.ts";
import { startSmtp, type TestSmtp } from "../notifications/fixtures.ts";
import { TEST_TIMEOUT_MS } from "../helpers/timeout.ts";

setDefaultTimeout(TEST_TIMEOUT_MS);

let smtp: TestSmtp;
let w: Awaited<ReturnType<typeof mailingApp>>;
beforeAll(async () => {
  smtp = await startSmtp();
  w = await mailingApp(smtp.url);
});
afterAll(async () => {
  await w.close();
  await smtp.close();
});

const ip = randomIp;
const ask = (email: string, from = ip()) => callJson("POST", "/v1/auth/password-reset", { app: w.app, json: { email }, headers: { "x-forwarded-for": from } });
/** The confirm's status, and its envelope when it has one (a 204 has none). */
async function confirm(token: string, newPassword: string) {
  const res = await call("POST", "/v1/auth/password-reset/confirm", { app: w.app, json: { token, newPassword } });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
}
const login = (email: string, password: string) =>
  callJson("POST", "/v1/auth/login", { app: w.app, json: { email, password }, headers: { "x-forwarded-for": ip() } });

/** The tokens of the reset links mailed to `email`, oldest first. */
async function mailedTokens(email: string): Promise<string[]> {
  await w.deliver();
  return smtp
    .to(email)
    .filter((m) => m.subject === "Reset your password")
    .map((m) => {
      const link = /https?:\/\/\S+#\/reset-password\?token=([A-Za-z0-9_-]+)/.exec(m.text);
      expect(link).not.toBeNull();
      return link![1]!;
    });
}

describe("password reset by e-mail", () => {
  test("an account's owner is mailed a link; an unknown address gets the same answer and no mail", async () => {
    const u = await makeUser();
    const known = await ask(u.email.toUpperCase());
    const unknown = await ask(`nobody-${crypto.randomUUID()}@example.test`);
    expect(known.status).toBe(202);
    expect(unknown.status).toBe(202);
    expect(unknown.body).toEqual(known.body);
    expect(known.body.data.message).toContain("If an account has this address");
    const tokens = await mailedTokens(u.email);
    expect(tokens).toHaveLength(1);
    const mail = smtp.to(u.email).find((m) => m.subject === "Reset your password")!;
    expect(mail.text).toContain(`${w.deps.config.CENTER_URL}/#/reset-password?token=`);
    // Mail only: nothing about it in the owner's list in the app.
    const list = await callJson("GET", "/v1/notifications", { app: w.app, token: u.jwt });
    expect(list.body.data.items.map((i: { kind: string }) => i.kind)).not.toContain("password_reset");
  });

  test("the link sets the new password once: every session ends, the old password is refused, the owner is told, the link is then worthless", async () => {
    const u = await makeUser();
    const other = await login(u.email, PASSWORD);
    const cookie = other.headers
      .getSetCookie()
      .find((c) => c.startsWith(`${REFRESH_COOKIE}=`))!
      .split(";")[0]!;
    await ask(u.email);
    const [token] = await mailedTokens(u.email);

    // A password the rules refuse: 422, and the link still works.
    const weak = await confirm(token!, "aaaaaaaaaa");
    expect(weak.status).toBe(422);
    expect((await confirm(token!, "a new long password 7")).status).toBe(204);

    expect((await call("GET", "/v1/user/me", { app: w.app, token: u.jwt })).status).toBe(401);
    expect((await call("GET", "/v1/user/me", { app: w.app, token: other.body.data.accessToken })).status).toBe(401);
    expect((await call("POST", "/v1/auth/refresh", { app: w.app, headers: { cookie } })).status).toBe(401);
    expect((await login(u.email, PASSWORD)).status).toBe(401);
    const signedIn = await login(u.email, "a new long password 7");
    expect(signedIn.status).toBe(200);
    const told = await callJson("GET", "/v1/notifications", { app: w.app, token: signedIn.body.data.accessToken });
    expect(told.body.data.items.map((i: { kind: string }) => i.kind)).toContain("password_changed");

    const again = await confirm(token!, "yet another password 8");
    expect(again.status).toBe(400);
    expect(again.body).toMatchObject({ success: false, code: "RESET_TOKEN_INVALID" });
  });

  test("the answer does not wait on the account: a known address is answered while its link is still to be written", async () => {
    // A node whose telling is held: the link's mail cannot be written until the test lets it.
    const services = createServices(w.deps);
    let release!: () => void;
    const held = new Promise<void>((r) => {
      release = r;
    });
    const tell = services.notify;
    services.notify = async (...args) => {
      await held;
      return tell(...args);
    };
    const app = createApp(services);
    try {
      const u = await makeUser();
      // Were the link written before the answer, the answer would wait on the held telling,
      // and this test would end at its timeout.
      const answered = await callJson("POST", "/v1/auth/password-reset", { app, json: { email: u.email }, headers: { "x-forwarded-for": ip() } });
      expect(answered.status).toBe(202);
      expect(await mailedTokens(u.email)).toEqual([]);
      release();
      await services.identity.settled();
      expect(await mailedTokens(u.email)).toHaveLength(1);
    } finally {
      release();
      await services.close();
    }
  });

  test("a link past its hour, a made-up token, and the earlier links once one was used, are refused", async () => {
    const u = await makeUser();
    await ask(u.email);
    await ask(u.email);
    const [first, second] = await mailedTokens(u.email);
    expect((await confirm("not-a-token-at-all", "a new long password 7")).body.code).toBe("RESET_TOKEN_INVALID");
    expect((await confirm(second!, "a new long password 7")).status).toBe(204);
    // Using one link spends every other link of the account.
    expect((await confirm(first!, "another long password 9")).body.code).toBe("RESET_TOKEN_INVALID");

    const v = await makeUser();
    await ask(v.email);
    const [late] = await mailedTokens(v.email);
    w.clock.advance(RESET_TTL_MS + 1);
    const expired = await confirm(late!, "a new long password 7");
    expect(expired.status).toBe(400);
    expect(expired.body.code).toBe("RESET_TOKEN_INVALID");
    expect((await login(v.email, PASSWORD)).status).toBe(200);
  });

  test("limits: an account is mailed at most a few links an hour (the answer stays the same); an address past its asks gets 429", async () => {
    const u = await makeUser();
    for (let i = 0; i < MAX_LINKS_PER_ACCOUNT_HOUR + 2; i++) expect((await ask(u.email)).status).toBe(202);
    expect(await mailedTokens(u.email)).toHaveLength(MAX_LINKS_PER_ACCOUNT_HOUR);

    const from = ip();
    for (let i = 0; i < MAX_LINK_ASKS_PER_IP_HOUR; i++) expect((await ask(`x${i}@example.test`, from)).status).toBe(202);
    const refused = await ask("x@example.test", from);
    expect(refused.status).toBe(429);
    expect(refused.body.code).toBe("RATE_LIMITED");
    expect(refused.headers.get("retry-after")).toBeTruthy();
  });

  test("bad bodies are 422, never 500", async () => {
    for (const json of [{}, { email: "not an email" }, { email: 42 }]) {
      expect((await callJson("POST", "/v1/auth/password-reset", { app: w.app, json })).status).toBe(422);
    }
    for (const json of [
      { token: "x" },
      { token: "", newPassword: "a new long password 7" },
      { token: "x".repeat(200), newPassword: "a new long password 7" },
    ]) {
      expect((await callJson("POST", "/v1/auth/password-reset/confirm", { app: w.app, json })).status).toBe(422);
    }
  });
});
