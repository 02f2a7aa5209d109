// OIDC state/nonce/issuer mix-up: the attacks on signing in through an OpenID provider
// (docs/security.md, "Signing in through an OpenID provider"), each against a real provider
// (oidc-provider). A callback with a wrong or reused state, or in a browser that did not
// begin the login; an ID token with a wrong nonce, audience or expiry (signed by the
// provider's own key, so only shelf's checks refuse it); a response from another issuer
// (RFC 9207 `iss`), and a code from another provider that shares shelf's client id; an
// address the provider does not vouch for trying to link an existing account. Each is
// refused on a page, opens no session, and stores nothing.
import { afterAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { callJson } from "../helpers/context.ts";
import { startOidcProvider } from "../helpers/oidc-provider.ts";
import { TEST_TIMEOUT_MS } from "../helpers/timeout.ts";
import { oauthApp } from "../oauth/flow.ts";
import { browserOf, oidcConfig, personAt, oidcProvider, refusalOf } from "../oidc/flow.ts";

setDefaultTimeout(TEST_TIMEOUT_MS);

const provider = await oidcProvider();

const o = await oauthApp(oidcConfig(provider));
// Another provider, with a client of the same id and secret for shelf: the mix-up's other side.
const other = await startOidcProvider();
afterAll(() => other.stop());

/** Refused on a page with `reason`, no session cookie set. */
function expectRefused(back: { status: number; html: string; cookies: string[] }, status: number, reason: string) {
  expect(back.status).toBe(status);
  expect(refusalOf(back.html).reason).toBe(reason);
  expect(back.cookies.some((c) => /^shelf_refresh=[^;]/.test(c))).toBe(false);
  expect(back.cookies.some((c) => /^shelf_session=[^;]/.test(c))).toBe(false);
}

/** No account has this address (nothing was made). */
async function noAccount(email: string) {
  const { getUserByEmail } = await import("../../src/modules/identity/public.ts");
  expect(await getUserByEmail(o.deps.db, email)).toBeUndefined();
}

describe("OIDC state/nonce/issuer mix-up", () => {
  test("a callback with a state shelf never gave is refused", async () => {
    const person = personAt(provider);
    const b = browserOf(o, provider);
    const url = await b.toCallback(person.sub);
    url.searchParams.set("state", "a-state-nobody-gave");
    expectRefused(await b.callback(url), 400, "state");
    await noAccount(person.email);
  });

  test("a callback without a state, or with none of the provider's parameters, is refused, never a 500", async () => {
    const b = browserOf(o, provider);
    await b.start();
    expectRefused(await b.callback(new URL("http://shelf.test/v1/auth/oidc/callback")), 400, "state");
    expectRefused(await b.callback(new URL(`http://shelf.test/v1/auth/oidc/callback?state=${"x".repeat(5000)}&code=%00`)), 400, "state");
  });

  test("a callback used once is refused the second time, even with the login's cookie put back", async () => {
    const person = personAt(provider);
    const b = browserOf(o, provider);
    const url = await b.toCallback(person.sub);
    const cookie = b.shelf.jar.get("shelf_oidc")!;
    expect((await b.callback(url)).status).toBe(303);
    b.shelf.jar.set("shelf_oidc", cookie);
    expectRefused(await b.callback(url), 400, "state");
  });

  test("a callback carried to another browser (login CSRF) finds no login there; the browser that began it still can finish", async () => {
    const person = personAt(provider);
    const victim = browserOf(o, provider);
    const attacker = browserOf(o, provider);
    const url = await attacker.toCallback(person.sub);
    await victim.start();
    expectRefused(await victim.callback(url), 400, "state");
    expect((await attacker.callback(url)).status).toBe(303);
  });

  test("an ID token with another login's nonce is refused", async () => {
    const person = personAt(provider);
    const b = browserOf(o, provider);
    const url = await b.toCallback(person.sub);
    provider.tamper((c) => ({ ...c, nonce: "the-nonce-of-another-login" }));
    expectRefused(await b.callback(url), 400, "check_failed");
    expect(provider.pendingTampers()).toBe(0);
    await noAccount(person.email);
  });

  test("an ID token for another client (wrong audience) is refused", async () => {
    const person = personAt(provider);
    const b = browserOf(o, provider);
    const url = await b.toCallback(person.sub);
    provider.tamper((c) => ({ ...c, aud: "another-client" }));
    expectRefused(await b.callback(url), 400, "check_failed");
    expect(provider.pendingTampers()).toBe(0);
    await noAccount(person.email);
  });

  test("an expired ID token is refused", async () => {
    const person = personAt(provider);
    const b = browserOf(o, provider);
    const url = await b.toCallback(person.sub);
    const now = Math.floor(o.clock.nowMs() / 1000);
    provider.tamper((c) => ({ ...c, iat: now - 7200, exp: now - 3600 }));
    expectRefused(await b.callback(url), 400, "check_failed");
    expect(provider.pendingTampers()).toBe(0);
    await noAccount(person.email);
  });

  test("an ID token issued by another issuer is refused", async () => {
    const person = personAt(provider);
    const b = browserOf(o, provider);
    const url = await b.toCallback(person.sub);
    provider.tamper((c) => ({ ...c, iss: other.issuer }));
    expectRefused(await b.callback(url), 400, "check_failed");
    expect(provider.pendingTampers()).toBe(0);
    await noAccount(person.email);
  });

  test("a response naming another issuer (RFC 9207 iss) is refused before the code is used", async () => {
    const person = personAt(provider);
    const b = browserOf(o, provider);
    const url = await b.toCallback(person.sub);
    url.searchParams.set("iss", other.issuer);
    expectRefused(await b.callback(url), 400, "check_failed");
    // A response without iss, from a provider that says it sends one, is refused too.
    const again = browserOf(o, provider);
    const bare = await again.toCallback(personAt(provider).sub);
    bare.searchParams.delete("iss");
    expectRefused(await again.callback(bare), 400, "check_failed");
  });

  test("mix-up: a login begun with this provider but finished at another that knows shelf's client is refused", async () => {
    const person = personAt(other);
    const b = browserOf(o, provider);
    const started = await b.start();
    // The attacker's provider receives the authorization request (state, nonce, PKCE challenge) and answers with its own code.
    const atOther = new URL(started.headers.get("location")!);
    const mixed = new URL(`${atOther.pathname}${atOther.search}`, other.issuer);
    const url = await other.browser().signIn(mixed.href, person.sub);
    expect(url.searchParams.get("iss")).toBe(other.issuer);
    expectRefused(await b.callback(url), 400, "check_failed");
    await noAccount(person.email);
  });

  test("the provider's refusal (access_denied) is said on a page", async () => {
    const b = browserOf(o, provider);
    const started = await b.start();
    const state = new URL(started.headers.get("location")!).searchParams.get("state")!;
    const url = new URL(`http://shelf.test/v1/auth/oidc/callback?error=access_denied&state=${state}&iss=${encodeURIComponent(provider.issuer)}`);
    expectRefused(await b.callback(url), 400, "access_denied");
  });

  test("an address the provider does not say is verified cannot take over the account that has it", async () => {
    const victim = await o.makeUser();
    const attacker = personAt(provider, victim.email, false);
    const b = browserOf(o, provider);
    expectRefused(await b.callback(await b.toCallback(attacker.sub)), 403, "email_unverified");
    expect((await callJson("GET", "/v1/user/me/identities", { app: o.app, token: victim.jwt })).body.data.items).toEqual([]);
    // "true" as a string is not the boolean true.
    const sub = `sub-${crypto.randomUUID()}`;
    provider.person(sub, { email: victim.email, email_verified: "true" as unknown as boolean });
    const again = browserOf(o, provider);
    expectRefused(await again.callback(await again.toCallback(sub)), 403, "email_unverified");
    expect((await callJson("GET", "/v1/user/me/identities", { app: o.app, token: victim.jwt })).body.data.items).toEqual([]);
  });

  test("an unverified address makes no new account either", async () => {
    const person = personAt(provider, undefined, false);
    const b = browserOf(o, provider);
    expectRefused(await b.callback(await b.toCallback(person.sub)), 403, "email_unverified");
    await noAccount(person.email);
  });
});
