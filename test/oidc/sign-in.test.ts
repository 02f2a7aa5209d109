// Signing in through an OpenID provider, against a real one (oidc-provider) on a loopback
// port: the redirect dance by hand, the rules of linking and making accounts, the session a
// password sign-in would have, two factors, two api nodes, and a provider that is away.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { call, callJson, testContext } from "../helpers/context.ts";
import { makeUser } from "../helpers/factories.ts";
import { TEST_TIMEOUT_MS } from "../helpers/timeout.ts";
import { oauthApp } from "../oauth/flow.ts";
import { totpOf } from "../../src/modules/identity/two-factor.ts";
import { addPasskey } from "../helpers/webauthn.ts";
import { authorizeQuery, pkce } from "../oauth/authorize-steps.ts";
import { browserOf, oidcConfig, personAt, oidcProvider, refusalOf } from "./flow.ts";

setDefaultTimeout(TEST_TIMEOUT_MS);

const provider = await oidcProvider();

const o = await oauthApp(oidcConfig(provider));
const me = (token: string) => callJson("GET", "/v1/user/me", { app: o.app, token });
const identities = (token: string) => callJson("GET", "/v1/user/me/identities", { app: o.app, token });

describe("a first sign-in", () => {
  test("with a verified address no account has makes an account without a password, signed in as a password sign-in is", async () => {
    const person = personAt(provider);
    const b = browserOf(o, provider);
    const back = await b.callback(await b.toCallback(person.sub));
    expect(back.status).toBe(303);
    expect(back.location).toBe("http://shelf.test/#/library");
    // The dashboard's refresh cookie, the pages' tickets and the device cookie; the login's cookie cleared.
    expect(back.cookies.some((c) => c.startsWith("shelf_refresh=") && c.includes("HttpOnly"))).toBe(true);
    expect(back.cookies.some((c) => c.startsWith("shelf_session=") && c.includes("Path=/oauth/authorize"))).toBe(true);
    expect(back.cookies.some((c) => c.startsWith("shelf_device=") && c.includes("Path=/v1/auth/login"))).toBe(true);
    expect(back.cookies.some((c) => c.startsWith("shelf_oidc=;") && c.includes("Max-Age=0"))).toBe(true);
    const session = await b.refresh();
    expect(session.status).toBe(200);
    const token = session.body.data.accessToken as string;
    const profile = (await me(token)).body.data;
    expect(profile).toMatchObject({ email: person.email, emailVerified: true, hasPassword: false, nickname: "Pat Tester" });
    const linked = (await identities(token)).body.data;
    expect(linked.items).toHaveLength(1);
    expect(linked.items[0]).toMatchObject({ issuer: provider.issuer, subject: person.sub, email: person.email });
    expect(linked.nextCursor).toBeNull();
    // The session is listed with the others, its address the browser's.
    const sessions = await callJson("GET", "/v1/user/me/sessions", { app: o.app, token });
    expect(sessions.body.data.items).toHaveLength(1);
    expect(sessions.body.data.items[0].address).toBe(b.ip);
  });

  test("a second sign-in of the same identity signs in to the same account, records its use, and a new device is told to the owner", async () => {
    const person = personAt(provider);
    const first = browserOf(o, provider);
    await first.callback(await first.toCallback(person.sub));
    const firstToken = (await first.refresh()).body.data.accessToken as string;
    // Told by e-mail unless chosen otherwise: in the app too, so the test can read it.
    const choice = await callJson("PATCH", "/v1/user/me", { app: o.app, token: firstToken, json: { notifications: { new_sign_in: { inApp: true } } } });
    expect(choice.status).toBe(200);
    o.clock.advance(60_000);
    const again = browserOf(o, provider);
    expect((await again.callback(await again.toCallback(person.sub))).status).toBe(303);
    const token = (await again.refresh()).body.data.accessToken as string;
    expect((await me(token)).body.data.id).toBe((await me(firstToken)).body.data.id);
    const [identity] = (await identities(token)).body.data.items;
    expect(identity.lastUsedAt).not.toBe(identity.createdAt);
    const told = (await callJson("GET", "/v1/notifications", { app: o.app, token })).body.data.items.filter((i: { kind: string }) => i.kind === "new_sign_in");
    expect(told).toHaveLength(1);
    expect(told[0].data.address).toBe(again.ip);
  });

  test("an account with the same address is linked when the provider says the address is verified; its password still works", async () => {
    const user = await makeUser();
    const person = personAt(provider, user.email, true);
    const b = browserOf(o, provider);
    expect((await b.callback(await b.toCallback(person.sub))).status).toBe(303);
    const token = (await b.refresh()).body.data.accessToken as string;
    expect((await me(token)).body.data).toMatchObject({ id: user.id, hasPassword: true });
    expect((await identities(token)).body.data.items.map((i: { subject: string }) => i.subject)).toEqual([person.sub]);
    const login = await callJson("POST", "/v1/auth/login", {
      app: o.app,
      json: { email: user.email, password: user.password },
      headers: { "x-forwarded-for": o.ip() },
    });
    expect(login.status).toBe(200);
  });

  test("with account making off, an address no account has is refused on a page, and nothing is stored", async () => {
    const closed = await oauthApp(oidcConfig(provider, { OIDC_SIGNUP: false }));
    const person = personAt(provider);
    const b = browserOf(closed, provider);
    const back = await b.callback(await b.toCallback(person.sub));
    expect(back.status).toBe(403);
    expect(refusalOf(back.html).reason).toBe("signup_closed");
    expect(back.html).toContain('href="http://shelf.test/#/signin"');
    expect(back.cookies.some((c) => c.startsWith("shelf_refresh="))).toBe(false);
    const { deps } = await testContext();
    const { getUserByEmail } = await import("../../src/modules/identity/public.ts");
    expect(await getUserByEmail(deps.db, person.email)).toBeUndefined();
  });

  test("the provider's name becomes the nickname without control, bidi or invisible characters", async () => {
    const sub = `sub-${crypto.randomUUID()}`;
    const email = `named-${crypto.randomUUID().slice(0, 8)}@example.test`;
    provider.person(sub, { email, email_verified: true, name: "Pat\u202E\u200B Tester\u0007" });
    const b = browserOf(o, provider);
    expect((await b.callback(await b.toCallback(sub))).status).toBe(303);
    const token = (await b.refresh()).body.data.accessToken as string;
    expect((await me(token)).body.data.nickname).toBe("Pat Tester");
  });

  test("a provider that gives no address is refused (no account can be named)", async () => {
    const sub = `sub-${crypto.randomUUID()}`;
    provider.person(sub, {});
    const b = browserOf(o, provider);
    const back = await b.callback(await b.toCallback(sub));
    expect(back.status).toBe(403);
    expect(refusalOf(back.html).reason).toBe("no_email");
  });
});

describe("unlinking", () => {
  test("refused for an account's only way to sign in; allowed once it has a password; 404 for another's identity", async () => {
    const person = personAt(provider);
    const b = browserOf(o, provider);
    await b.callback(await b.toCallback(person.sub));
    const token = (await b.refresh()).body.data.accessToken as string;
    const [identity] = (await identities(token)).body.data.items;
    const refused = await callJson("DELETE", `/v1/user/me/identities/${identity.id}`, { app: o.app, token });
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ success: false, code: "CONFLICT", meta: { reason: "last_sign_in" } });
    const stranger = await o.makeUser();
    const notMine = await callJson("DELETE", `/v1/user/me/identities/${identity.id}`, { app: o.app, token: stranger.jwt });
    expect(notMine.status).toBe(404);
    expect(notMine.body.code).toBe("NOT_FOUND");

    const user = await o.makeUser();
    const linkedPerson = personAt(provider, user.email, true);
    const linker = browserOf(o, provider);
    await linker.callback(await linker.toCallback(linkedPerson.sub));
    const [own] = (await identities(user.jwt)).body.data.items;
    expect((await call("DELETE", `/v1/user/me/identities/${own.id}`, { app: o.app, token: user.jwt })).status).toBe(204);
    expect((await identities(user.jwt)).body.data.items).toEqual([]);
  });
});

describe("where a sign-in goes back to", () => {
  test("the consent page it began on, signed in there; another site never", async () => {
    const person = personAt(provider);
    const consent = "/oauth/authorize?response_type=code&client_id=shelf-sync&state=xyz";
    const b = browserOf(o, provider);
    const back = await b.callback(await b.toCallback(person.sub, consent));
    expect(back.location).toBe(`http://shelf.test${consent}`);
    const elsewhere = browserOf(o, provider);
    const other = await elsewhere.callback(await elsewhere.toCallback(personAt(provider).sub, "https://evil.example/oauth/authorize"));
    expect(other.location).toBe("http://shelf.test/#/library");
    const device = browserOf(o, provider);
    const toDevice = await device.callback(await device.toCallback(personAt(provider).sub, "/device?user_code=ABCD-EFGH"));
    expect(toDevice.location).toBe("http://shelf.test/device?user_code=ABCD-EFGH");
  });
});

describe("the OAuth pages offer it", () => {
  test("the consent page's sign-in offers the provider, and its sign-in comes back to the same request, signed in, at the consent form", async () => {
    const person = personAt(provider);
    const b = browserOf(o, provider);
    const consent = `/oauth/authorize?${new URLSearchParams(authorizeQuery(pkce().challenge, { redirect_uri: "http://127.0.0.1:43817/oauth/callback" }))}`;
    const page = await b.shelf.get(consent);
    expect(page.status).toBe(200);
    const href = /<a class="button secondary" id="oidc-sign-in" href="([^"]+)">Sign in with Testprovider<\/a>/.exec(page.html)?.[1]?.replaceAll("&amp;", "&");
    expect(href).toBeDefined();
    const start = new URL(href!);
    expect(`${start.origin}${start.pathname}`).toBe("http://shelf.test/v1/auth/oidc/start");
    const ret = start.searchParams.get("return")!;
    expect(new URLSearchParams(ret.split("?")[1]).get("code_challenge")).toBe(new URLSearchParams(consent.split("?")[1]).get("code_challenge"));
    const back = await b.callback(await b.toCallback(person.sub, ret));
    expect(back.location).toBe(`http://shelf.test${ret}`);
    const signedIn = await b.shelf.get(ret);
    expect(signedIn.status).toBe(200);
    expect(signedIn.html).toContain('id="approve"');
    expect(signedIn.html).toContain(person.email);
  });

  test("the device page's sign-in offers it too, coming back with the code", async () => {
    const b = browserOf(o, provider);
    const page = await b.shelf.get("/device?user_code=BCDFGHJK");
    const href = /id="oidc-sign-in" href="([^"]+)"/.exec(page.html)?.[1]?.replaceAll("&amp;", "&");
    expect(new URL(href!).searchParams.get("return")).toBe("/device?user_code=BCDFGHJK");
  });

  test("a node with no provider offers none", async () => {
    const plain = await oauthApp();
    const page = await browserOf(plain, provider).shelf.get("/device");
    expect(page.html).not.toContain("oidc-sign-in");
  });
});

describe("two factors", () => {
  test("an account with two factors on is asked for its code after the provider's sign-in: no session until then", async () => {
    const user = await o.makeUser();
    const enrol = await callJson("POST", "/v1/user/me/2fa/totp", { app: o.app, token: user.jwt });
    const secret = enrol.body.data.secret as string;
    const code = () => totpOf(secret, "x").generate({ timestamp: o.clock.nowMs() });
    expect((await callJson("POST", "/v1/user/me/2fa/totp/confirm", { app: o.app, token: user.jwt, json: { code: code() } })).status).toBe(200);
    o.clock.advance(30_000);
    const person = personAt(provider, user.email, true);
    const b = browserOf(o, provider);
    const consent = "/oauth/authorize?client_id=shelf-sync";
    const back = await b.callback(await b.toCallback(person.sub, consent));
    expect(back.status).toBe(303);
    expect(back.cookies.some((c) => c.startsWith("shelf_refresh=") && !c.startsWith("shelf_refresh=;"))).toBe(false);
    const fragment = new URLSearchParams(new URL(back.location!).hash.replace(/^#\/sign-in-code\?/, ""));
    expect(back.location).toStartWith("http://shelf.test/#/sign-in-code?");
    expect(fragment.get("next")).toBe(consent);
    const done = await callJson("POST", "/v1/auth/login/2fa", {
      app: o.app,
      json: { challenge: fragment.get("challenge"), code: code() },
      headers: { "x-forwarded-for": o.ip() },
    });
    expect(done.status).toBe(200);
    expect(done.body.data.user.id).toBe(user.id);
  });
});

describe("two factors with a passkey", () => {
  test("an account whose second factor is a passkey alone is asked for it after the provider's sign-in, and the passkey completes it", async () => {
    const user = await o.makeUser();
    const { passkey, auth } = await addPasskey(user.jwt, { app: o.app });
    const b = browserOf(o, provider);
    const back = await b.callback(await b.toCallback(personAt(provider, user.email, true).sub));
    expect(back.status).toBe(303);
    const fragment = new URLSearchParams(new URL(back.location!).hash.replace(/^#\/sign-in-code\?/, ""));
    expect(fragment.get("methods")).toBe("passkey,recovery_code");
    const options = JSON.parse(Buffer.from(fragment.get("passkey")!, "base64url").toString()) as { challenge: string; allowCredentials: { id: string }[] };
    expect(options.allowCredentials.map((c) => c.id)).toEqual([passkey.credentialId]);
    const done = await callJson("POST", "/v1/auth/login/2fa", {
      app: o.app,
      json: { challenge: fragment.get("challenge"), passkey: auth.assert(passkey, options.challenge, { origin: "http://shelf.test", rpId: "shelf.test" }) },
      headers: { "x-forwarded-for": o.ip() },
    });
    expect(done.status).toBe(200);
    expect(done.body.data.user.id).toBe(user.id);
  });
});

describe("two api nodes", () => {
  test("a sign-in begun on one node completes on another: the login is in the shared store, not a process", async () => {
    const other = await oauthApp(oidcConfig(provider));
    const person = personAt(provider);
    const b = browserOf(o, provider);
    const back = await b.callback(await b.toCallback(person.sub), other);
    expect(back.status).toBe(303);
    expect((await b.refresh(o)).status).toBe(200);
  });
});

describe("the provider", () => {
  test("not set up: the button's address answers 404 on a page, never 500", async () => {
    const plain = await oauthApp();
    const res = await browserOf(plain, provider).start();
    expect(res.status).toBe(404);
    expect(res.headers.get("content-type")).toStartWith("text/html");
  });

  test("away: the node starts, and the button answers 502 on a page; the sign-in screens still say it is there", async () => {
    const away = await oauthApp(oidcConfig(provider, { OIDC_ISSUER: "http://127.0.0.1:9" }));
    const res = await browserOf(away, provider).start();
    expect(res.status).toBe(502);
    expect(refusalOf(res.html).reason).toBe("provider_unavailable");
    const setup = await callJson("GET", "/v1/auth/setup", { app: away.app });
    expect(setup.body.data.oidc).toEqual({ name: "Testprovider", signup: true });
  });

  test("the setup endpoint names no provider when none is set up", async () => {
    expect((await callJson("GET", "/v1/auth/setup")).body.data.oidc).toBeNull();
  });
});
