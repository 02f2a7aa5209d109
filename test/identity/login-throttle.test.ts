// Failed sign-ins are limited per email and address, per address, and per email over the
// attempts that hold no proof of an earlier sign-in (the device cookie, or an address the
// account signed in from): guessing stays bounded, the guesser cannot lock the owner out,
// and the owner is told. Time moves by the app's clock, which stands still otherwise.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import {
  LOGIN_WINDOW_MS,
  MAX_FAILURES_PER_ACCOUNT,
  MAX_FAILURES_PER_DEVICE,
  MAX_FAILURES_PER_PAIR,
  TELL_AFTER_FAILURES,
  TELL_WINDOW_MS,
} from "../../src/modules/identity/login-limit.ts";
import { callJson } from "../helpers/context.ts";
import { makeUser, PASSWORD } from "../helpers/factories.ts";
import { mailingApp, randomIp } from "../helpers/mailing-app.ts";
import { startSmtp, type TestSmtp } from "../notifications/fixtures.ts";
import { authorizeQuery, formFields, pkce } from "../oauth/authorize-steps.ts";
import { pageClient } from "../oauth/page-client.ts";
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
const WRONG = "not the password at all";

/** POST /v1/auth/login from `from`, with the device cookie `device` when given. */
function login(email: string, password: string, from: string, device?: string) {
  const headers: Record<string, string> = { "x-forwarded-for": from };
  if (device) headers.cookie = `shelf_device=${device}`;
  return callJson("POST", "/v1/auth/login", { app: w.app, json: { email, password }, headers });
}

/** The device cookie an answer sets, and its attributes. */
const deviceCookieOf = (res: { headers: Headers }) => res.headers.getSetCookie().find((c) => c.startsWith("shelf_device="));
const proofOf = (setCookie: string | undefined) => (setCookie ?? "").split(";")[0]!.slice("shelf_device=".length);

/** `n` wrong passwords from `from`: their statuses. */
async function fail(email: string, n: number, from: string) {
  const statuses: number[] = [];
  for (let i = 0; i < n; i++) statuses.push((await login(email, WRONG, from)).status);
  return statuses;
}

/** The clock at the start of the next sign-in window, so a test has a whole one. */
const nextWindow = () => w.clock.advance(LOGIN_WINDOW_MS - (w.clock.nowMs() % LOGIN_WINDOW_MS));

describe("a guesser cannot lock the owner out", () => {
  test("an address that used up its tries for an email is refused, the right password too; the owner signs in from another address", async () => {
    nextWindow();
    const u = await makeUser();
    const attacker = ip();
    expect(await fail(u.email, MAX_FAILURES_PER_PAIR, attacker)).toEqual(Array(MAX_FAILURES_PER_PAIR).fill(401));
    const refused = await login(u.email, PASSWORD, attacker);
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ code: "RATE_LIMITED", meta: { type: "login_failures", per: "email_address", limit: MAX_FAILURES_PER_PAIR } });
    expect(Number(refused.headers.get("retry-after"))).toBe(LOGIN_WINDOW_MS / 1000);

    // The owner, who never signed in before, from their own address.
    const owner = await login(u.email, PASSWORD, ip());
    expect(owner.status).toBe(200);
    expect(owner.body.data.user.id).toBe(u.id);
    // The owner's success gives the guesser nothing back.
    expect((await login(u.email, WRONG, attacker)).status).toBe(429);

    // Retry-After is the rest of the window; once it is over the address may try again.
    w.clock.advance(LOGIN_WINDOW_MS / 3);
    expect(Number((await login(u.email, WRONG, attacker)).headers.get("retry-after"))).toBe((LOGIN_WINDOW_MS * 2) / 3 / 1000);
    nextWindow();
    expect((await login(u.email, WRONG, attacker)).status).toBe(401);
  });

  test("addresses in one IPv6 /64 count as one", async () => {
    nextWindow();
    const u = await makeUser();
    for (let i = 1; i <= MAX_FAILURES_PER_PAIR; i++) expect((await login(u.email, WRONG, `2001:db8:1:2::${i.toString(16)}`)).status).toBe(401);
    expect((await login(u.email, PASSWORD, "2001:db8:1:2:ffff:ffff:ffff:ffff")).status).toBe(429);
    expect((await login(u.email, PASSWORD, "2001:db8:1:3::1")).status).toBe(200);
  });

  test("guessing from rotating addresses is bounded per email and window; the owner's known address and device cookie still sign in", async () => {
    nextWindow();
    const u = await makeUser();
    // The owner signed in before: from home (the address is remembered), and in a browser (it keeps the device cookie).
    const home = ip();
    expect((await login(u.email, PASSWORD, home)).status).toBe(200);
    const first = await login(u.email, PASSWORD, ip());
    const setCookie = deviceCookieOf(first);
    expect(setCookie).toMatch(/^shelf_device=[\w-]{22}\.[\w-]{43}; Max-Age=15552000; Path=\/v1\/auth\/login; HttpOnly; SameSite=Lax$/);
    const device = proofOf(setCookie);

    // An hour of guessing from 60 new addresses a window, each trying twice.
    let checked = 0;
    for (let window = 0; window < 4; window++) {
      if (window > 0) nextWindow();
      const statuses = await Promise.all(Array.from({ length: 60 }, () => ip()).map((from) => fail(u.email, 2, from)));
      const wrong = statuses.flat().filter((s) => s === 401).length;
      expect(wrong).toBe(MAX_FAILURES_PER_ACCOUNT);
      expect(statuses.flat().filter((s) => s !== 401 && s !== 429)).toEqual([]);
      checked += wrong;
    }
    expect(checked).toBe(4 * MAX_FAILURES_PER_ACCOUNT);

    // The window is used up for browsers and addresses without proof, the right password too.
    const stranger = await login(u.email, PASSWORD, ip());
    expect(stranger.status).toBe(429);
    expect(stranger.body.meta).toMatchObject({ type: "login_failures", per: "email", limit: MAX_FAILURES_PER_ACCOUNT });
    // A cookie made up, or one of another account, proves nothing.
    expect((await login(u.email, PASSWORD, ip(), `${"A".repeat(22)}.${"B".repeat(43)}`)).status).toBe(429);
    const other = await makeUser();
    const othersDevice = proofOf(deviceCookieOf(await login(other.email, PASSWORD, ip())));
    expect((await login(u.email, PASSWORD, ip(), othersDevice)).status).toBe(429);

    // The owner at home, and in their browser from an address never seen, sign in.
    expect((await login(u.email, PASSWORD, home)).status).toBe(200);
    const travelling = await login(u.email, PASSWORD, ip(), device);
    expect(travelling.status).toBe(200);
    expect(deviceCookieOf(travelling)).toBeDefined();
    // And the guessers are still refused.
    expect((await login(u.email, PASSWORD, ip())).status).toBe(429);
  });

  test("a device cookie gives a few tries of its own, then no proof", async () => {
    nextWindow();
    const u = await makeUser();
    const device = proofOf(deviceCookieOf(await login(u.email, PASSWORD, ip())));
    await Promise.all(Array.from({ length: MAX_FAILURES_PER_ACCOUNT }, () => login(u.email, WRONG, ip())));
    expect((await login(u.email, PASSWORD, ip())).status).toBe(429);
    // A stolen cookie, tried from new addresses: its own tries, then refused as any stranger.
    for (let i = 0; i < MAX_FAILURES_PER_DEVICE; i++) expect((await login(u.email, WRONG, ip(), device)).status).toBe(401);
    expect((await login(u.email, PASSWORD, ip(), device)).status).toBe(429);
  });

  test("an unknown email is answered as a known one, step by step", async () => {
    nextWindow();
    const u = await makeUser();
    const unknown = `nobody-${crypto.randomUUID()}@example.test`;
    const attacker = ip();
    const steps = async (email: string) => {
      const out: unknown[] = [];
      for (let i = 0; i <= MAX_FAILURES_PER_PAIR; i++) {
        const res = await login(email, WRONG, attacker);
        out.push([res.status, res.body, res.headers.get("retry-after"), res.headers.get("ratelimit-limit")]);
      }
      return out;
    };
    expect(await steps(unknown)).toEqual(await steps(u.email));
  });
});

describe("the owner is told", () => {
  test("once the email's failures pass the threshold: one notice in the app and one e-mail per window, not one per attempt", async () => {
    w.clock.advance(TELL_WINDOW_MS - (w.clock.nowMs() % TELL_WINDOW_MS));
    const u = await makeUser();
    // The owner reads the list from home, which stays a known address whatever the guessers do.
    const home = ip();
    const kinds = async () => {
      const token = (await login(u.email, PASSWORD, home)).body.data.accessToken;
      const list = await callJson("GET", "/v1/notifications", { app: w.app, token });
      return list.body.data.items.filter((i: { kind: string }) => i.kind === "sign_in_failures");
    };
    await Promise.all(Array.from({ length: TELL_AFTER_FAILURES - 1 }, () => login(u.email, WRONG, ip())));
    expect(await kinds()).toEqual([]);
    await Promise.all(Array.from({ length: 3 * TELL_AFTER_FAILURES }, () => login(u.email, WRONG, ip())));
    const told = await kinds();
    expect(told).toHaveLength(1);
    expect(told[0]).toMatchObject({ title: "Failed attempts to sign in to your account", data: { windowMinutes: 15 } });
    // The failure that tells is one of those at or past the threshold; parallel ones finish in any order.
    expect(told[0].data.failures).toBeGreaterThanOrEqual(TELL_AFTER_FAILURES);
    await w.deliver();
    const failureMails = () => smtp.to(u.email).filter((m) => m.subject === "Failed attempts to sign in to your account");
    expect(failureMails()).toHaveLength(1);

    // More failures in the next sign-in window of the same hour tell nothing more; the next hour's do.
    nextWindow();
    await Promise.all(Array.from({ length: 2 * TELL_AFTER_FAILURES }, () => login(u.email, WRONG, ip())));
    expect(await kinds()).toHaveLength(1);
    w.clock.advance(TELL_WINDOW_MS);
    await Promise.all(Array.from({ length: TELL_AFTER_FAILURES }, () => login(u.email, WRONG, ip())));
    expect(await kinds()).toHaveLength(2);
    await w.deliver();
    expect(failureMails()).toHaveLength(2);
  });
});

describe("a sign-in from a new device is told to the owner", () => {
  const FIREFOX = "Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0";
  const signIn = (email: string, from: string, headers: Record<string, string> = {}) =>
    callJson("POST", "/v1/auth/login", {
      app: w.app,
      json: { email, password: PASSWORD },
      headers: { "x-forwarded-for": from, "user-agent": FIREFOX, ...headers },
    });

  test("told (in the app and by e-mail) for a browser and address not seen before; not for the same again, nor for a browser holding the device proof", async () => {
    nextWindow();
    // The factory's account has no device on record: its first browser is not new to anything.
    const u = await makeUser();
    const home = ip();
    const first = await signIn(u.email, home);
    expect(first.status).toBe(200);
    const token = first.body.data.accessToken as string;
    const told = async () =>
      (await callJson("GET", "/v1/notifications", { app: w.app, token })).body.data.items.filter((i: { kind: string }) => i.kind === "new_sign_in");
    expect(await told()).toHaveLength(0);

    // Another address, no device proof: a new device.
    const away = ip();
    expect((await signIn(u.email, away)).status).toBe(200);
    const notices = await told();
    expect(notices).toHaveLength(1);
    expect(notices[0]).toMatchObject({ title: "A new sign-in to your account", data: { device: "Firefox 133 on Linux", address: away } });
    await w.deliver();
    expect(smtp.to(u.email).filter((m) => m.subject === "A new sign-in to your account")).toHaveLength(1);

    // The same browser at the same address again: familiar, nothing told.
    expect((await signIn(u.email, home)).status).toBe(200);
    expect((await signIn(u.email, away)).status).toBe(200);
    // Elsewhere, but with the device cookie the first sign-in set: the owner's browser, nothing told.
    const proof = proofOf(deviceCookieOf(first));
    expect((await signIn(u.email, ip(), { cookie: `shelf_device=${proof}` })).status).toBe(200);
    expect(await told()).toHaveLength(1);
  });
});

describe("the pages' sign-in forms go through the same limits", () => {
  test("failures on the device page count with the API's and the consent page's; a page sign-in sets the page's device cookie", async () => {
    nextWindow();
    const u = await makeUser();
    const attacker = ip();
    const page = pageClient(w.app, { ip: attacker });
    await page.get("/device");
    for (let i = 0; i < MAX_FAILURES_PER_PAIR; i++)
      expect((await page.post("/device", { action: "sign_in", email: u.email, password: WRONG })).status).toBe(401);
    expect((await login(u.email, PASSWORD, attacker)).status).toBe(429);
    const consent = pageClient(w.app, { ip: attacker });
    const query = new URLSearchParams(authorizeQuery(pkce().challenge, { redirect_uri: "http://127.0.0.1:43817/oauth/callback" }));
    const form = await consent.get(`/oauth/authorize?${query}`);
    const refused = await consent.post("/oauth/authorize", { ...formFields(form.html, "sign-in"), email: u.email, password: PASSWORD });
    expect(refused.status).toBe(429);
    expect(refused.html).toContain("Too many failed sign-in attempts");

    // The owner on the device page from elsewhere: signed in, and the browser keeps its proof for that page.
    const owner = pageClient(w.app, { ip: ip() });
    const signedIn = await owner.signIn("/device", u.email, PASSWORD);
    expect(signedIn.status).toBe(303);
    expect(signedIn.headers.getSetCookie().find((c) => c.startsWith("shelf_device="))).toMatch(
      /^shelf_device=[\w-]{22}\.[\w-]{43}; Max-Age=15552000; Path=\/device; HttpOnly; SameSite=Lax$/,
    );
    expect(owner.jar.get("shelf_device")).toBeDefined();
  });
});
