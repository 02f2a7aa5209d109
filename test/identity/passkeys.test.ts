// Passkeys (WebAuthn) with a software authenticator (test/helpers/webauthn.ts): adding one,
// listing, renaming and removing; signing in with one alone; a passkey as the second step
// after the password; and the answers that must be refused: another origin, another RP ID,
// a challenge used before or expired, another user's passkey, a counter gone back (a cloned
// authenticator). A ceremony begun on one api node is finished on another (same parts).
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { createApp } from "../../src/wiring/app.ts";
import { createServices } from "../../src/wiring/services.ts";
import { startApiProcess } from "../helpers/api-process.ts";
import { callJson } from "../helpers/context.ts";
import { makeKey, type TestUser } from "../helpers/factories.ts";
import { TEST_TIMEOUT_MS } from "../helpers/timeout.ts";
import { type Ceremony, type SoftPasskey, softAuthenticator } from "../helpers/webauthn.ts";
import { oauthApp } from "../oauth/flow.ts";
import { totpOf } from "../../src/modules/identity/two-factor.ts";
import { PASSKEY_OPTIONS_PER_MINUTE } from "../../src/modules/identity/sign-in.ts";
import { authorizeQuery, formFields, pkce } from "../oauth/authorize-steps.ts";
import { pageClient } from "../oauth/page-client.ts";

setDefaultTimeout(TEST_TIMEOUT_MS);

const o = await oauthApp();
const HERE: Ceremony = { origin: "http://shelf.test", rpId: "shelf.test" };

const as = (user: TestUser, method: string, path: string, json?: unknown, app = o.app) => callJson(method, path, { app, token: user.jwt, json });
const anon = (method: string, path: string, json?: unknown, from = o.ip(), app = o.app) =>
  callJson(method, path, { app, json, headers: { "x-forwarded-for": from } });
const kinds = async (user: TestUser) => (await as(user, "GET", "/v1/notifications")).body.data.items.map((i: { kind: string }) => i.kind) as string[];

/** A user with a passkey added through the API (its recovery codes, when it was the first factor). */
async function withPasskey(user?: TestUser, auth = softAuthenticator(), at = HERE, app = o.app) {
  const u = user ?? (await o.makeUser());
  const begun = await as(u, "POST", "/v1/user/me/passkeys/options", undefined, app);
  expect(begun.status).toBe(200);
  const { passkey, response } = auth.register(begun.body.data.options, at);
  const added = await as(u, "POST", "/v1/user/me/passkeys", { name: "Laptop", response }, app);
  return { user: u, passkey, auth, added };
}

/** A passwordless sign-in's challenge. */
async function signInChallenge(app = o.app): Promise<string> {
  const res = await anon("POST", "/v1/auth/passkey/options", undefined, o.ip(), app);
  expect(res.status).toBe(200);
  return res.body.data.options.challenge;
}

const signInWith = (auth: ReturnType<typeof softAuthenticator>, passkey: SoftPasskey, challenge: string, at = HERE, app = o.app) =>
  anon("POST", "/v1/auth/passkey", { response: auth.assert(passkey, challenge, at) }, o.ip(), app);

describe("adding and managing passkeys", () => {
  test("options, then the authenticator's answer: the passkey is listed, recovery codes come with the first factor, the owner is told", async () => {
    const user = await o.makeUser();
    const begun = await as(user, "POST", "/v1/user/me/passkeys/options");
    expect(begun.status).toBe(200);
    const options = begun.body.data.options;
    expect(options.rp).toEqual({ name: "shelf", id: "shelf.test" });
    expect(options.authenticatorSelection).toMatchObject({ residentKey: "required" });
    expect(options.challenge).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const auth = softAuthenticator();
    const { response } = auth.register(options, HERE);
    const added = await as(user, "POST", "/v1/user/me/passkeys", { name: "Laptop", response });
    expect(added.status).toBe(201);
    expect(added.body.data.passkey).toMatchObject({ name: "Laptop", deviceType: "singleDevice", backedUp: false, lastUsedAt: null });
    expect(added.body.data.recoveryCodes).toHaveLength(10);
    expect(await kinds(user)).toContain("passkey_added");

    // A second passkey brings no new codes; both are listed, newest first.
    o.clock.advance(1000);
    const second = await withPasskey(user);
    expect(second.added.status).toBe(201);
    expect(second.added.body.data.recoveryCodes).toBeNull();
    const list = await as(user, "GET", "/v1/user/me/passkeys");
    expect(list.status).toBe(200);
    expect(list.body.data.items.map((p: { id: string }) => p.id)).toEqual([second.added.body.data.passkey.id, added.body.data.passkey.id]);

    const id = added.body.data.passkey.id;
    const renamed = await as(user, "PATCH", `/v1/user/me/passkeys/${id}`, { name: "Work laptop" });
    expect(renamed.status).toBe(200);
    expect(renamed.body.data.name).toBe("Work laptop");
  });

  test("the same answer twice is refused the second time (the challenge is used), as is an answer for another origin or RP ID", async () => {
    const user = await o.makeUser();
    const auth = softAuthenticator();
    const options = (await as(user, "POST", "/v1/user/me/passkeys/options")).body.data.options;
    const { response } = auth.register(options, HERE);
    expect((await as(user, "POST", "/v1/user/me/passkeys", { name: "A", response })).status).toBe(201);
    const again = await as(user, "POST", "/v1/user/me/passkeys", { name: "A", response });
    expect(again.status).toBe(422);
    expect(again.body).toMatchObject({ success: false, code: "PASSKEY_INVALID", meta: { reason: "challenge" } });

    const o2 = (await as(user, "POST", "/v1/user/me/passkeys/options")).body.data.options;
    const elsewhere = await as(user, "POST", "/v1/user/me/passkeys", {
      name: "B",
      response: auth.register(o2, { origin: "https://evil.example", rpId: "shelf.test" }).response,
    });
    expect(elsewhere.body).toMatchObject({ code: "PASSKEY_INVALID", meta: { reason: "origin" } });
    const o3 = (await as(user, "POST", "/v1/user/me/passkeys/options")).body.data.options;
    const otherRp = await as(user, "POST", "/v1/user/me/passkeys", {
      name: "B",
      response: auth.register(o3, { origin: HERE.origin, rpId: "evil.example" }).response,
    });
    expect(otherRp.body).toMatchObject({ code: "PASSKEY_INVALID", meta: { reason: "rp_id" } });
    expect((await as(user, "GET", "/v1/user/me/passkeys")).body.data.items).toHaveLength(1);
  });

  test("a challenge issued to one account does not register a passkey on another", async () => {
    const a = await o.makeUser();
    const b = await o.makeUser();
    const options = (await as(a, "POST", "/v1/user/me/passkeys/options")).body.data.options;
    const res = await as(b, "POST", "/v1/user/me/passkeys", { name: "X", response: softAuthenticator().register(options, HERE).response });
    expect(res.status).toBe(422);
    expect(res.body.code).toBe("PASSKEY_INVALID");
  });

  test("an API key gets 403 on every passkey route; another user's passkey is 404", async () => {
    const { user, added } = await withPasskey();
    const key = await makeKey(user);
    const id = added.body.data.passkey.id;
    for (const [method, path, json] of [
      ["POST", "/v1/user/me/passkeys/options"],
      ["GET", "/v1/user/me/passkeys"],
      ["PATCH", `/v1/user/me/passkeys/${id}`, { name: "x" }],
      ["DELETE", `/v1/user/me/passkeys/${id}`, { password: user.password }],
    ] as const) {
      expect((await callJson(method, path, { app: o.app, token: key.key, json })).status).toBe(403);
    }
    const other = await o.makeUser();
    expect((await as(other, "PATCH", `/v1/user/me/passkeys/${id}`, { name: "mine" })).status).toBe(404);
    expect((await as(other, "DELETE", `/v1/user/me/passkeys/${id}`, { password: other.password })).status).toBe(404);
  });

  test("removing asks for the password; the last factor takes the recovery codes with it and the password alone signs in again", async () => {
    const { user, added } = await withPasskey();
    const id = added.body.data.passkey.id;
    expect((await as(user, "DELETE", `/v1/user/me/passkeys/${id}`, {})).status).toBe(422);
    expect((await as(user, "DELETE", `/v1/user/me/passkeys/${id}`, { password: "not-the-password" })).status).toBe(401);
    expect((await anon("POST", "/v1/auth/login", { email: user.email, password: user.password })).body.code).toBe("TWO_FACTOR_REQUIRED");
    expect((await o.call("DELETE", `/v1/user/me/passkeys/${id}`, { app: o.app, token: user.jwt, json: { password: user.password } })).status).toBe(204);
    expect((await as(user, "GET", "/v1/user/me/passkeys")).body.data.items).toEqual([]);
    expect((await as(user, "GET", "/v1/user/me")).body.data.twoFactor.recoveryCodesLeft).toBe(0);
    expect(await kinds(user)).toContain("passkey_removed");
    expect((await anon("POST", "/v1/auth/login", { email: user.email, password: user.password })).status).toBe(200);
  });
});

describe("signing in with a passkey alone", () => {
  test("opens a session as a password does: cookies, refresh, the session listed; the passkey's last use recorded", async () => {
    const { user, passkey, auth } = await withPasskey();
    const res = await signInWith(auth, passkey, await signInChallenge());
    expect(res.status).toBe(200);
    expect(res.body.data.user.id).toBe(user.id);
    const cookies = res.headers.getSetCookie();
    expect(cookies.some((c) => c.startsWith("shelf_refresh=") && !c.startsWith("shelf_refresh=;"))).toBe(true);
    expect(cookies.some((c) => c.startsWith("shelf_device="))).toBe(true);
    const token = res.body.data.accessToken;
    const me = await callJson("GET", "/v1/user/me", { app: o.app, token });
    expect(me.body.data.id).toBe(user.id);
    const sessions = await callJson("GET", "/v1/user/me/sessions", { app: o.app, token });
    expect(sessions.body.data.items.some((s: { current: boolean }) => s.current)).toBe(true);
    const listed = (await as(user, "GET", "/v1/user/me/passkeys")).body.data.items[0];
    expect(listed.lastUsedAt).not.toBeNull();
  });

  test("the attacks: another origin, another RP ID, a replayed answer, an expired challenge, an unknown credential, a counter gone back", async () => {
    const auth = softAuthenticator({ startCounter: 5 });
    const { passkey } = await withPasskey(undefined, auth);
    const refusedFor = async (res: { status: number; body: { code: string; meta: { reason: string } } }, reason: string) => {
      expect(res.status).toBe(422);
      expect(res.body.code).toBe("PASSKEY_INVALID");
      expect(res.body.meta.reason).toBe(reason);
    };
    await refusedFor(await signInWith(auth, passkey, await signInChallenge(), { origin: "https://shelf.test.evil.example", rpId: "shelf.test" }), "origin");
    await refusedFor(await signInWith(auth, passkey, await signInChallenge(), { origin: HERE.origin, rpId: "evil.example" }), "rp_id");

    const challenge = await signInChallenge();
    const answer = auth.assert(passkey, challenge, HERE);
    expect((await anon("POST", "/v1/auth/passkey", { response: answer })).status).toBe(200);
    const seen = passkey.counter;
    await refusedFor(await anon("POST", "/v1/auth/passkey", { response: answer }), "challenge");

    const stale = await signInChallenge();
    o.clock.advance(5 * 60_000 + 1);
    await refusedFor(await signInWith(auth, passkey, stale), "challenge");

    const stranger = softAuthenticator().register({ challenge: "x", user: { id: "x" } }, HERE).passkey;
    await refusedFor(await signInWith(auth, stranger, await signInChallenge()), "credential");

    // A clone of the authenticator signs with a counter the server has seen already.
    const cloned = auth.assert(passkey, await signInChallenge(), HERE, { counter: seen });
    await refusedFor(await anon("POST", "/v1/auth/passkey", { response: cloned }), "counter");
    // The genuine one, moving on, still signs in.
    expect((await signInWith(auth, passkey, await signInChallenge())).status).toBe(200);
  });

  test("an answer without user verification does not sign in alone", async () => {
    const auth = softAuthenticator({ userVerified: false });
    const { passkey, added } = await withPasskey(undefined, auth);
    expect(added.status).toBe(201);
    const res = await signInWith(auth, passkey, await signInChallenge());
    expect(res.status).toBe(422);
    expect(res.body.meta.reason).toBe("user_verification");
  });

  test("malformed answers are 422, never a 500", async () => {
    for (const response of [
      {
        id: "AAAA",
        rawId: "AAAA",
        type: "public-key",
        clientExtensionResults: {},
        response: { clientDataJSON: "AAAA", authenticatorData: "AAAA", signature: "AAAA" },
      },
      { id: "x", rawId: "x", type: "public-key", clientExtensionResults: {}, response: { clientDataJSON: "eyJ9", authenticatorData: "AA", signature: "AA" } },
    ]) {
      const res = await anon("POST", "/v1/auth/passkey", { response });
      expect(res.status).toBe(422);
    }
    const { user, passkey, auth } = await withPasskey();
    const answer = auth.assert(passkey, await signInChallenge(), HERE);
    const broken = { ...answer, response: { ...answer.response, clientDataJSON: Buffer.from("{not json").toString("base64url") } };
    expect((await anon("POST", "/v1/auth/passkey", { response: broken })).status).toBe(422);
    const badAttestation = await as(user, "POST", "/v1/user/me/passkeys", {
      name: "x",
      response: { id: "AAAA", rawId: "AAAA", type: "public-key", clientExtensionResults: {}, response: { clientDataJSON: "AAAA", attestationObject: "AAAA" } },
    });
    expect(badAttestation.status).toBe(422);
  });
});

describe("asking for sign-in options", () => {
  test(`an address may begin ${PASSKEY_OPTIONS_PER_MINUTE} passkey sign-ins a minute: each holds a challenge; the next is 429 until the minute has passed`, async () => {
    // A node of its own: its clock moves a minute, which the file's shared one must not.
    const own = await oauthApp();
    const ask = (from: string) => anon("POST", "/v1/auth/passkey/options", undefined, from, own.app);
    const from = own.ip();
    for (let i = 0; i < PASSKEY_OPTIONS_PER_MINUTE; i++) expect((await ask(from)).status).toBe(200);
    const refused = await ask(from);
    expect(refused.status).toBe(429);
    expect(refused.body.code).toBe("RATE_LIMITED");
    expect(refused.headers.get("retry-after")).toBeTruthy();
    // Another address is not held back by this one's asks.
    expect((await ask(own.ip())).status).toBe(200);
    own.clock.advance(60_001);
    expect((await ask(from)).status).toBe(200);
  });
});

describe("a passkey as the second step", () => {
  test("a password alone opens nothing: the challenge says which methods, and the passkey completes it", async () => {
    const { user, passkey, auth } = await withPasskey();
    const first = await anon("POST", "/v1/auth/login", { email: user.email, password: user.password });
    expect(first.status).toBe(401);
    expect(first.body.code).toBe("TWO_FACTOR_REQUIRED");
    expect(first.body.meta.methods).toEqual(["passkey", "recovery_code"]);
    const options = first.body.meta.passkey;
    expect(options.allowCredentials.map((c: { id: string }) => c.id)).toEqual([passkey.credentialId]);
    const done = await anon("POST", "/v1/auth/login/2fa", { challenge: first.body.meta.challenge, passkey: auth.assert(passkey, options.challenge, HERE) });
    expect(done.status).toBe(200);
    expect(done.body.data.user.id).toBe(user.id);
    // The login challenge is used up, and the passkey's challenge with it.
    const again = await anon("POST", "/v1/auth/login/2fa", { challenge: first.body.meta.challenge, passkey: auth.assert(passkey, options.challenge, HERE) });
    expect(again.status).toBe(401);
  });

  test("with TOTP on too, both are offered; another user's passkey does not complete the step", async () => {
    const { user } = await withPasskey();
    const enrol = await as(user, "POST", "/v1/user/me/2fa/totp");
    const code = totpOf(enrol.body.data.secret, "x").generate({ timestamp: o.deps.clock.nowMs() });
    expect((await as(user, "POST", "/v1/user/me/2fa/totp/confirm", { code })).status).toBe(200);
    const first = await anon("POST", "/v1/auth/login", { email: user.email, password: user.password });
    expect(first.body.meta.methods).toEqual(["totp", "passkey", "recovery_code"]);

    const other = await withPasskey();
    const res = await anon("POST", "/v1/auth/login/2fa", {
      challenge: first.body.meta.challenge,
      passkey: other.auth.assert(other.passkey, first.body.meta.passkey.challenge, HERE),
    });
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({ code: "PASSKEY_INVALID", meta: { reason: "credential" } });
    expect(res.body.meta.triesLeft).toBeGreaterThan(0);
  });

  test("a sign-in challenge does not answer a second step, nor the reverse", async () => {
    const { user, passkey, auth } = await withPasskey();
    const first = await anon("POST", "/v1/auth/login", { email: user.email, password: user.password });
    const wrongKind = await anon("POST", "/v1/auth/login/2fa", {
      challenge: first.body.meta.challenge,
      passkey: auth.assert(passkey, await signInChallenge(), HERE),
    });
    expect(wrongKind.body.meta.reason).toBe("challenge");
    const reverse = await signInWith(auth, passkey, first.body.meta.passkey.challenge);
    expect(reverse.body.meta.reason).toBe("challenge");
  });
});

describe("on two api nodes", () => {
  test("a ceremony begun on one node is finished on another sharing the database and kv", async () => {
    const services = createServices(o.deps);
    const second = createApp(services);
    try {
      const user = await o.makeUser();
      const auth = softAuthenticator();
      const options = (await as(user, "POST", "/v1/user/me/passkeys/options")).body.data.options;
      const { passkey, response } = auth.register(options, HERE);
      expect((await as(user, "POST", "/v1/user/me/passkeys", { name: "Phone", response }, second)).status).toBe(201);
      const challenge = await signInChallenge(second);
      expect((await signInWith(auth, passkey, challenge, HERE, o.app)).status).toBe(200);
      const first = await anon("POST", "/v1/auth/login", { email: user.email, password: user.password }, o.ip(), second);
      const done = await anon("POST", "/v1/auth/login/2fa", {
        challenge: first.body.meta.challenge,
        passkey: auth.assert(passkey, first.body.meta.passkey.challenge, HERE),
      });
      expect(done.status).toBe(200);
    } finally {
      await services.close();
    }
  });
});

const realParts = !!(process.env.DATABASE_URL && process.env.REDIS_URL);

describe("on a second api process", () => {
  test.skipIf(!realParts)(
    "a passkey added on this node signs in through a second process sharing Postgres and Redis, and the reverse",
    async () => {
      const second = await startApiProcess();
      // This node on a clock of its own at the real time, as the second process's is: the
      // file's shared clock has been moved minutes ahead, past the other's challenges.
      const here = await oauthApp();
      const there = (path: string, init: { token?: string; json?: unknown } = {}) =>
        fetch(`${second.base}${path}`, {
          method: "POST",
          headers: { "content-type": "application/json", ...(init.token ? { authorization: `Bearer ${init.token}` } : {}) },
          body: JSON.stringify(init.json ?? {}),
        }).then(async (r) => ({ status: r.status, body: (await r.json()) as { data: any; code?: string } }));
      try {
        const user = await o.makeUser();
        const auth = softAuthenticator();
        // Begun there, finished here.
        const begun = await there("/v1/user/me/passkeys/options", { token: user.jwt });
        expect(begun.status).toBe(200);
        const { passkey, response } = auth.register(begun.body.data.options, HERE);
        expect((await as(user, "POST", "/v1/user/me/passkeys", { name: "Phone", response }, here.app)).status).toBe(201);
        // Begun here, finished there.
        const signedIn = await there("/v1/auth/passkey", { json: { response: auth.assert(passkey, await signInChallenge(here.app), HERE) } });
        expect(signedIn.status).toBe(200);
        expect(signedIn.body.data.user.id).toBe(user.id);
      } finally {
        await second.stop();
      }
    },
    120_000,
  );
});

describe("the consent and device pages", () => {
  const PAGE = "/oauth/authorize";
  const REDIRECT = "http://127.0.0.1:43817/oauth/callback";
  const unescapeHtml = (v: string) =>
    v
      .replace(/&quot;/g, '"')
      .replace(/&#39;/g, "'")
      .replace(/&lt;/g, "<")
      .replace(/&gt;/g, ">")
      .replace(/&amp;/g, "&");
  const optionsIn = (html: string, id: string) => JSON.parse(unescapeHtml(new RegExp(`<form [^>]*id="${id}"[^>]*data-passkey="([^"]*)"`).exec(html)![1]!));

  test("the consent page: a passkey alone signs in, then the consent form; the page's one script is allowed by its hash", async () => {
    const { passkey, auth } = await withPasskey();
    const url = `${PAGE}?${new URLSearchParams(authorizeQuery(pkce().challenge, { redirect_uri: REDIRECT }))}`;
    const v = pageClient(o.app, { ip: o.ip() });
    const signInPage = await v.get(url);
    expect(signInPage.html).toContain('id="passkey-sign-in"');
    expect(signInPage.headers.get("content-security-policy")).toMatch(/script-src 'sha256-[A-Za-z0-9+/=]+'/);
    const options = optionsIn(signInPage.html, "passkey-sign-in");
    expect(options.rpId).toBe("shelf.test");
    const answer = auth.assert(passkey, options.challenge, HERE);
    const done = await v.post(PAGE, { ...formFields(signInPage.html, "passkey-sign-in"), passkey: JSON.stringify(answer) });
    expect(done.status).toBe(303);
    const next = new URL(done.headers.get("location")!, `http://shelf.test${PAGE}`);
    expect((await v.get(next.pathname + next.search)).html).toContain('id="approve"');
  });

  test("the consent page: another origin's answer is refused on the sign-in form, with no session", async () => {
    const { passkey, auth } = await withPasskey();
    const url = `${PAGE}?${new URLSearchParams(authorizeQuery(pkce().challenge, { redirect_uri: REDIRECT }))}`;
    const v = pageClient(o.app, { ip: o.ip() });
    const signInPage = await v.get(url);
    const options = optionsIn(signInPage.html, "passkey-sign-in");
    const forged = auth.assert(passkey, options.challenge, { origin: "https://evil.example", rpId: "shelf.test" });
    const res = await v.post(PAGE, { ...formFields(signInPage.html, "passkey-sign-in"), passkey: JSON.stringify(forged) });
    expect(res.status).toBe(422);
    expect(res.html).toContain('id="sign-in"');
    expect(res.headers.getSetCookie().some((c) => c.startsWith("shelf_refresh=") && !c.startsWith("shelf_refresh=;"))).toBe(false);
    const garbage = await v.post(PAGE, { ...formFields(signInPage.html, "passkey-sign-in"), passkey: "{not json" });
    expect(garbage.status).toBe(422);
  });

  test("with the kv away, the sign-in form is still served, without the passkey", async () => {
    const away = await oauthApp(
      (deps) => ({
        kv: {
          ...deps.kv,
          set: async () => {
            throw new Error("kv away");
          },
        },
      }),
      { closedBy: "caller" },
    );
    try {
      const res = await pageClient(away.app, { ip: o.ip() }).get("/device");
      expect(res.status).toBe(200);
      expect(res.html).toContain('id="sign-in"');
      expect(res.html).not.toContain('id="passkey-sign-in"');
      expect(res.headers.get("content-security-policy")).not.toContain("script-src");
    } finally {
      await away.services.close();
    }
  });

  test("the device page: after the password, the second step takes the passkey", async () => {
    const { user, passkey, auth } = await withPasskey();
    const v = pageClient(o.app, { ip: o.ip() });
    const asked = await v.signIn("/device", user.email, user.password);
    expect(asked.status).toBe(200);
    expect(asked.html).toContain('id="passkey-second-factor"');
    // No authenticator app on this account: the step asks for no code of one.
    expect(asked.html).not.toContain('<label for="code">');
    const options = optionsIn(asked.html, "passkey-second-factor");
    expect(options.allowCredentials.map((c: { id: string }) => c.id)).toEqual([passkey.credentialId]);
    const done = await v.post("/device", {
      ...formFields(asked.html, "passkey-second-factor"),
      passkey: JSON.stringify(auth.assert(passkey, options.challenge, HERE)),
    });
    expect(done.status).toBe(303);
    expect((await v.get("/device")).html).toContain('id="code-form"');
  });
});
