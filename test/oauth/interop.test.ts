// A maintained OAuth client library (oauth4webapi) against a listening server, from
// discovery on: the device flow, the authorization code flow with PKCE through the
// consent page's own forms, refresh, revocation. The server's address is its issuer.
import { afterAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import * as oauth from "oauth4webapi";
import { formFields } from "./authorize-steps.ts";
import { oauthApp } from "./flow.ts";
import { pageClient } from "./page-client.ts";
import { TEST_TIMEOUT_MS } from "../helpers/timeout.ts";

setDefaultTimeout(TEST_TIMEOUT_MS);

const server = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response("starting", { status: 503 }) });
// Not awaited: a connection the client pool keeps open can hold the promise past the hook timeout.
afterAll(() => {
  server.stop(true);
});
const base = `http://127.0.0.1:${server.port}`;
const o = await oauthApp((deps) => ({ config: { ...deps.config, PUBLIC_URL: base, CENTER_URL: base } }));
server.reload({ fetch: (request) => o.app.handle(request) });

const insecure = { [oauth.allowInsecureRequests]: true };
const as = await oauth.processDiscoveryResponse(new URL(base), await oauth.discoveryRequest(new URL(base), { algorithm: "oauth2", ...insecure }));
const auth = oauth.None();
const REDIRECT = "http://127.0.0.1:43817/oauth/callback";

/** The thrown ResponseBodyError's `error` (fails when nothing is thrown). */
async function oauthErrorOf(run: () => Promise<unknown>): Promise<string> {
  try {
    await run();
  } catch (e) {
    if (e instanceof oauth.ResponseBodyError) return e.error;
    throw e;
  }
  throw new Error("expected an OAuth error response");
}

/** A protected resource request, as the library reports it: the status, or the challenge of a refused token. */
async function resource(token: string, path: string): Promise<{ status: number; challenge?: string }> {
  try {
    const res = await oauth.protectedResourceRequest(token, "GET", new URL(`${base}${path}`), undefined, undefined, insecure);
    return { status: res.status };
  } catch (e) {
    if (!(e instanceof oauth.WWWAuthenticateChallengeError)) throw e;
    return { status: e.status, challenge: e.cause[0]?.parameters.error };
  }
}

/** A browser over the network: it follows no redirect by itself. */
const browser = () => pageClient({ handle: (request) => fetch(request, { redirect: "manual" }) }, { ip: o.ip(), base });

describe("oauth4webapi against the provider", () => {
  test("discovery: the metadata names the endpoints the flows use", () => {
    expect(as).toMatchObject({
      issuer: base,
      authorization_endpoint: `${base}/oauth/authorize`,
      token_endpoint: `${base}/oauth/token`,
      device_authorization_endpoint: `${base}/v1/oauth/device_authorization`,
      revocation_endpoint: `${base}/oauth/revoke`,
      response_types_supported: ["code"],
      code_challenge_methods_supported: ["S256"],
    });
    expect(as.grant_types_supported).toEqual(expect.arrayContaining(["authorization_code", "urn:ietf:params:oauth:grant-type:device_code", "refresh_token"]));
  });

  test("the device flow: pending until the user approves with a session, then tokens the API accepts", async () => {
    const user = await o.makeUser();
    const client: oauth.Client = { client_id: "shelf-media" };
    const started = await oauth.processDeviceAuthorizationResponse(
      as,
      client,
      await oauth.deviceAuthorizationRequest(as, client, auth, { scope: "media.read" }, insecure),
    );
    expect(started.verification_uri).toBe(`${base}/device`);
    const poll = async () => oauth.processDeviceCodeResponse(as, client, await oauth.deviceCodeGrantRequest(as, client, auth, started.device_code, insecure));
    expect(await oauthErrorOf(poll)).toBe("authorization_pending");
    const verified = await fetch(`${base}/v1/oauth/device/verify`, {
      method: "POST",
      headers: { authorization: `Bearer ${user.jwt}`, "content-type": "application/json" },
      body: JSON.stringify({ userCode: started.user_code.toLowerCase(), decision: "approve" }),
    });
    expect(verified.status).toBe(200);
    o.clock.advance(started.interval! * 1000);
    const tokens = await poll();
    expect(tokens).toMatchObject({ token_type: "bearer", scope: "media.read", expires_in: 900 });
    expect(await resource(tokens.access_token, "/v1/images")).toEqual({ status: 200 });
  });

  test("the code flow with PKCE through the consent page: sign in, approve with its CSRF token, redeem; the code used again revokes what it gave", async () => {
    const user = await o.makeUser();
    const client: oauth.Client = { client_id: "shelf-sync" };
    const verifier = oauth.generateRandomCodeVerifier();
    const state = oauth.generateRandomState();
    const url = new URL(as.authorization_endpoint!);
    url.search = new URLSearchParams({
      response_type: "code",
      client_id: client.client_id,
      redirect_uri: REDIRECT,
      scope: "media.read kb.read",
      state,
      code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
      code_challenge_method: "S256",
    }).toString();

    // The page, as a browser shows it: the sign-in form, then the consent form, each posted with its own fields.
    const b = browser();
    const signInPage = await b.get(url.pathname + url.search);
    expect(signInPage.status).toBe(200);
    const signedIn = await b.post(url.pathname, { ...formFields(signInPage.html, "sign-in"), email: user.email, password: user.password });
    expect(signedIn.status).toBe(303);
    const next = new URL(signedIn.headers.get("location")!, url);
    const consentPage = await b.get(next.pathname + next.search);
    expect(consentPage.status).toBe(200);
    expect(consentPage.html).toContain("Shelf Sync");
    expect(consentPage.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
    const approved = await b.post(url.pathname, { ...formFields(consentPage.html, "decision"), decision: "approve" });
    expect(approved.status).toBe(303);
    const callback = new URL(approved.headers.get("location")!);
    expect(callback.origin + callback.pathname).toBe(REDIRECT);

    const params = oauth.validateAuthResponse(as, client, callback, state);
    const tokens = await oauth.processAuthorizationCodeResponse(
      as,
      client,
      await oauth.authorizationCodeGrantRequest(as, client, auth, params, REDIRECT, verifier, insecure),
    );
    expect(tokens).toMatchObject({ token_type: "bearer", scope: "media.read kb.read" });
    expect(await resource(tokens.access_token, "/v1/kbs")).toEqual({ status: 200 });

    // The same code again is refused, and takes the authorization it gave with it.
    const again = await oauthErrorOf(async () =>
      oauth.processAuthorizationCodeResponse(as, client, await oauth.authorizationCodeGrantRequest(as, client, auth, params, REDIRECT, verifier, insecure)),
    );
    expect(again).toBe("invalid_grant");
    expect(await resource(tokens.access_token, "/v1/kbs")).toEqual({ status: 401, challenge: "invalid_token" });
  });

  test("refresh rotates the refresh token; a revoked token is refused by the API and cannot be refreshed", async () => {
    const user = await o.makeUser();
    const client: oauth.Client = { client_id: "shelf-sync" };
    const first = await o.tokensFor(user);
    const refreshed = await oauth.processRefreshTokenResponse(
      as,
      client,
      await oauth.refreshTokenGrantRequest(as, client, auth, first.refresh_token, insecure),
    );
    expect(refreshed.refresh_token).toBeString();
    expect(refreshed.refresh_token).not.toBe(first.refresh_token);
    expect(await resource(refreshed.access_token, "/v1/images")).toEqual({ status: 200 });

    await oauth.processRevocationResponse(await oauth.revocationRequest(as, client, auth, refreshed.access_token, insecure));
    expect(await resource(refreshed.access_token, "/v1/images")).toEqual({ status: 401, challenge: "invalid_token" });
    const api = await o.api("GET", "/v1/images", refreshed.access_token);
    expect(api.body).toMatchObject({ code: "OAUTH_BEARER_INVALID", meta: { reason: "revoked" } });
    const refused = await oauthErrorOf(async () =>
      oauth.processRefreshTokenResponse(as, client, await oauth.refreshTokenGrantRequest(as, client, auth, refreshed.refresh_token!, insecure)),
    );
    expect(refused).toBe("invalid_grant");
  });
});
