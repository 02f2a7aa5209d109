// Discovery where OpenID Connect clients look: /.well-known/openid-configuration answers
// the RFC 8414 metadata, the same document with the same headers, so a client that only
// discovers there (openid-client's default) finds the endpoints. Checked on a listening
// server whose address is its issuer, with a maintained client library (oauth4webapi).
import { afterAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import * as oauth from "oauth4webapi";
import { oauthApp } from "./flow.ts";
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

describe("GET /.well-known/openid-configuration", () => {
  test("answers the RFC 8414 metadata: equal JSON, the same content type and cache headers", async () => {
    const [rfc8414, oidc] = await Promise.all(
      ["/.well-known/oauth-authorization-server", "/.well-known/openid-configuration"].map((path) => fetch(`${base}${path}`)),
    );
    expect(oidc!.status).toBe(200);
    expect(rfc8414!.status).toBe(200);
    expect(oidc!.headers.get("content-type")).toStartWith("application/json");
    for (const name of ["content-type", "cache-control", "x-content-type-options"]) expect(oidc!.headers.get(name), name).toBe(rfc8414!.headers.get(name));
    const [a, b] = await Promise.all([rfc8414!.json(), oidc!.json()]);
    expect(b).toEqual(a);
    expect(b).toMatchObject({ issuer: base, token_endpoint: `${base}/oauth/token`, device_authorization_endpoint: `${base}/v1/oauth/device_authorization` });
  });

  test("oauth4webapi discovering as an OpenID client (algorithm oidc) gets the endpoints and starts a device flow with them", async () => {
    const response = await oauth.discoveryRequest(new URL(base), { algorithm: "oidc", ...insecure });
    expect(new URL(response.url).pathname).toBe("/.well-known/openid-configuration");
    const as = await oauth.processDiscoveryResponse(new URL(base), response);
    expect(as).toMatchObject({
      issuer: base,
      authorization_endpoint: `${base}/oauth/authorize`,
      token_endpoint: `${base}/oauth/token`,
      revocation_endpoint: `${base}/oauth/revoke`,
      code_challenge_methods_supported: ["S256"],
    });
    const client: oauth.Client = { client_id: "shelf-sync" };
    const started = await oauth.processDeviceAuthorizationResponse(
      as,
      client,
      await oauth.deviceAuthorizationRequest(as, client, oauth.None(), { scope: "kb.read" }, { ...insecure, headers: { "x-forwarded-for": o.ip() } }),
    );
    expect(started.verification_uri).toBe(`${base}/device`);
    expect(started.user_code).toMatch(/^[2-9A-HJ-NP-Z]{4}-[2-9A-HJ-NP-Z]{4}$/);
  });
});
