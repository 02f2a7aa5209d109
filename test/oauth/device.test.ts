import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { eq } from "drizzle-orm";
import { oauthDeviceAuthorizations } from "../../src/modules/oauth/table.ts";
import { makeKey } from "../helpers/factories.ts";
import { oauthApp } from "./flow.ts";
import { TEST_TIMEOUT_MS } from "../helpers/timeout.ts";

setDefaultTimeout(TEST_TIMEOUT_MS);

const o = await oauthApp();
const sha256 = (s: string) => new Bun.CryptoHasher("sha256").update(s).digest("hex");
const stored = async (deviceCode: string) =>
  (
    await o.deps.db
      .select()
      .from(oauthDeviceAuthorizations)
      .where(eq(oauthDeviceAuthorizations.deviceCodeHash, sha256(deviceCode)))
  )[0]!;

describe("GET /.well-known/oauth-authorization-server", () => {
  test("names the endpoints, grant types, scopes and S256 (RFC 8414)", async () => {
    const res = await o.call("GET", "/.well-known/oauth-authorization-server", { app: o.app });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body).toMatchObject({
      issuer: "http://shelf.test",
      token_endpoint: "http://shelf.test/oauth/token",
      device_authorization_endpoint: "http://shelf.test/v1/oauth/device_authorization",
      revocation_endpoint: "http://shelf.test/oauth/revoke",
      grant_types_supported: ["authorization_code", "urn:ietf:params:oauth:grant-type:device_code", "refresh_token"],
      code_challenge_methods_supported: ["S256"],
      token_endpoint_auth_methods_supported: ["none"],
    });
    expect(body.scopes_supported).toContain("kb.write");
  });
});

describe("POST /v1/oauth/device_authorization", () => {
  test("a form gives a user code, a device code stored only as its hash, the verification URIs, interval 5 and 600 s", async () => {
    const res = await o.start("shelf-sync");
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("no-store");
    const b = res.body;
    expect(b.user_code).toMatch(/^[2-9A-HJ-NP-Z]{4}-[2-9A-HJ-NP-Z]{4}$/);
    expect(b.device_code).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(b).toMatchObject({ verification_uri: "http://shelf.test/device", interval: 5, expires_in: 600 });
    expect(b.verification_uri_complete).toBe(`http://shelf.test/device?user_code=${b.user_code}`);
    const row = await stored(b.device_code);
    expect(row.status).toBe("pending");
    expect(row.userCode).toBe(b.user_code.replace("-", ""));
    expect(row.scopes).toEqual(["media.read", "media.write", "kb.read", "kb.write"]);
    expect(JSON.stringify(row)).not.toContain(b.device_code);
    expect(row.expiresAt.getTime() - row.createdAt.getTime()).toBe(600_000);
  });

  test("takes JSON too, and a narrower scope", async () => {
    const res = await o.call("POST", "/v1/oauth/device_authorization", {
      app: o.app,
      json: { client_id: "shelf-media", scope: "media.read" },
      headers: { "x-forwarded-for": o.ip() },
    });
    expect(res.status).toBe(200);
    const b = await res.json();
    expect((await stored(b.device_code)).scopes).toEqual(["media.read"]);
  });

  test("a missing client_id, an unknown client, a scope the client may not have, a doubled parameter or another body type are refused in RFC 6749 form", async () => {
    const cases: [Promise<{ status: number; body: any; headers: Headers }>, number, string][] = [
      [o.post("/v1/oauth/device_authorization", {}), 400, "invalid_request"],
      [o.start("no-such-client"), 401, "invalid_client"],
      [o.start("shelf-media", { scope: "kb.read" }), 400, "invalid_scope"],
      [o.start("shelf-sync", { scope: "media.read nonsense" }), 400, "invalid_scope"],
      [
        o
          .call("POST", "/v1/oauth/device_authorization", {
            app: o.app,
            body: "client_id=shelf-sync&client_id=shelf-media",
            headers: { "content-type": "application/x-www-form-urlencoded", "x-forwarded-for": o.ip() },
          })
          .then(async (r) => ({ status: r.status, headers: r.headers, body: await r.json() })),
        400,
        "invalid_request",
      ],
      [
        o
          .call("POST", "/v1/oauth/device_authorization", { app: o.app, body: "client_id=shelf-sync", headers: { "content-type": "text/plain" } })
          .then(async (r) => ({ status: r.status, headers: r.headers, body: await r.json() })),
        400,
        "invalid_request",
      ],
      [
        o.call("POST", "/v1/oauth/device_authorization", { app: o.app, json: { client_id: 42 } }).then(async (r) => ({
          status: r.status,
          headers: r.headers,
          body: await r.json(),
        })),
        400,
        "invalid_request",
      ],
    ];
    for (const [pending, status, error] of cases) {
      const res = await pending;
      expect(res.status).toBe(status);
      expect(res.body.error).toBe(error);
      expect(typeof res.body.error_description).toBe("string");
      expect(res.headers.get("cache-control")).toBe("no-store");
    }
  });

  test("at most 10 per client_id and address per minute: the 11th is 429 with Retry-After; another client or address is not counted", async () => {
    const ip = o.ip();
    for (let i = 0; i < 10; i++) expect((await o.start("shelf-sync", {}, ip)).status).toBe(200);
    const refused = await o.start("shelf-sync", {}, ip);
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ error: "temporarily_unavailable", error_code: "RATE_LIMITED" });
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect((await o.start("shelf-media", {}, ip)).status).toBe(200);
    expect((await o.start("shelf-sync", {}, o.ip())).status).toBe(200);
    // The window is estimated from per-minute buckets: two minutes on, the first is out of it.
    o.clock.advance(120_000);
    expect((await o.start("shelf-sync", {}, ip)).status).toBe(200);
  });
});

describe("hostile input at the protocol endpoints gets invalid_request, invalid_client or invalid_grant, never a 500", () => {
  test("a NUL or a long client_id, a body over 16 KB, bytes that are not UTF-8, a nested JSON value", async () => {
    const raw = (path: string, body: BodyInit, type = "application/x-www-form-urlencoded") =>
      o.call("POST", path, { app: o.app, body, headers: { "content-type": type, "x-forwarded-for": o.ip() } }).then(async (r) => {
        const text = await r.text();
        return { status: r.status, body: text ? JSON.parse(text) : null };
      });
    const cases: [Promise<{ status: number; body: any }>, number, string][] = [
      [o.start("shelf\u0000sync"), 401, "invalid_client"],
      [o.start("x".repeat(5000)), 401, "invalid_client"],
      [o.poll("A".repeat(32), "a\u0000b"), 401, "invalid_client"],
      [raw("/v1/oauth/device_authorization", `client_id=shelf-sync&scope=${"a".repeat(17 * 1024)}`), 400, "invalid_request"],
      [raw("/oauth/token", new Uint8Array([0x63, 0x3d, 0xff, 0xfe])), 400, "invalid_request"],
      [raw("/oauth/token", JSON.stringify({ client_id: { $ne: 1 } }), "application/json"), 400, "invalid_request"],
      [raw("/oauth/token", "[1,2]", "application/json"), 400, "invalid_request"],
      [raw("/oauth/token", "{not json", "application/json"), 400, "invalid_request"],
      [raw("/oauth/revoke", "token=%00%ZZ", "application/x-www-form-urlencoded"), 200, ""],
    ];
    for (const [pending, status, error] of cases) {
      const res = await pending;
      expect(res.status).toBe(status);
      if (error) expect(res.body.error).toBe(error);
    }
  });
});

describe("POST /oauth/token with the device_code grant (RFC 8628)", () => {
  test("authorization_pending until the user acts; a poll sooner than the interval is slow_down and the interval grows by 5 s each time", async () => {
    const { device_code } = (await o.start()).body;
    const first = await o.poll(device_code);
    expect(first.status).toBe(400);
    expect(first.body.error).toBe("authorization_pending");
    expect(first.headers.get("cache-control")).toBe("no-store");
    o.clock.advance(1_000);
    expect((await o.poll(device_code)).body.error).toBe("slow_down");
    expect((await stored(device_code)).intervalS).toBe(10);
    o.clock.advance(6_000); // 6 s < 10 s
    expect((await o.poll(device_code)).body.error).toBe("slow_down");
    expect((await stored(device_code)).intervalS).toBe(15);
    o.clock.advance(15_000);
    expect((await o.poll(device_code)).body.error).toBe("authorization_pending");
    expect((await stored(device_code)).intervalS).toBe(15);
  });

  test("approved (code typed in lower case with spaces): tokens once, with no-store; the device code is then consumed (invalid_grant)", async () => {
    const user = await o.makeUser();
    const started = (await o.start()).body;
    const typed = ` ${started.user_code.toLowerCase().replace("-", " ")} `;
    const approved = await o.verify(user, typed);
    expect(approved.status).toBe(200);
    expect(approved.body.data).toEqual({
      userCode: started.user_code,
      decision: "approve",
      clientId: "shelf-sync",
      clientName: "Shelf Sync",
      unverified: false,
      scopes: ["media.read", "media.write", "kb.read", "kb.write"],
    });
    const tokens = await o.poll(started.device_code);
    expect(tokens.status).toBe(200);
    expect(tokens.headers.get("cache-control")).toBe("no-store");
    expect(tokens.body).toMatchObject({ token_type: "Bearer", expires_in: 900, scope: "media.read media.write kb.read kb.write" });
    expect(tokens.body.access_token).toMatch(/^oat_/);
    expect(tokens.body.refresh_token).toMatch(/^ort_/);
    expect((await stored(started.device_code)).status).toBe("consumed");
    const again = await o.poll(started.device_code);
    expect(again.status).toBe(400);
    expect(again.body.error).toBe("invalid_grant");
    const me = await o.api("GET", "/v1/images", tokens.body.access_token);
    expect(me.status).toBe(200);
  });

  test("denied: access_denied, and again on the next poll", async () => {
    const user = await o.makeUser();
    const started = (await o.start()).body;
    expect((await o.verify(user, started.user_code, "deny")).status).toBe(200);
    expect((await o.poll(started.device_code)).body.error).toBe("access_denied");
    o.clock.advance(5_000);
    expect((await o.poll(started.device_code)).body.error).toBe("access_denied");
    expect((await stored(started.device_code)).status).toBe("denied");
  });

  test("after 10 minutes: expired_token, approved or not; the user is told the code expired", async () => {
    const user = await o.makeUser();
    const pending = (await o.start()).body;
    const approved = (await o.start()).body;
    expect((await o.verify(user, approved.user_code)).status).toBe(200);
    o.clock.advance(599_000);
    expect((await o.poll(pending.device_code)).body.error).toBe("authorization_pending");
    o.clock.advance(1_000);
    expect((await o.poll(pending.device_code)).body.error).toBe("expired_token");
    expect((await o.poll(approved.device_code)).body.error).toBe("expired_token");
    const late = await o.verify(user, pending.user_code);
    expect(late.status).toBe(404);
    expect(late.body.meta).toEqual({ entity: "user_code", reason: "expired" });
  });

  test("an unknown device code, or one sent by another client, is invalid_grant; an unknown client is invalid_client", async () => {
    const started = (await o.start("shelf-sync")).body;
    expect((await o.poll("A".repeat(32))).body.error).toBe("invalid_grant");
    expect((await o.poll("short")).body.error).toBe("invalid_grant");
    expect((await o.poll(started.device_code, "shelf-media")).body.error).toBe("invalid_grant");
    const unknown = await o.poll(started.device_code, "nobody");
    expect(unknown.status).toBe(401);
    expect(unknown.body.error).toBe("invalid_client");
    expect((await o.post("/oauth/token", { client_id: "shelf-sync", grant_type: "password" })).body.error).toBe("unsupported_grant_type");
    expect((await o.post("/oauth/token", { client_id: "shelf-sync" })).body.error).toBe("invalid_request");
    expect((await o.post("/oauth/token", { client_id: "shelf-sync", grant_type: "urn:ietf:params:oauth:grant-type:device_code" })).body.error).toBe(
      "invalid_request",
    );
  });

  test("two redemptions at the same moment: one gets the tokens, the other invalid_grant", async () => {
    const user = await o.makeUser();
    const started = (await o.start()).body;
    await o.verify(user, started.user_code);
    const both = await Promise.all([o.poll(started.device_code), o.poll(started.device_code)]);
    expect(both.map((r) => r.status).sort()).toEqual([200, 400]);
    expect(both.find((r) => r.status === 400)!.body.error).toBe("invalid_grant");
  });
});

describe("POST /v1/oauth/device/verify", () => {
  test("needs a signed-in session: no credential 401, an API key or an OAuth token 403", async () => {
    const user = await o.makeUser();
    const { user_code } = (await o.start()).body;
    const none = await o.call("POST", "/v1/oauth/device/verify", { app: o.app, json: { userCode: user_code, decision: "approve" } });
    expect(none.status).toBe(401);
    const { key } = await makeKey(user);
    const byKey = await o.verify(user, user_code, "approve", o.ip(), key);
    expect(byKey.status).toBe(403);
    expect(byKey.body.code).toBe("FORBIDDEN");
    const tokens = await o.tokensFor(user);
    const byToken = await o.verify(user, user_code, "approve", o.ip(), tokens.access_token);
    expect(byToken.status).toBe(403);
    expect((await stored((await o.start()).body.device_code)).status).toBe("pending");
  });

  test("a code already decided is 409; a malformed body is 422", async () => {
    const user = await o.makeUser();
    const { user_code } = (await o.start()).body;
    expect((await o.verify(user, user_code)).status).toBe(200);
    const again = await o.verify(user, user_code, "deny");
    expect(again.status).toBe(409);
    expect(again.body.meta.reason).toBe("already_decided");
    const bad = await o.call("POST", "/v1/oauth/device/verify", { app: o.app, token: user.jwt, json: { userCode: user_code, decision: "maybe" } });
    expect(bad.status).toBe(422);
  });

  test("the decision is required and is exactly approve or deny: anything else is 422 and the device keeps polling authorization_pending", async () => {
    const user = await o.makeUser();
    const { user_code, device_code } = (await o.start()).body;
    const bodies: object[] = [
      { userCode: user_code },
      { userCode: user_code, action: "approve" },
      { userCode: user_code, decision: "yes" },
      { userCode: user_code, decision: "APPROVE" },
      { userCode: user_code, decision: "" },
      { userCode: user_code, decision: null },
      { userCode: user_code, decision: true },
      { userCode: user_code, decision: ["approve"] },
    ];
    for (const json of bodies) {
      const res = await o.call("POST", "/v1/oauth/device/verify", { app: o.app, token: user.jwt, json });
      expect({ json, status: res.status }).toEqual({ json, status: 422 });
      const body = await res.json();
      expect(body.code).toBe("VALIDATION_ERROR");
      expect(body.meta.issues.map((i: { path: string }) => i.path)).toContain("body.decision");
    }
    expect((await stored(device_code)).status).toBe("pending");
    expect((await o.poll(device_code)).body.error).toBe("authorization_pending");
    expect((await o.verify(user, user_code, "deny")).status).toBe(200);
    expect((await stored(device_code)).status).toBe("denied");
  });

  test("wrong codes are limited per user across codes and addresses: the 11th attempt is 429 even with a right code", async () => {
    const user = await o.makeUser();
    for (let i = 0; i < 10; i++) {
      const wrong = await o.verify(user, "2222-2222", "approve", o.ip());
      expect(wrong.status).toBe(404);
      expect(wrong.body.meta.entity).toBe("user_code");
    }
    const { user_code, device_code } = (await o.start()).body;
    const refused = await o.verify(user, user_code, "approve", o.ip());
    expect(refused.status).toBe(429);
    expect(refused.body.meta).toMatchObject({ type: "device_code_failures", per: "user" });
    expect((await stored(device_code)).status).toBe("pending");
  });

  test("wrong codes are limited per address across users: 50, then 429", async () => {
    const ip = o.ip();
    const users = await Promise.all(Array.from({ length: 6 }, () => o.makeUser()));
    for (let i = 0; i < 50; i++) expect((await o.verify(users[i % 5]!, "3333-3333", "approve", ip)).status).toBe(404);
    const refused = await o.verify(users[5]!, "3333-3333", "approve", ip);
    expect(refused.status).toBe(429);
    expect(refused.body.meta).toMatchObject({ per: "address" });
  });

  test("a right code does not count against the user", async () => {
    const user = await o.makeUser();
    for (let i = 0; i < 9; i++) await o.verify(user, "4444-4444");
    for (let i = 0; i < 3; i++) expect((await o.verify(user, (await o.start()).body.user_code)).status).toBe(200);
    expect((await o.verify(user, "4444-4444")).status).toBe(404);
    expect((await o.verify(user, "4444-4444")).status).toBe(429);
  });

  test("when the wrong-code counter cannot be kept, codes are not tried: 503 with Retry-After, and the code stays pending", async () => {
    const broken = await oauthApp((deps) => ({
      kv: new Proxy(deps.kv, {
        get: (kv, key) => (key === "incr" ? () => Promise.reject(new Error("kv down")) : Reflect.get(kv, key)),
      }),
    }));
    const user = await broken.makeUser();
    const { user_code, device_code } = (await o.start()).body;
    const res = await broken.verify(user, user_code);
    expect(res.status).toBe(503);
    expect(res.body.code).toBe("SERVICE_UNAVAILABLE");
    expect(res.headers.get("retry-after")).toBe("30");
    expect((await stored(device_code)).status).toBe("pending");
  });
});
