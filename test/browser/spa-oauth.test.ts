// A single-page app on another origin signs in with the OAuth provider as a public client
// and calls the API, in Chromium: oauth4webapi (a pinned devDependency, served by the app's
// own server) discovers the provider, the page registers itself by fetch, sends the person
// to the consent page with a PKCE challenge, redeems the code by fetch and reads
// GET /v1/kbs with the token, down to an exposed header. Every one of those fetches crosses
// origins (the registration and the API call are preflighted), so each passes only with
// the API's CORS headers. The refresh cookie's endpoint, called from the same page, fails:
// it sends no CORS header, so the page cannot read it.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { PASSWORD } from "../helpers/factories.ts";
import { browserRig, findChromium, SLOW } from "./chromium.ts";
import { TEST_TIMEOUT_MS } from "../helpers/timeout.ts";

setDefaultTimeout(TEST_TIMEOUT_MS);

const executable = findChromium();

/** oauth4webapi's browser build as published: one ES module with no imports. */
const OAUTH4WEBAPI = Bun.file(Bun.fileURLToPath(import.meta.resolve("oauth4webapi")));

/**
 * The app: at / it starts the flow, at /callback it finishes it; what came of it lands in
 * `window.result`. `issuer`: the provider's PUBLIC_URL.
 */
const page = (issuer: string) => `<!doctype html>
<html><head><meta charset="utf-8"><title>notes</title></head><body>
<script type="module">
import * as oauth from "/oauth4webapi.js";
const issuer = new URL(${JSON.stringify(issuer)});
// The provider is plain http in the test (shelf.test mapped to a local port).
const insecure = { [oauth.allowInsecureRequests]: true };
const redirectUri = location.origin + "/callback";
const report = (result) => { window.result = result; };
const discover = async () => oauth.processDiscoveryResponse(issuer, await oauth.discoveryRequest(issuer, { algorithm: "oauth2", ...insecure }));

async function start() {
  const as = await discover();
  const registered = await fetch(as.registration_endpoint, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json" },
    body: JSON.stringify({ client_name: "Browser Notes", redirect_uris: [redirectUri], scope: "kb.read", token_endpoint_auth_method: "none" }),
  });
  if (registered.status !== 201) return report({ step: "register", status: registered.status, body: await registered.text() });
  const { client_id } = await registered.json();
  const verifier = oauth.generateRandomCodeVerifier();
  const state = oauth.generateRandomState();
  sessionStorage.setItem("flow", JSON.stringify({ client_id, verifier, state }));
  const url = new URL(as.authorization_endpoint);
  url.search = new URLSearchParams({
    response_type: "code",
    client_id,
    redirect_uri: redirectUri,
    scope: "kb.read",
    state,
    code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
    code_challenge_method: "S256",
  }).toString();
  location.assign(url);
}

async function finish() {
  const as = await discover();
  const { client_id, verifier, state } = JSON.parse(sessionStorage.getItem("flow"));
  const client = { client_id };
  const params = oauth.validateAuthResponse(as, client, new URL(location.href), state);
  const answer = await oauth.authorizationCodeGrantRequest(as, client, oauth.None(), params, redirectUri, verifier, insecure);
  const tokens = await oauth.processAuthorizationCodeResponse(as, client, answer);
  const api = await oauth.protectedResourceRequest(tokens.access_token, "GET", new URL("/v1/kbs", issuer), undefined, undefined, insecure);
  const body = await api.json();
  let cookieCall;
  try {
    const res = await fetch(new URL("/v1/auth/refresh", issuer), { method: "POST", credentials: "include" });
    cookieCall = { status: res.status };
  } catch (e) {
    cookieCall = { error: e.name };
  }
  report({
    step: "done",
    clientId: client_id,
    scope: tokens.scope,
    status: api.status,
    items: body.data.items,
    requestId: api.headers.get("x-request-id"),
    remaining: api.headers.get("ratelimit-remaining"),
    cookieCall,
  });
}

(location.pathname === "/callback" ? finish() : start()).catch((e) => report({ step: "failed", error: String(e) }));
</script></body></html>`;

type Result = { step: string; [k: string]: unknown };

describe.skipIf(!executable)("a browser app on another origin signs in and calls the API", () => {
  let rig: Awaited<ReturnType<typeof browserRig>>;
  let app: ReturnType<typeof Bun.serve>;

  beforeAll(async () => {
    rig = await browserRig(executable!);
    const html = page(rig.o.deps.config.PUBLIC_URL);
    const script = await OAUTH4WEBAPI.arrayBuffer();
    app = Bun.serve({
      port: 0,
      hostname: "127.0.0.1",
      fetch: (request) =>
        new URL(request.url).pathname === "/oauth4webapi.js"
          ? new Response(script, { headers: { "content-type": "text/javascript" } })
          : new Response(html, { headers: { "content-type": "text/html; charset=utf-8" } }),
    });
  }, SLOW);

  afterAll(async () => {
    void app?.stop(true);
    await rig?.close();
  }, SLOW);

  test(
    "discovery, registration, consent, code exchange with PKCE, GET /v1/kbs reading X-Request-Id and RateLimit-Remaining; the refresh cookie's endpoint stays unreadable",
    async () => {
      const { o } = rig;
      const provider = new URL(o.deps.config.PUBLIC_URL).origin;
      expect(provider).not.toBe(app.url.origin);
      const tab = await rig.open(undefined, { javaScript: true });
      const result = () => tab.evaluate(() => (window as unknown as { result?: Result }).result);
      await tab.goto(`${app.url.origin}/`);
      // The app sends the person to the consent page once it has registered.
      await tab
        .waitForURL((u) => u.origin === provider && u.pathname === "/oauth/authorize")
        .catch(async (e) => {
          throw new Error(`the app did not reach the consent page: ${JSON.stringify(await result().catch(() => undefined))}`, { cause: e });
        });
      await tab.fill("#email", (await o.makeUser()).email);
      await tab.fill("#password", PASSWORD);
      await tab.click("#sign-in button[type=submit]");
      await tab.locator("#decision").waitFor();
      await expect(tab.locator("#client-name").textContent()).resolves.toBe("Browser Notes");
      await tab.click("#approve");
      await tab.waitForURL((u) => u.origin === app.url.origin && u.pathname === "/callback");
      await tab.waitForFunction(() => (window as unknown as { result?: Result }).result !== undefined);
      const done = (await result())!;
      expect(done).toMatchObject({ step: "done", scope: "kb.read", status: 200, items: [] });
      expect(done.requestId).toMatch(/\S/);
      expect(Number(done.remaining)).toBeGreaterThan(0);
      // No CORS header on the refresh cookie's endpoint: the fetch itself fails.
      expect(done.cookieCall).toEqual({ error: "TypeError" });
      await tab.context().close();
    },
    SLOW,
  );
});
