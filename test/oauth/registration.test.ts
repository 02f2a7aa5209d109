import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { eq } from "drizzle-orm";
import { oauthClients, oauthGrants } from "../../src/modules/oauth/table.ts";
import { makeKey } from "../helpers/factories.ts";
import { oauthApp } from "./flow.ts";
import { TEST_TIMEOUT_MS } from "../helpers/timeout.ts";

setDefaultTimeout(TEST_TIMEOUT_MS);

const o = await oauthApp();

/** POST /oauth/register from `from` (a fresh address unless given: registrations are limited per address). */
const register = (metadata: unknown, from = o.ip()) =>
  o.call("POST", "/oauth/register", { app: o.app, json: metadata, headers: { "x-forwarded-for": from } }).then(async (res) => ({
    status: res.status,
    headers: res.headers,
    body: await res.json(),
  }));
const valid = { client_name: "Notes App", redirect_uris: ["https://app.example/cb", "http://127.0.0.1:8123/cb"] };
const admin = async () => {
  const user = await o.makeUser();
  await o.deps.db.execute(`update users set is_admin = true where id = '${user.id}'`);
  return user;
};

describe("POST /oauth/register (RFC 7591)", () => {
  test("registers a pending public client: 201 with its id and metadata, no-store, stored as pending", async () => {
    const res = await register({ ...valid, grant_types: ["urn:ietf:params:oauth:grant-type:device_code", "refresh_token"], scope: "kb.read media.read" });
    expect(res.status).toBe(201);
    expect(res.headers.get("cache-control")).toBe("no-store");
    // Read before toMatchObject, which leaves its asymmetric matchers in the object it matched.
    const clientId = res.body.client_id;
    expect(res.body).toMatchObject({
      client_id: expect.stringMatching(/^[A-Za-z0-9_-]{21}$/),
      client_name: "Notes App",
      redirect_uris: valid.redirect_uris,
      grant_types: ["urn:ietf:params:oauth:grant-type:device_code", "refresh_token"],
      token_endpoint_auth_method: "none",
      scope: "media.read kb.read",
      approval_status: "pending",
    });
    const [row] = await o.deps.db.select().from(oauthClients).where(eq(oauthClients.id, clientId));
    expect(row).toMatchObject({ status: "pending", name: "Notes App", scopes: ["media.read", "kb.read"] });
  });

  test("redirect URIs: javascript:, non-loopback http, a fragment, 11 URIs, a 3 KB URI, not a URI -> invalid_redirect_uri", async () => {
    for (const uris of [
      ["javascript:alert(1)"],
      ["http://app.example/cb"],
      ["https://app.example/cb#frag"],
      Array.from({ length: 11 }, (_, i) => `https://app.example/cb${i}`),
      [`https://app.example/${"a".repeat(3000)}`],
      ["not a uri"],
      ["https://app.example/c\u0000b"],
      ["https://app.example/a b"],
      [42],
      "https://app.example/cb",
    ]) {
      const res = await register({ client_name: "x", redirect_uris: uris });
      expect(res.status, JSON.stringify(uris).slice(0, 80)).toBe(400);
      expect(res.body.error).toBe("invalid_redirect_uri");
      expect(res.headers.get("cache-control")).toBe("no-store");
    }
    expect((await register({ client_name: "x", redirect_uris: ["http://localhost:9/cb", "http://[::1]/cb"] })).status).toBe(201);
    expect((await register({ client_name: "x", grant_types: ["authorization_code"] })).body.error).toBe("invalid_redirect_uri");
  });

  test("a body that is not JSON or not an object, or bad metadata -> invalid_client_metadata", async () => {
    const raw = (body: string, type: string) =>
      o.call("POST", "/oauth/register", { app: o.app, body, headers: { "content-type": type, "x-forwarded-for": o.ip() } }).then(async (r) => ({
        status: r.status,
        body: await r.json(),
      }));
    for (const res of [
      await raw("client_name=x", "application/x-www-form-urlencoded"),
      await raw("{nope", "application/json"),
      await raw("[]", "application/json"),
      await register({}),
      await register({ client_name: "" }),
      await register({ client_name: "a\u0000b" }),
      await register({ ...valid, grant_types: ["password"] }),
      await register({ ...valid, scope: "everything" }),
      await register({ ...valid, token_endpoint_auth_method: "client_secret_basic" }),
    ]) {
      expect(res.status).toBe(400);
      expect(res.body.error).toBe("invalid_client_metadata");
    }
  });

  test("a client_name holding a control or bidi control character (as any name refuses) -> 400 invalid_client_metadata, nothing stored", async () => {
    const unsafe = [
      "\u202a",
      "\u202b",
      "\u202c",
      "\u202d",
      "\u202e",
      "\u2066",
      "\u2067",
      "\u2068",
      "\u2069",
      "\u200e",
      "\u200f",
      "\u061c",
      "\u0085",
      "\u009b",
      "\u001b",
      "\u007f",
    ];
    for (const c of unsafe) {
      const res = await register({ ...valid, client_name: `Notes${c}ppA` });
      expect(res.status).toBe(400);
      expect(
        await o.deps.db
          .select()
          .from(oauthClients)
          .where(eq(oauthClients.name, `Notes${c}ppA`)),
      ).toEqual([]);
      expect(res.headers.get("cache-control")).toBe("no-store");
      expect(res.body.error).toBe("invalid_client_metadata");
      expect(res.body.error_description).toContain("client_name");
    }
  });

  test("at most 10 registrations per address and hour: then 429 OAUTH_CLIENT_RATE_LIMITED with Retry-After", async () => {
    const ip = o.ip();
    for (let i = 0; i < 10; i++) expect((await register(valid, ip)).status).toBe(201);
    const refused = await register(valid, ip);
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ error: "temporarily_unavailable", error_code: "OAUTH_CLIENT_RATE_LIMITED" });
    expect(refused.headers.get("retry-after")).toBe("3600");
    expect((await register(valid)).status).toBe(201);
  });
});

describe("the approval queue: /v1/admin/oauth-clients", () => {
  test("a pending client may start a device flow and the user is told it is unverified; approved it is not; rejected it may not and its grants are revoked", async () => {
    const reg = await register({ client_name: "Reader", grant_types: ["urn:ietf:params:oauth:grant-type:device_code", "refresh_token"], scope: "media.read" });
    const clientId = reg.body.client_id;
    const user = await o.makeUser();
    const started = (await o.start(clientId)).body;
    const approved = await o.verify(user, started.user_code);
    expect(approved.body.data).toMatchObject({ clientId, clientName: "Reader", unverified: true, scopes: ["media.read"] });
    const tokens = (await o.poll(started.device_code, clientId)).body;
    expect((await o.api("GET", "/v1/images", tokens.access_token)).status).toBe(200);

    const boss = await admin();
    const queue = await o.api("GET", "/v1/admin/oauth-clients", boss.jwt);
    expect(queue.status).toBe(200);
    expect(queue.body.data.items.map((c: any) => c.id)).toContain(clientId);
    const ok = await o.call("PATCH", `/v1/admin/oauth-clients/${clientId}`, { app: o.app, token: boss.jwt, json: { status: "approved" } });
    expect(ok.status).toBe(200);
    const again = (await o.start(clientId)).body;
    expect((await o.verify(user, again.user_code)).body.data.unverified).toBe(false);

    const rejected = await callJsonPatch(clientId, boss.jwt, "rejected");
    expect(rejected.status).toBe(200);
    expect(rejected.body.data).toMatchObject({ id: clientId, status: "rejected", decidedAt: expect.any(String) });
    expect((await o.deps.db.select().from(oauthGrants).where(eq(oauthGrants.clientId, clientId)))[0]!.revokedAt).not.toBeNull();
    expect((await o.api("GET", "/v1/images", tokens.access_token)).body.code).toBe("OAUTH_BEARER_INVALID");
    expect((await o.start(clientId)).body.error).toBe("invalid_client");
    expect((await o.refresh(tokens.refresh_token, clientId)).body.error).toBe("invalid_client");
    expect((await callJsonPatch(clientId, boss.jwt, "approved")).status).toBe(409);
  });

  test("a client rejected while its user code waits: the user cannot approve it and it gets no tokens", async () => {
    const reg = await register({ client_name: "Short-lived", grant_types: ["urn:ietf:params:oauth:grant-type:device_code"], scope: "media.read" });
    const clientId = reg.body.client_id;
    const user = await o.makeUser();
    const started = (await o.start(clientId)).body;
    expect((await callJsonPatch(clientId, (await admin()).jwt, "rejected")).status).toBe(200);
    const refused = await o.verify(user, started.user_code);
    expect(refused.status).toBe(404);
    expect(refused.body.meta).toMatchObject({ entity: "user_code", reason: "client_rejected" });
    expect((await o.poll(started.device_code, clientId)).body.error).toBe("invalid_client");
  });

  test("a client registered without the device grant may not start a device flow: unauthorized_client", async () => {
    const reg = await register(valid);
    const refused = await o.start(reg.body.client_id);
    expect(refused.status).toBe(400);
    expect(refused.body.error).toBe("unauthorized_client");
    const polled = await o.poll("B".repeat(32), reg.body.client_id);
    expect(polled.body.error).toBe("unauthorized_client");
  });

  test("administrators only, and changes need a signed-in session: a user 403, an admin's API key may list but not decide, an unknown id 404", async () => {
    const reg = await register(valid);
    const user = await o.makeUser();
    expect((await o.api("GET", "/v1/admin/oauth-clients", user.jwt)).status).toBe(403);
    expect((await callJsonPatch(reg.body.client_id, user.jwt, "approved")).status).toBe(403);
    const boss = await admin();
    const { key } = await makeKey(boss);
    expect((await o.api("GET", "/v1/admin/oauth-clients?status=pending", key)).status).toBe(200);
    expect((await callJsonPatch(reg.body.client_id, key, "approved")).status).toBe(403);
    expect((await callJsonPatch("A".repeat(21), boss.jwt, "approved")).status).toBe(404);
    expect((await callJsonPatch(reg.body.client_id, boss.jwt, "pending" as never)).status).toBe(422);
  });
});

function callJsonPatch(id: string, token: string, status: "approved" | "rejected") {
  return o
    .call("PATCH", `/v1/admin/oauth-clients/${id}`, { app: o.app, token, json: { status } })
    .then(async (r) => ({ status: r.status, body: await r.json() }));
}

test("when the kv cannot count, device authorization and registration fail closed: 503 temporarily_unavailable with Retry-After", async () => {
  const broken = await oauthApp((deps) => ({
    kv: new Proxy(deps.kv, {
      get: (kv, key) => (key === "incr" || key === "slidingWindow" ? () => Promise.reject(new Error("kv down")) : Reflect.get(kv, key)),
    }),
  }));
  const started = await broken.start();
  const registered = await broken
    .call("POST", "/oauth/register", { app: broken.app, json: valid })
    .then(async (r) => ({ status: r.status, headers: r.headers, body: await r.json() }));
  for (const res of [started, registered]) {
    expect(res.status).toBe(503);
    expect(res.body).toMatchObject({ error: "temporarily_unavailable", error_code: "SERVICE_UNAVAILABLE" });
    expect(res.headers.get("retry-after")).toBe("30");
    expect(res.headers.get("cache-control")).toBe("no-store");
  }
});
