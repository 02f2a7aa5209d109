// The account flows on two api nodes: each flow begins on one node and ends on the other,
// over the same database and kv (on the real parts, the same Postgres and Redis), and what
// one node ends the other refuses. A node here is what a process builds: its own services
// (token caches, revocation listener, login limiter) and app. Two nodes in one process hear
// each other's revocations at once; across processes, through the kv's pub/sub, within the
// bound test/identity/revocation.test.ts checks.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { REFRESH_COOKIE } from "../../src/modules/identity/index.ts";
import { totpOf } from "../../src/modules/identity/two-factor.ts";
import { createApp } from "../../src/wiring/app.ts";
import { createServices } from "../../src/wiring/services.ts";
import { call, callJson } from "../helpers/context.ts";
import { makeUser, PASSWORD } from "../helpers/factories.ts";
import { mailingApp, randomIp } from "../helpers/mailing-app.ts";
import { startSmtp, type TestSmtp } from "../notifications/fixtures.ts";
import { TEST_TIMEOUT_MS } from "../helpers/timeout.ts";

setDefaultTimeout(TEST_TIMEOUT_MS);

let smtp: TestSmtp;
let a: Awaited<ReturnType<typeof mailingApp>>;
let b: { app: ReturnType<typeof createApp>; services: ReturnType<typeof createServices> };
beforeAll(async () => {
  smtp = await startSmtp();
  a = await mailingApp(smtp.url);
  const services = createServices(a.deps);
  b = { services, app: createApp(services) };
});
afterAll(async () => {
  await b.services.close();
  await a.close();
  await smtp.close();
});

type App = ReturnType<typeof createApp>;
const on = (app: App, method: string, path: string, opts: { token?: string; json?: unknown; cookie?: string } = {}) =>
  callJson(method, path, {
    app,
    token: opts.token,
    json: opts.json,
    headers: { "x-forwarded-for": randomIp(), ...(opts.cookie ? { cookie: opts.cookie } : {}) },
  });
/** The status of a request whose answer may have no body (a 204). */
const statusOn = async (app: App, method: string, path: string, opts: { token?: string; json?: unknown } = {}) =>
  (await call(method, path, { app, token: opts.token, json: opts.json, headers: { "x-forwarded-for": randomIp() } })).status;
const login = (app: App, email: string, password = PASSWORD) => on(app, "POST", "/v1/auth/login", { json: { email, password } });

/** The token of the last link of `subject` mailed to `to`, once both nodes' mails are written. */
async function mailedToken(to: string, subject: string, path: string): Promise<string> {
  await b.services.identity.settled();
  await a.deliver();
  const mails = smtp.to(to).filter((m) => m.subject === subject);
  expect(mails.length).toBeGreaterThan(0);
  return new RegExp(`#/${path}\\?token=([A-Za-z0-9_-]+)`).exec(mails.at(-1)!.text)![1]!;
}

describe("account flows across two api nodes", () => {
  test("a reset asked on one node is confirmed on the other, and a session both nodes knew is refused on both at once", async () => {
    const u = await makeUser();
    // The session is known (cached) on both nodes before the reset.
    expect((await on(a.app, "GET", "/v1/user/me", { token: u.jwt })).status).toBe(200);
    expect((await on(b.app, "GET", "/v1/user/me", { token: u.jwt })).status).toBe(200);
    expect((await on(a.app, "POST", "/v1/auth/password-reset", { json: { email: u.email } })).status).toBe(202);
    const token = await mailedToken(u.email, "Reset your password", "reset-password");
    expect(await statusOn(b.app, "POST", "/v1/auth/password-reset/confirm", { json: { token, newPassword: "a new long password 7" } })).toBe(204);
    expect((await on(a.app, "GET", "/v1/user/me", { token: u.jwt })).status).toBe(401);
    expect((await on(b.app, "GET", "/v1/user/me", { token: u.jwt })).status).toBe(401);
    expect((await login(a.app, u.email, "a new long password 7")).status).toBe(200);
  });

  test("a two-factor challenge given by one node is completed on the other; the code then used is refused on the first", async () => {
    const u = await makeUser();
    const codeAt = (secret: string) => totpOf(secret, "x").generate({ timestamp: a.deps.clock.nowMs() });
    const enrol = await on(a.app, "POST", "/v1/user/me/2fa/totp", { token: u.jwt });
    const { secret } = enrol.body.data as { secret: string };
    expect((await on(b.app, "POST", "/v1/user/me/2fa/totp/confirm", { token: u.jwt, json: { code: codeAt(secret) } })).status).toBe(200);
    a.clock.advance(30_000);

    const challenged = await login(a.app, u.email);
    expect(challenged.status).toBe(401);
    expect(challenged.body.code).toBe("TWO_FACTOR_REQUIRED");
    const code = codeAt(secret);
    const done = await on(b.app, "POST", "/v1/auth/login/2fa", { json: { challenge: challenged.body.meta.challenge, code } });
    expect(done.status).toBe(200);
    expect(done.body.data.user.id).toBe(u.id);
    // The same code on the first node, with a fresh challenge: a replay.
    const again = await login(a.app, u.email);
    const replay = await on(a.app, "POST", "/v1/auth/login/2fa", { json: { challenge: again.body.meta.challenge, code } });
    expect(replay.status).toBe(401);
  });

  test("a session signed in on one node is listed and ended from the other, and refused by the first at once", async () => {
    const u = await makeUser();
    const laptop = await login(a.app, u.email);
    expect(laptop.status).toBe(200);
    const jwt = laptop.body.data.accessToken as string;
    const refresh = laptop.headers
      .getSetCookie()
      .find((c) => c.startsWith(`${REFRESH_COOKIE}=`))!
      .split(";")[0]!;
    expect((await on(a.app, "GET", "/v1/user/me", { token: jwt })).status).toBe(200);

    const listed = await on(b.app, "GET", "/v1/user/me/sessions", { token: u.jwt });
    const ids = (listed.body.data.items as Array<{ id: string; current: boolean }>).filter((s) => !s.current).map((s) => s.id);
    expect(ids).toHaveLength(1);
    expect(await statusOn(b.app, "DELETE", `/v1/user/me/sessions/${ids[0]}`, { token: u.jwt })).toBe(204);

    const refused = await on(a.app, "GET", "/v1/user/me", { token: jwt });
    expect(refused.status).toBe(401);
    expect((await on(a.app, "POST", "/v1/auth/refresh", { cookie: refresh })).status).toBe(401);
  });

  test("an e-mail change asked on one node is confirmed on the other", async () => {
    const u = await makeUser();
    const next = `moved-${crypto.randomUUID()}@example.test`;
    expect((await on(b.app, "POST", "/v1/user/me/email", { token: u.jwt, json: { newEmail: next, currentPassword: PASSWORD } })).status).toBe(202);
    const token = await mailedToken(next, "Confirm your new e-mail address", "confirm-email");
    expect(await statusOn(a.app, "POST", "/v1/auth/email-change/confirm", { json: { token } })).toBe(204);
    expect((await on(b.app, "GET", "/v1/user/me", { token: u.jwt })).body.data.email).toBe(next);
  });

  test("a webhook endpoint registered on one node is read and deleted on the other", async () => {
    const u = await makeUser();
    const made = await on(a.app, "POST", "/v1/webhooks/endpoints", {
      token: u.jwt,
      json: { url: "https://hooks.example.test/in", events: ["upload.completed"] },
    });
    expect(made.status).toBe(201);
    const id = made.body.data.id as string;
    expect((await on(b.app, "GET", `/v1/webhooks/endpoints/${id}`, { token: u.jwt })).body.data.url).toBe("https://hooks.example.test/in");
    expect(await statusOn(b.app, "DELETE", `/v1/webhooks/endpoints/${id}`, { token: u.jwt })).toBe(204);
    expect((await on(a.app, "GET", `/v1/webhooks/endpoints/${id}`, { token: u.jwt })).status).toBe(404);
  });
});
