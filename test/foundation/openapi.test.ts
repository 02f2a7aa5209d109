// GET /swagger/json: a valid OpenAPI 3.1 document that lists every answer a route can give,
// with its headers, and types every integer as an integer. The rest of the suite holds
// every response to it (test/helpers/contract.ts); the last tests show that check refuses.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { Validator } from "@seriousme/openapi-schema-validator";
import { createApp } from "../../src/wiring/app.ts";
import { contractOf } from "../helpers/contract.ts";
import { call, callJson, expectDocumented, testContext } from "../helpers/context.ts";
import { makeUser, PASSWORD } from "../helpers/factories.ts";
import { doc, type Json, METHODS, resolve } from "../helpers/openapi-doc.ts";
import { TEST_TIMEOUT_MS } from "../helpers/timeout.ts";

setDefaultTimeout(TEST_TIMEOUT_MS);

const operations = Object.entries(doc.paths as Json).flatMap(([path, item]) =>
  Object.entries(item as Json)
    .filter(([m]) => METHODS.includes(m))
    .map(([method, op]) => ({ route: `${method.toUpperCase()} ${path}`, path, method, op: op as Json })),
);
const op = (route: string) => operations.find((o) => o.route === route)!.op;
// The media edge's paths, and a share link's media (the edge's answers, through the link).
const edge = (o: { path: string }) => o.path.startsWith("/media/") || o.path.startsWith("/s/{token}/m/") || o.path === "/s/{token}/f/{id}";

describe("GET /swagger/json", () => {
  test("is a valid OpenAPI 3.1 document", async () => {
    const result = await new Validator().validate(doc as never);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(doc.openapi).toStartWith("3.1");
  });

  test("keeps the paths, methods and schema names clients were built on, and adds the edge's", () => {
    expect(operations.map((o) => o.route).sort()).toEqual(
      [
        "GET /health",
        "GET /ready",
        "GET /v1/auth/setup",
        "POST /v1/auth/signup",
        "POST /v1/auth/login",
        "POST /v1/auth/login/2fa",
        "GET /v1/auth/oidc/start",
        "GET /v1/auth/oidc/callback",
        "POST /v1/auth/refresh",
        "POST /v1/auth/logout",
        "GET /v1/user/me",
        "PATCH /v1/user/me",
        "POST /v1/api-keys",
        "GET /v1/api-keys",
        "GET /v1/api-keys/scopes",
        "DELETE /v1/api-keys/{id}",
        "GET /v1/user/me/usage",
        "GET /v1/user/me/usage/daily",
        "POST /v1/images",
        "GET /v1/images",
        "GET /v1/images/{id}",
        "POST /v1/backup",
        "GET /v1/backup",
        "GET /v1/backup/{id}",
        "DELETE /v1/backup/{id}",
        "GET /v1/backup/{id}/archive",
        "POST /v1/migration",
        "GET /v1/migration",
        "GET /v1/migration/{id}",
        "PATCH /v1/images/{id}",
        "DELETE /v1/images/{id}",
        "PATCH /v1/admin/users/{id}",
        "GET /v1/admin/jobs",
        "POST /v1/admin/jobs/{name}/run",
        "GET /media/{file}",
        "HEAD /media/{file}",
        "POST /v1/docs",
        "GET /v1/docs",
        "GET /v1/docs/search",
        "DELETE /v1/docs",
        "GET /v1/docs/{id}",
        "PATCH /v1/docs/{id}",
        "DELETE /v1/docs/{id}",
        "GET /v1/docs/{id}/raw",
        "GET /v1/docs/{id}/render",
        "POST /v1/docs/raw:batch",
        "GET /v1/docs/{id}/revisions",
        "GET /v1/docs/{id}/revisions/{revId}",
        "POST /v1/docs/{id}/revisions/{revId}/restore",
        "DELETE /v1/user/me/doc-revisions",
        "GET /v1/admin/doc-cdn-hosts",
        "PUT /v1/admin/doc-cdn-hosts",
        "POST /v1/kbs",
        "GET /v1/kbs",
        "GET /v1/kbs/{id}",
        "PATCH /v1/kbs/{id}",
        "DELETE /v1/kbs/{id}",
        "GET /v1/kbs/{id}/manifest",
        "GET /v1/kbs/{id}/raw",
        "POST /v1/kbs/{id}/sync",
        "GET /v1/kbs/{id}/conflicts",
        "GET /v1/kbs/{id}/backlinks",
        "GET /v1/kbs/{id}/conflicts/{branchId}",
        "POST /v1/kbs/{id}/conflicts/{branchId}/accept",
        "DELETE /v1/kbs/{id}/conflicts/{branchId}",
        "PUT /v1/kbs/{id}/files/{sha256}",
        "HEAD /v1/kbs/{id}/files/{sha256}",
        "GET /v1/kbs/{id}/files/{sha256}",
        "GET /v1/kbs/{id}/tree",
        "POST /v1/kbs/{id}/read",
        "POST /v1/kbs/{id}/edit",
        "GET /.well-known/oauth-authorization-server",
        "GET /.well-known/openid-configuration",
        "POST /v1/oauth/device_authorization",
        "POST /oauth/token",
        "GET /oauth/authorize",
        "POST /oauth/authorize",
        "POST /oauth/revoke",
        "POST /oauth/register",
        "GET /v1/admin/oauth-clients",
        "GET /v1/admin/plans",
        "GET /v1/admin/users",
        "PATCH /v1/admin/oauth-clients/{id}",
        "POST /v1/oauth/device/verify",
        "GET /device",
        "POST /device",
        "GET /v1/user/me/oauth-grants",
        "DELETE /v1/user/me/oauth-grants/{id}",
        "POST /v1/videos",
        "GET /oembed",
        "POST /v1/shares",
        "GET /v1/shares",
        "GET /v1/shares/{id}",
        "PATCH /v1/shares/{id}",
        "DELETE /v1/shares/{id}",
        "GET /s/{token}",
        "POST /s/{token}",
        "GET /s/{token}/d/{id}",
        "GET /s/{token}/f/{id}",
        "GET /s/{token}/m/{file}",
        "GET /s/{token}/m/{kind}/{file}",
        "GET /s/{token}/m/{kind}/{id}/{file}",
        "GET /s/{token}/m/{kind}/{id}/{dir}/{file}",
        "POST /v1/published-pages",
        "GET /v1/published-pages",
        "GET /v1/published-pages/{id}",
        "DELETE /v1/published-pages/{id}",
        "GET /p/{slug}",
        "GET /p/{slug}/{path}",
        "GET /p/{slug}/{folder}/{path}",
        "GET /p/{slug}/{folder}/{sub}/{path}",
        "GET /p/{slug}/{folder}/{sub}/{sub2}/{path}",
        "GET /p/{slug}/{folder}/{sub}/{sub2}/{sub3}/{path}",
        "GET /v1/videos",
        "GET /v1/videos/{id}",
        "PATCH /v1/videos/{id}",
        "DELETE /v1/videos/{id}",
        "GET /v1/videos/{id}/status",
        "POST /v1/videos/{id}/thumbnail",
        "DELETE /v1/videos/{id}/thumbnail",
        "POST /v1/videos/{id}/sign",
        "GET /v1/videos/{id}/captions",
        "PUT /v1/videos/{id}/captions/{language}",
        "DELETE /v1/videos/{id}/captions/{language}",
        "GET /v1/media",
        "DELETE /v1/media",
        "GET /v1/trash",
        "POST /v1/trash/{id}/restore",
        "DELETE /v1/trash/{id}",
        "DELETE /v1/trash",
        "POST /v1/collections",
        "GET /v1/collections",
        "GET /v1/collections/{id}",
        "PATCH /v1/collections/{id}",
        "DELETE /v1/collections/{id}",
        "GET /v1/collections/{id}/items",
        "POST /v1/collections/{id}/items",
        "DELETE /v1/collections/{id}/items",
        "PUT /v1/collections/{id}/order",
        "POST /v1/webhooks/endpoints",
        "GET /v1/webhooks/endpoints",
        "GET /v1/webhooks/endpoints/{id}",
        "PATCH /v1/webhooks/endpoints/{id}",
        "DELETE /v1/webhooks/endpoints/{id}",
        "POST /v1/webhooks/endpoints/{id}/rotate-secret",
        "GET /v1/webhooks/endpoints/{id}/deliveries",
        "POST /v1/webhooks/endpoints/{id}/test",
        "GET /v1/notifications",
        "GET /v1/notifications/unread-count",
        "POST /v1/notifications/{id}/read",
        "POST /v1/notifications/read-all",
        "POST /v1/user/me/password",
        "POST /v1/auth/password-reset",
        "POST /v1/auth/password-reset/confirm",
        "POST /v1/auth/verify-email",
        "POST /v1/auth/verify-email/confirm",
        "POST /v1/auth/email-change/confirm",
        "POST /v1/user/me/email",
        "POST /v1/user/me/2fa/totp",
        "POST /v1/user/me/2fa/totp/confirm",
        "POST /v1/user/me/2fa/recovery-codes",
        "DELETE /v1/user/me/2fa",
        "POST /v1/user/me/passkeys/options",
        "POST /v1/user/me/passkeys",
        "GET /v1/user/me/passkeys",
        "PATCH /v1/user/me/passkeys/{id}",
        "DELETE /v1/user/me/passkeys/{id}",
        "POST /v1/auth/passkey/options",
        "POST /v1/auth/passkey",
        "GET /v1/user/me/sessions",
        "DELETE /v1/user/me/sessions",
        "DELETE /v1/user/me/sessions/{id}",
        "GET /v1/user/me/identities",
        "DELETE /v1/user/me/identities/{id}",
        "POST /webhooks/{provider}",
        "GET /media/v/{id}/{file}",
        "HEAD /media/v/{id}/{file}",
        "GET /media/v/{id}/{dir}/{file}",
        "HEAD /media/v/{id}/{dir}/{file}",
        "GET /media/v/{id}/{signature}/{rendition}/{file}",
        "HEAD /media/v/{id}/{signature}/{rendition}/{file}",
        "POST /v1/audio",
        "GET /v1/audio/{id}",
        "PATCH /v1/audio/{id}",
        "DELETE /v1/audio/{id}",
        "POST /v1/uploads",
        "HEAD /v1/uploads/{id}",
        "PATCH /v1/uploads/{id}",
        "DELETE /v1/uploads/{id}",
        "GET /v1/uploads/{id}",
        "GET /media/a/{file}",
        "HEAD /media/a/{file}",
        "GET /media/a/{id}/{file}",
        "HEAD /media/a/{id}/{file}",
        "GET /.well-known/oauth-protected-resource/mcp",
        "POST /mcp",
      ].sort(),
    );
    expect(Object.keys(doc.components.schemas)).toEqual(["Error"]);
  });

  test("every integer is an integer: no string-or-integer coercion leaks into a parameter, body or response", () => {
    const leaks: string[] = [];
    const walk = (node: unknown, at: string) => {
      if (!node || typeof node !== "object") return;
      const n = node as Json;
      if (n.type === "string" && (n.format === "integer" || n.format === "numeric")) leaks.push(at);
      for (const [k, v] of Object.entries(n)) walk(v, `${at}/${k}`);
    };
    walk(doc, "#");
    expect(leaks).toEqual([]);
    const data = (route: string, status = 200) => op(route).responses[status].content["application/json"].schema.properties.data;
    for (const field of ["size", "width", "height"]) expect(data("POST /v1/images", 201).properties[field].type).toBe("integer");
    expect(data("GET /v1/images").properties.total.type).toBe("integer");
    expect(data("GET /v1/images").properties.items.items.properties.size.type).toBe("integer");
    expect(data("POST /v1/auth/login").properties.expiresIn).toEqual({ description: "seconds", type: "integer" });
    expect(data("GET /v1/user/me/usage").properties.image.properties.storage.properties).toMatchObject({
      used: { type: "integer" },
      limit: { type: "integer" },
    });
    expect(op("GET /v1/images").parameters.find((p: Json) => p.name === "limit").schema).toMatchObject({ type: "integer", minimum: 1, maximum: 100 });
    expect(op("PATCH /v1/user/me").requestBody.content["application/json"].schema.properties.docVersioningMax).toMatchObject({ type: "integer" });
  });

  test("every answer has x-request-id, every route 500 and every route but liveness 503 (the database away); the shared answers and headers are each used", () => {
    const used = JSON.stringify(doc.paths);
    for (const { route, op } of operations) {
      expect(op.responses["500"], route).toEqual({ $ref: "#/components/responses/Internal" });
      if (
        [
          "GET /health",
          "GET /.well-known/oauth-authorization-server",
          "GET /.well-known/openid-configuration",
          "GET /.well-known/oauth-protected-resource/mcp",
        ].includes(route)
      )
        expect(op.responses["503"], route).toBeUndefined();
      else if (op["x-rfc6749-errors"] || op["x-html-page"])
        expect(op.responses["503"], route).toBeDefined(); // in the page's or protocol's own form
      else expect(op.responses["503"], route).toEqual({ $ref: "#/components/responses/ServiceUnavailable" });
      for (const [status, r] of Object.entries(op.responses as Json))
        expect(resolve(r).headers?.["x-request-id"], `${route} ${status}`).toEqual({ $ref: "#/components/headers/RequestId" });
    }
    for (const name of Object.keys(doc.components.responses)) expect(used, name).toContain(`#/components/responses/${name}"`);
    const headers = JSON.stringify([doc.paths, doc.components.responses]);
    for (const name of Object.keys(doc.components.headers)) expect(headers, name).toContain(`#/components/headers/${name}"`);
  });

  test("the answers that follow from a route's input: 422 for any, 400, 413 and 415 for a JSON body, 400 for a cursor, 404 for a path parameter", () => {
    // The OAuth protocol endpoints answer every bad input as RFC 6749's invalid_request (400);
    // the HTML pages say it on the page.
    // The MCP endpoint answers in JSON-RPC, as the protocol has it.
    for (const { route, op, ...o } of operations.filter((o) => !edge(o) && !o.op["x-rfc6749-errors"] && !o.op["x-html-page"] && !o.op["x-jsonrpc"])) {
      const statuses = Object.keys(op.responses);
      const input = (op.parameters ?? []).length > 0 || !!op.requestBody;
      if (input) expect(statuses, route).toContain("422");
      if (op.requestBody?.content["application/json"]) expect(statuses, route).toEqual(expect.arrayContaining(["400", "413", "415"]));
      if (op.parameters?.some((p: Json) => p.name === "cursor")) expect(statuses, route).toContain("400");
      if (o.path.includes("{")) expect(statuses, route).toContain("404");
    }
    // 403: a request another site's page made (http/own-site.ts).
    expect(Object.keys(op("POST /v1/auth/login").responses)).toEqual(["200", "400", "401", "403", "413", "415", "422", "429", "500", "503"]);
    expect(Object.keys(op("POST /v1/images").responses)).toEqual(["201", "400", "401", "403", "408", "409", "413", "422", "429", "451", "500", "502", "503"]);
  });

  test("the guard's 401, 403 and 429 are single references to the shared answers; success on a rate tier carries RateLimit-*", () => {
    // Routes where a credential is optional (public documents) have no rate tier of their own.
    const optional = (o: { op: Json }) => (o.op.security as Json[]).some((s) => Object.keys(s).length === 0);
    const guarded = operations.filter((o) => o.op.security && !edge(o) && !optional(o) && !o.op["x-jsonrpc"]);
    expect(guarded.length).toBe(133);
    for (const { route, op } of guarded) {
      expect(op.responses["401"], route).toEqual({ $ref: "#/components/responses/Unauthorized" });
      expect(op.responses["403"], route).toEqual({ $ref: "#/components/responses/Forbidden" });
      expect(op.responses["429"], route).toEqual({ $ref: "#/components/responses/RateLimited" });
      const success = Object.entries(op.responses as Json).filter(([s]) => s.startsWith("2"));
      for (const [, r] of success)
        expect(Object.keys(r.headers), route).toEqual(expect.arrayContaining(["RateLimit-Limit", "RateLimit-Remaining", "RateLimit-Reset"]));
    }
    expect(JSON.stringify(doc)).not.toContain("allOf");
    const limited = doc.components.responses.RateLimited.headers;
    for (const name of ["RateLimit-Limit", "RateLimit-Remaining", "RateLimit-Reset", "Retry-After"]) expect(resolve(limited[name]).required, name).toBe(true);
    expect(doc.components.responses.ServiceUnavailable.headers["Retry-After"].required).toBe(false);
  });

  test("DELETEs and logout answer 204 with no body; sign-up, login, refresh and logout set the refresh cookie", () => {
    for (const route of ["DELETE /v1/images/{id}", "DELETE /v1/api-keys/{id}", "POST /v1/auth/logout"]) {
      expect(op(route).responses["204"], route).toBeDefined();
      expect(op(route).responses["204"].content, route).toBeUndefined();
    }
    for (const [route, status] of [
      ["POST /v1/auth/signup", 201],
      ["POST /v1/auth/login", 200],
      ["POST /v1/auth/refresh", 200],
      ["POST /v1/auth/logout", 204],
    ] as const) {
      expect(op(route).responses[status].headers["Set-Cookie"], route).toMatchObject({ required: true, schema: { type: "string" } });
    }
  });

  test("the media edge: GET and HEAD MEDIA_URL/{file}, bytes or the envelope, with their caching and range headers", () => {
    const get = op("GET /media/{file}");
    const head = op("HEAD /media/{file}");
    expect(Object.keys(get.responses)).toEqual(["200", "206", "304", "400", "404", "416", "500", "502", "503"]);
    expect(Object.keys(head.responses)).toEqual(Object.keys(get.responses));
    expect(get.responses["200"].content["*/*"].schema).toEqual({ type: "string", format: "binary" });
    expect(head.responses["200"].content).toBeUndefined();
    expect(get.responses["404"].content["application/json"].schema).toEqual({ $ref: "#/components/schemas/Error" });
    const h = (status: number) => Object.fromEntries(Object.entries(get.responses[status].headers as Json).map(([n, x]) => [n, resolve(x).required]));
    expect(h(200)).toMatchObject({
      ETag: true,
      "Cache-Control": true,
      "Accept-Ranges": true,
      "X-Content-Type-Options": true,
      "Content-Length": true,
      Vary: false,
    });
    expect(h(206)).toMatchObject({ "Content-Range": true, "Content-Length": true });
    expect(h(304)).toMatchObject({ ETag: true });
    expect(h(416)).toMatchObject({ "Content-Range": true });
    expect(h(404)).toMatchObject({ "Cache-Control": true, "X-Content-Type-Options": true });
  });
});

test("an integer of a JSON body is a JSON number, as documented: a numeric string is 422", async () => {
  const u = await makeUser();
  const res = await callJson("PATCH", "/v1/user/me", { token: u.jwt, json: { docVersioningMax: "20" } });
  expect([res.status, res.body.meta.path]).toEqual([422, "body.docVersioningMax"]);
});

describe("the suite's check of every answer against the document", () => {
  const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
    new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json", "x-request-id": "r-1", ...headers } });
  const error = (code: string) => ({ success: false, error: "x", code, meta: {} });
  const limits = { "ratelimit-limit": "600", "ratelimit-remaining": "599", "ratelimit-reset": "60" };
  const violation = async (method: string, path: string, res: Response) => (await contractOf((await testContext()).app)).violation(method, path, res);

  test("refuses a status the route does not list, naming the route, the status and its code", async () => {
    expect(await violation("GET", "/v1/images/AAAAAAAAAAA", json(409, error("CONFLICT")))).toStartWith(
      "GET /v1/images/{id} answered 409 CONFLICT, which the document does not list for it",
    );
  });

  test("refuses a body that breaks the status's schema, naming the first error", async () => {
    const body = { success: true, data: { items: [], nextCursor: null, total: "3" } };
    expect(await violation("GET", "/v1/images?limit=5", json(200, body, limits))).toStartWith("GET /v1/images 200: body/data/total must be integer");
    expect(await violation("GET", "/v1/images/AAAAAAAAAAA", json(404, { ...error("NOT_FOUND"), code: "MISSING" }))).toStartWith(
      "GET /v1/images/{id} 404: body/code must be equal to one of the allowed values",
    );
  });

  test("refuses an answer without a header the document requires", async () => {
    const page = { success: true, data: { items: [], nextCursor: null, total: 0 } };
    expect(await violation("GET", "/v1/images", json(200, page))).toBe("GET /v1/images 200: the required header RateLimit-Limit is missing");
    expect(await violation("GET", "/v1/images", json(200, page, { ...limits, "ratelimit-reset": "soon" }))).toStartWith(
      "GET /v1/images 200: header RateLimit-Reset",
    );
    expect(await violation("GET", "/v1/images", json(200, page, limits))).toBeNull();
  });

  test("refuses a body where the document says none, and a path it does not have unless it is the router's 404", async () => {
    const headers = { ...limits, "x-request-id": "r-1" };
    expect(await violation("DELETE", "/v1/images/AAAAAAAAAAA", new Response(null, { status: 204, headers }))).toBeNull();
    const unsatisfiable = {
      "x-request-id": "r-1",
      etag: '"e"',
      "cache-control": "public, max-age=31536000, immutable",
      "accept-ranges": "bytes",
      "x-content-type-options": "nosniff",
      "content-range": "bytes */10",
    };
    expect(await violation("GET", "/media/AAAAAAAAAAA.png", new Response(null, { status: 416, headers: unsatisfiable }))).toBeNull();
    expect(await violation("GET", "/media/AAAAAAAAAAA.png", new Response("oops", { status: 416, headers: unsatisfiable }))).toStartWith(
      "GET /media/{file} 416: the document says no body, the response has 4 bytes",
    );
    expect(await violation("POST", "/v1/auth/logout", json(204, {}))).toStartWith("POST /v1/auth/logout 204: the required header Set-Cookie is missing");
    expect(await violation("GET", "/v1/nothing", json(200, { success: true, data: {} }))).toStartWith("GET /v1/nothing is in no path of the document");
    expect(await violation("GET", "/v1/nothing", json(404, { ...error("NOT_FOUND"), meta: { entity: "route" } }))).toBeNull();
  });

  test("an app a test builds itself is held to the same document through call(..., { app }) or expectDocumented", async () => {
    const { services, deps } = await testContext();
    const down = async () => Promise.reject(new Error("kv down"));
    const app = createApp({ ...services, deps: { ...deps, kv: { ...deps.kv, get: down, incr: down, ping: down } } });
    const u = await makeUser();
    expect((await call("GET", "/ready", { app })).status).toBe(503);
    const ready = await app.handle(new Request("http://shelf.test/ready")); // the same check for an answer got another way
    await expectDocumented("GET", "/ready", ready);
    const login = await call("POST", "/v1/auth/login", { app, json: { email: u.email, password: PASSWORD } });
    expect([login.status, login.headers.get("retry-after")]).toEqual([503, "30"]);
    const signup = await call("POST", "/v1/auth/signup", { app, json: { email: `x${u.email}`, password: "a good password" } });
    expect(signup.status).toBe(503);
  });
});
