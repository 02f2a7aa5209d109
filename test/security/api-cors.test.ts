// The API's CORS rule (src/http/cors.ts), surface by surface: a page on another origin may
// read what a Bearer token or nothing authorizes (/v1, the OAuth protocol endpoints, the
// discovery documents, the OpenAPI document), errors included, and is answered its
// preflights; what a cookie authorizes (/v1/auth/*, the consent and device pages) carries
// no CORS header, so another site's page cannot read it. The MCP endpoint keeps its own
// Origin check.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { oauthApp } from "../oauth/flow.ts";
import { TEST_TIMEOUT_MS } from "../helpers/timeout.ts";

setDefaultTimeout(TEST_TIMEOUT_MS);

const o = await oauthApp();
// The clients registered here are dated an hour back, so they never crowd the first page
// of the approval queue another file's test reads in the same process.
o.clock.advance(-3_600_000);
const ORIGIN = "https://spa.example";
const base = o.deps.config.PUBLIC_URL;

/** A request as a page on ORIGIN sends it (through the app, not held to the document: preflights are nowhere in it). */
const send = (method: string, path: string, headers: Record<string, string> = {}, body?: BodyInit) =>
  o.app.handle(
    new Request(`${base}${path}`, { method, headers: { origin: ORIGIN, "sec-fetch-site": "cross-site", "x-forwarded-for": o.ip(), ...headers }, body }),
  );

const preflight = (path: string, method: string, headers = "authorization, content-type") =>
  send("OPTIONS", path, { "access-control-request-method": method, "access-control-request-headers": headers });

const list = (value: string | null) => (value ?? "").split(",").map((s) => s.trim().toLowerCase());

/** What a browser needs to let the page read an answer: any origin, no credentials, the headers it reads exposed. */
function expectReadable(res: Response, what: string) {
  expect(res.headers.get("access-control-allow-origin"), what).toBe("*");
  expect(res.headers.get("access-control-allow-credentials"), what).toBeNull();
  expect(list(res.headers.get("access-control-expose-headers")), what).toEqual(
    expect.arrayContaining(["x-request-id", "location", "retry-after", "ratelimit-remaining", "etag", "upload-offset", "tus-resumable", "www-authenticate"]),
  );
}

function expectNoCors(res: Response, what: string) {
  for (const name of res.headers.keys()) expect(name.startsWith("access-control-"), `${what}: ${name}`).toBe(false);
}

const SURFACES: [path: string, method: string][] = [
  ["/v1/kbs", "GET"],
  ["/v1/images", "POST"],
  ["/v1/uploads/aaaaaaaaaaaaaaaaaaaaa", "PATCH"],
  ["/v1/oauth/device_authorization", "POST"],
  ["/oauth/token", "POST"],
  ["/oauth/register", "POST"],
  ["/oauth/revoke", "POST"],
  ["/.well-known/oauth-authorization-server", "GET"],
  ["/.well-known/openid-configuration", "GET"],
  ["/.well-known/oauth-protected-resource/mcp", "GET"],
  ["/swagger/json", "GET"],
];

describe("preflights", () => {
  for (const [path, method] of SURFACES) {
    test(`${method} ${path}: 204 allowing any origin, the method, Authorization, Content-Type and the tus headers, kept a day`, async () => {
      const res = await preflight(path, method, "authorization, content-type, upload-offset, tus-resumable, idempotency-key");
      expect(res.status).toBe(204);
      expect(res.headers.get("access-control-allow-origin")).toBe("*");
      expect(res.headers.get("access-control-allow-credentials")).toBeNull();
      expect(list(res.headers.get("access-control-allow-methods"))).toContain(method.toLowerCase());
      expect(list(res.headers.get("access-control-allow-headers"))).toEqual(
        expect.arrayContaining([
          "authorization",
          "content-type",
          "upload-offset",
          "upload-length",
          "upload-metadata",
          "upload-checksum",
          "tus-resumable",
          "idempotency-key",
        ]),
      );
      expect(Number(res.headers.get("access-control-max-age"))).toBeGreaterThanOrEqual(600);
      expect(res.headers.get("x-request-id")).toBeTruthy();
      expect(await res.text()).toBe("");
    });
  }

  test("the API's methods are all allowed on /v1; a discovery document is read-only", async () => {
    expect(list((await preflight("/v1/kbs/x", "DELETE")).headers.get("access-control-allow-methods"))).toEqual(
      expect.arrayContaining(["get", "head", "post", "put", "patch", "delete"]),
    );
    expect(list((await preflight("/.well-known/oauth-authorization-server", "GET")).headers.get("access-control-allow-methods"))).not.toContain("post");
  });

  test("a preflight needs no credential and counts against no limit: the route's guard never sees it", async () => {
    for (let i = 0; i < 3; i++) expect((await preflight("/v1/admin/oauth-clients", "GET")).status).toBe(204);
  });
});

describe("answers a page on another origin may read", () => {
  test("/v1 with an API key: 200 with Allow-Origin * and the headers it reads exposed (RateLimit-*, X-Request-Id)", async () => {
    const user = await o.makeUser();
    const { access_token } = await o.tokensFor(user);
    const res = await send("GET", "/v1/kbs", { authorization: `Bearer ${access_token}` });
    expect(res.status).toBe(200);
    expectReadable(res, "GET /v1/kbs");
    expect(res.headers.get("ratelimit-remaining")).toBeTruthy();
  });

  test("/v1 errors carry them too: 401 with its challenge, 404 and 422 envelopes, a tus 412", async () => {
    const user = await o.makeUser();
    const anonymous = await send("GET", "/v1/kbs");
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get("www-authenticate")).toStartWith("Bearer");
    expectReadable(anonymous, "401");
    const missing = await send("GET", "/v1/kbs/aaaaaaaaaaaaaaaaaaaaa", { authorization: `Bearer ${user.jwt}` });
    expect(missing.status).toBe(404);
    expect((await missing.json()).code).toBe("NOT_FOUND");
    expectReadable(missing, "404");
    const invalid = await send("POST", "/v1/kbs", { authorization: `Bearer ${user.jwt}`, "content-type": "application/json" }, JSON.stringify({ name: 42 }));
    expect(invalid.status).toBe(422);
    expect((await invalid.json()).code).toBe("VALIDATION_ERROR");
    expectReadable(invalid, "422");
    const noRoute = await send("GET", "/v1/no-such-route");
    expect(noRoute.status).toBe(404);
    expectReadable(noRoute, "the router's 404");
    const tus = await send("POST", "/v1/uploads", { authorization: `Bearer ${user.jwt}`, "upload-length": "10" });
    expect(tus.status).toBe(412);
    expectReadable(tus, "412");
  });

  test("a 429 of a /v1 tier carries them, with Retry-After and RateLimit-* readable", async () => {
    const limited = await oauthApp((deps) => ({ config: { ...deps.config, rateLimits: { ...deps.config.rateLimits, read: 1 } } }));
    const user = await limited.makeUser();
    const get = () => limited.app.handle(new Request(`${base}/v1/kbs`, { headers: { origin: ORIGIN, authorization: `Bearer ${user.jwt}` } }));
    expect((await get()).status).toBe(200);
    const res = await get();
    expect(res.status).toBe(429);
    expect(res.headers.get("retry-after")).toBeTruthy();
    expectReadable(res, "429");
  });

  test("the OAuth protocol endpoints: registration, a token error, revocation, the 429 of registration", async () => {
    const registered = await send(
      "POST",
      "/oauth/register",
      { "content-type": "application/json" },
      JSON.stringify({ client_name: "Browser App", redirect_uris: [`${ORIGIN}/cb`] }),
    );
    expect(registered.status).toBe(201);
    expectReadable(registered, "register");
    const form = { "content-type": "application/x-www-form-urlencoded" };
    const refused = await send("POST", "/oauth/token", form, new URLSearchParams({ grant_type: "authorization_code", client_id: "shelf-sync", code: "nope" }));
    expect(refused.status).toBe(400);
    expect((await refused.json()).error).toBe("invalid_request");
    expectReadable(refused, "token error");
    const revoked = await send("POST", "/oauth/revoke", form, new URLSearchParams({ token: "unknown" }));
    expect(revoked.status).toBe(200);
    expectReadable(revoked, "revoke");
    const from = o.ip();
    let last: Response | undefined;
    for (let i = 0; i < 11; i++) {
      last = await send(
        "POST",
        "/oauth/register",
        { "content-type": "application/json", "x-forwarded-for": from },
        JSON.stringify({ client_name: "x", grant_types: ["refresh_token"] }),
      );
    }
    expect(last!.status).toBe(429);
    expect(last!.headers.get("retry-after")).toBeTruthy();
    expectReadable(last!, "register 429");
  });

  test("the discovery documents and the OpenAPI document", async () => {
    for (const path of [
      "/.well-known/oauth-authorization-server",
      "/.well-known/openid-configuration",
      "/.well-known/oauth-protected-resource/mcp",
      "/swagger/json",
    ]) {
      const res = await send("GET", path);
      expect(res.status, path).toBe(200);
      expectReadable(res, path);
    }
  });

  test("every response header the OpenAPI document names for a covered path is exposed, or one a browser shows anyway", async () => {
    const doc = (await (await send("GET", "/swagger/json")).json()) as {
      paths: Record<string, Record<string, { responses?: Record<string, unknown> }>>;
      components: any;
    };
    const exposed = new Set(list((await send("GET", "/swagger/json")).headers.get("access-control-expose-headers")));
    // CORS-safelisted, and one the browser obeys itself rather than hands to the page.
    const shown = new Set([
      "cache-control",
      "content-language",
      "content-length",
      "content-type",
      "expires",
      "last-modified",
      "pragma",
      "x-content-type-options",
    ]);
    const resolve = (r: any): any =>
      r?.$ref
        ? resolve(
            r.$ref
              .split("/")
              .slice(1)
              .reduce((n: any, k: string) => n[k], doc),
          )
        : r;
    const missing = new Set<string>();
    for (const [path, ops] of Object.entries(doc.paths)) {
      if (!path.startsWith("/v1/") || path.startsWith("/v1/auth/")) continue;
      for (const op of Object.values(ops)) {
        for (const response of Object.values(op.responses ?? {})) {
          for (const name of Object.keys(resolve(response).headers ?? {})) {
            const h = name.toLowerCase();
            if (!exposed.has(h) && !shown.has(h) && !h.startsWith("access-control-")) missing.add(`${h} (${path})`);
          }
        }
      }
    }
    expect([...missing]).toEqual([]);
  });
});

describe("what a cookie authorizes stays with the service's own pages", () => {
  test("sign-in, sign-up, refresh and sign-out: no CORS header on the answer or the preflight, and the own-site check still refuses", async () => {
    for (const path of ["/v1/auth/login", "/v1/auth/signup", "/v1/auth/refresh", "/v1/auth/logout"]) {
      const res = await send("POST", path, { "content-type": "application/json" }, JSON.stringify({ email: "a@example.test", password: "x".repeat(12) }));
      expect(res.status, path).toBe(403);
      expect((await res.json()).meta.reason).toBe("cross_site");
      expectNoCors(res, path);
      const pre = await preflight(path, "POST");
      expectNoCors(pre, `preflight ${path}`);
      expect(pre.status).not.toBe(204);
    }
  });

  test("another spelling of /v1/auth (percent-encoded, doubled slash, capitals) gets no CORS header either", async () => {
    for (const path of ["/v1/%61uth/refresh", "/v1//auth/refresh", "/V1/AUTH/refresh"]) expectNoCors(await send("POST", path), path);
  });

  test("the consent page and the device page: no CORS header, nor for their preflights", async () => {
    for (const path of ["/oauth/authorize?response_type=code&client_id=shelf-sync", "/device"]) {
      expectNoCors(await send("GET", path), path);
      expectNoCors(await preflight(path.split("?")[0]!, "POST"), `preflight ${path}`);
    }
  });

  test("the MCP endpoint keeps its own rule: a page of another site is refused, and is never answered with *", async () => {
    const mcp = new URL(o.deps.config.MCP_URL).pathname;
    const pre = await preflight(mcp, "POST");
    expect(pre.status).toBe(403);
    expect(pre.headers.get("access-control-allow-origin")).toBeNull();
  });
});
