import { afterAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { eq } from "drizzle-orm";
import { runAdmin } from "../../src/wiring/cli/admin.ts";
import type { Kv } from "../../src/infra/kv/index.ts";
import { createRedisKv } from "../../src/infra/kv/redis.ts";
import { createLog } from "../../src/infra/log.ts";
import { announceRevoked, onRevoked } from "../../src/modules/identity/revocations.ts";
import { oauthGrants, oauthRefreshTokens } from "../../src/modules/oauth/table.ts";
import { inbox } from "../helpers/events.ts";
import { makeKey } from "../helpers/factories.ts";
import { oauthApp } from "./flow.ts";
import { TEST_TIMEOUT_MS } from "../helpers/timeout.ts";

setDefaultTimeout(TEST_TIMEOUT_MS);

const o = await oauthApp();
const sha256 = (s: string) => new Bun.CryptoHasher("sha256").update(s).digest("hex");
const refreshRow = async (token: string) =>
  (
    await o.deps.db
      .select()
      .from(oauthRefreshTokens)
      .where(eq(oauthRefreshTokens.tokenHash, sha256(token)))
  )[0]!;
const grantOf = async (refreshToken: string) =>
  (
    await o.deps.db
      .select()
      .from(oauthGrants)
      .where(eq(oauthGrants.id, (await refreshRow(refreshToken)).grantId))
  )[0]!;

describe("OAuth access tokens at the API", () => {
  test("resolve to the user with the grant's scopes; a missing scope is 403 OAUTH_SCOPE_INSUFFICIENT", async () => {
    const user = await o.makeUser();
    const t = await o.tokensFor(user, "shelf-media");
    expect(t.scope).toBe("media.read media.write");
    expect((await o.api("GET", "/v1/images", t.access_token)).status).toBe(200);
    const kbs = await o.api("GET", "/v1/kbs", t.access_token);
    expect(kbs.status).toBe(403);
    expect(kbs.body.code).toBe("OAUTH_SCOPE_INSUFFICIENT");
    expect(kbs.body.meta.required).toBe("kb.read");
  });

  test("an unknown, malformed or expired token is 401 OAUTH_BEARER_INVALID (after 15 minutes)", async () => {
    const user = await o.makeUser();
    const t = await o.tokensFor(user);
    for (const token of [`oat_${"x".repeat(43)}`, "oat_short"]) {
      const res = await o.api("GET", "/v1/images", token);
      expect(res.status).toBe(401);
      expect(res.body.code).toBe("OAUTH_BEARER_INVALID");
    }
    o.clock.advance(899_000);
    expect((await o.api("GET", "/v1/images", t.access_token)).status).toBe(200);
    o.clock.advance(1_000);
    const expired = await o.api("GET", "/v1/images", t.access_token);
    expect(expired.status).toBe(401);
    expect(expired.body).toMatchObject({ code: "OAUTH_BEARER_INVALID", meta: { reason: "expired" } });
  });

  test("a grant revoked without the broadcast (another node's cache) is refused within 5 s", async () => {
    const user = await o.makeUser();
    const t = await o.tokensFor(user);
    expect((await o.api("GET", "/v1/images", t.access_token)).status).toBe(200);
    await o.deps.db
      .update(oauthGrants)
      .set({ revokedAt: o.clock.now() })
      .where(eq(oauthGrants.id, (await grantOf(t.refresh_token)).id));
    expect((await o.api("GET", "/v1/images", t.access_token)).status).toBe(200); // still cached here
    o.clock.advance(5_000);
    const refused = await o.api("GET", "/v1/images", t.access_token);
    expect(refused.status).toBe(401);
    expect(refused.body).toMatchObject({ code: "OAUTH_BEARER_INVALID", meta: { reason: "revoked" } });
  });
});

describe("POST /oauth/token with the refresh_token grant (rotation, replay)", () => {
  test("every refresh returns a new refresh token and rotates the old one; the new access token works", async () => {
    const user = await o.makeUser();
    const t = await o.tokensFor(user);
    const next = await o.refresh(t.refresh_token);
    expect(next.status).toBe(200);
    expect(next.headers.get("cache-control")).toBe("no-store");
    expect(next.body).toMatchObject({ token_type: "Bearer", expires_in: 900, scope: "media.read media.write kb.read kb.write" });
    expect(next.body.refresh_token).not.toBe(t.refresh_token);
    expect(next.body.access_token).not.toBe(t.access_token);
    expect((await refreshRow(t.refresh_token)).rotatedAt).not.toBeNull();
    expect((await refreshRow(next.body.refresh_token)).rotatedAt).toBeNull();
    expect((await o.api("GET", "/v1/kbs", next.body.access_token)).status).toBe(200);
  });

  test("a narrower scope narrows the new access token only; a wider one is invalid_scope", async () => {
    const user = await o.makeUser();
    const t = await o.tokensFor(user);
    const narrow = await o.refresh(t.refresh_token, "shelf-sync", { scope: "media.read" });
    expect(narrow.status).toBe(200);
    expect(narrow.body.scope).toBe("media.read");
    expect((await o.api("GET", "/v1/kbs", narrow.body.access_token)).body.code).toBe("OAUTH_SCOPE_INSUFFICIENT");
    const wide = await o.refresh(narrow.body.refresh_token, "shelf-sync", { scope: "media.delete" });
    expect(wide.status).toBe(400);
    expect(wide.body.error).toBe("invalid_scope");
    const full = await o.refresh(narrow.body.refresh_token);
    expect(full.body.scope).toBe("media.read media.write kb.read kb.write");
  });

  test("a rotated token presented again: 401 invalid_grant OAUTH_REFRESH_REPLAYED, the whole grant revoked, its access tokens refused", async () => {
    const user = await o.makeUser();
    const t = await o.tokensFor(user);
    const next = (await o.refresh(t.refresh_token)).body;
    expect((await o.api("GET", "/v1/images", next.access_token)).status).toBe(200);
    o.clock.advance(3_000);
    const replay = await o.refresh(t.refresh_token);
    expect(replay.status).toBe(401);
    expect(replay.body).toMatchObject({ error: "invalid_grant", error_code: "OAUTH_REFRESH_REPLAYED" });
    expect(replay.headers.get("cache-control")).toBe("no-store");
    expect((await grantOf(t.refresh_token)).revokedAt).not.toBeNull();
    for (const token of [t.access_token, next.access_token]) {
      const res = await o.api("GET", "/v1/images", token);
      expect(res.status).toBe(401);
      expect(res.body.code).toBe("OAUTH_BEARER_INVALID");
    }
    const successor = await o.refresh(next.refresh_token);
    expect(successor.status).toBe(400);
    expect(successor.body.error).toBe("invalid_grant");
  });

  test("two refreshes with one token at the same moment: one success, the other invalid_grant, and the grant stands", async () => {
    const user = await o.makeUser();
    const t = await o.tokensFor(user);
    const both = await Promise.all([o.refresh(t.refresh_token), o.refresh(t.refresh_token)]);
    expect(both.map((r) => r.status).sort()).toEqual([200, 400]);
    expect(both.find((r) => r.status === 400)!.body.error).toBe("invalid_grant");
    const winner = both.find((r) => r.status === 200)!.body;
    expect((await grantOf(t.refresh_token)).revokedAt).toBeNull();
    expect((await o.api("GET", "/v1/images", winner.access_token)).status).toBe(200);
    expect((await o.refresh(winner.refresh_token)).status).toBe(200);
  });

  test("an unknown token, another client's token, or an expired one (30 days) is invalid_grant", async () => {
    const user = await o.makeUser();
    const t = await o.tokensFor(user);
    expect((await o.refresh(`ort_${"y".repeat(43)}`)).body.error).toBe("invalid_grant");
    expect((await o.refresh("nonsense")).body.error).toBe("invalid_grant");
    expect((await o.refresh(t.refresh_token, "shelf-media")).body.error).toBe("invalid_grant");
    expect((await refreshRow(t.refresh_token)).rotatedAt).toBeNull();
    o.clock.advance(30 * 86_400_000);
    expect((await o.refresh(t.refresh_token)).body.error).toBe("invalid_grant");
  });
});

describe("POST /oauth/revoke (RFC 7009)", () => {
  test("revoking a refresh or an access token revokes the grant; unknown tokens and other clients' get 200 and change nothing", async () => {
    const user = await o.makeUser();
    const a = await o.tokensFor(user);
    const b = await o.tokensFor(user);
    const revoke = (params: Record<string, string>) => o.call("POST", "/oauth/revoke", { app: o.app, body: new URLSearchParams(params) });
    const unknown = await revoke({ token: "whatever" });
    expect(unknown.status).toBe(200);
    expect(unknown.headers.get("cache-control")).toBe("no-store");
    expect((await revoke({ token: a.refresh_token, client_id: "shelf-media" })).status).toBe(200);
    expect((await grantOf(a.refresh_token)).revokedAt).toBeNull();
    expect((await revoke({ token: a.refresh_token, client_id: "shelf-sync" })).status).toBe(200);
    expect((await o.api("GET", "/v1/images", a.access_token)).body.code).toBe("OAUTH_BEARER_INVALID");
    expect((await o.refresh(a.refresh_token)).body.error).toBe("invalid_grant");
    expect((await revoke({ token: b.access_token })).status).toBe(200);
    expect((await o.refresh(b.refresh_token)).body.error).toBe("invalid_grant");
    const missing = await o.post("/oauth/revoke", {});
    expect(missing.status).toBe(400);
    expect(missing.body.error).toBe("invalid_request");
  });
});

describe("GET and DELETE /v1/user/me/oauth-grants", () => {
  test("lists the user's live grants with the client's name; deleting one refuses its tokens at once; another user's is 404", async () => {
    const user = await o.makeUser();
    const other = await o.makeUser();
    const sync = await o.tokensFor(user, "shelf-sync");
    o.clock.advance(1); // newest first: the two grants must not share an instant
    const media = await o.tokensFor(user, "shelf-media");
    const list = await callList(user.jwt);
    expect(list.status).toBe(200);
    expect(list.body.data.items.map((g: any) => [g.clientId, g.clientName, g.scopes])).toEqual([
      ["shelf-media", "Shelf Media", ["media.read", "media.write"]],
      ["shelf-sync", "Shelf Sync", ["media.read", "media.write", "kb.read", "kb.write"]],
    ]);
    const grantId = list.body.data.items[0].id;
    expect((await o.call("DELETE", `/v1/user/me/oauth-grants/${grantId}`, { app: o.app, token: other.jwt })).status).toBe(404);
    const { key } = await makeKey(user);
    expect((await o.call("DELETE", `/v1/user/me/oauth-grants/${grantId}`, { app: o.app, token: key })).status).toBe(204);
    expect((await o.api("GET", "/v1/images", media.access_token)).body.code).toBe("OAUTH_BEARER_INVALID");
    expect((await o.api("GET", "/v1/images", sync.access_token)).status).toBe(200);
    expect((await callList(user.jwt)).body.data.items.map((g: any) => g.clientId)).toEqual(["shelf-sync"]);
    expect((await o.call("DELETE", `/v1/user/me/oauth-grants/${grantId}`, { app: o.app, token: user.jwt })).status).toBe(404);
    expect((await callList(other.jwt)).body.data.items).toEqual([]);
  });
});

const callList = (token: string) => o.api("GET", "/v1/user/me/oauth-grants", token);

describe("revocation reaches every node", () => {
  test("a grant revoked through one app instance is refused at once by another (on the same kv) that had its token cached", async () => {
    const other = await oauthApp();
    const user = await o.makeUser();
    const t = await o.tokensFor(user);
    expect((await other.api("GET", "/v1/images", t.access_token)).status).toBe(200); // now cached there
    const list = await o.api("GET", "/v1/user/me/oauth-grants", user.jwt);
    expect((await o.call("DELETE", `/v1/user/me/oauth-grants/${list.body.data.items[0].id}`, { app: o.app, token: user.jwt })).status).toBe(204);
    const refused = await other.api("GET", "/v1/images", t.access_token);
    expect(refused.status).toBe(401);
    expect(refused.body).toMatchObject({ code: "OAUTH_BEARER_INVALID", meta: { reason: "revoked" } });
  });

  test("an account deleted through one node (shelf admin user delete): another node that had its OAuth token cached refuses it at once", async () => {
    // The other node: on Redis, a connection of its own, so the message crosses Redis as
    // between two processes; on the in-process kv, the same kv (one process is one node).
    const log = createLog("silent");
    const subscriptions: Promise<unknown>[] = [];
    let kv: Kv | undefined;
    if (process.env.REDIS_URL) {
      const own = await createRedisKv(process.env.REDIS_URL, log);
      afterAll(() => own.close());
      kv = {
        ...own,
        subscribe(channel, onMessage) {
          const sub = own.subscribe(channel, onMessage);
          subscriptions.push(sub);
          return sub;
        },
      };
    }
    const other = await oauthApp((deps) => (kv ? { kv } : { kv: deps.kv }));
    // Heard on the other node after its own listeners: once a later message arrives here,
    // the deletion's messages (sent before it, on one connection) have been handled there.
    const heard = inbox();
    const witness = onRevoked({ kv: other.deps.kv, log }, { key: () => {}, session: heard.push, user: () => {} });
    await Promise.all(subscriptions);

    const user = await o.makeUser();
    const t = await o.tokensFor(user);
    expect((await other.api("GET", "/v1/images", t.access_token)).status).toBe(200); // cached there
    expect((await other.api("GET", "/v1/user/me", user.jwt)).status).toBe(200);

    const out: string[] = [];
    expect(
      await runAdmin(
        o.deps,
        ["user", "delete", "--email", user.email, "--yes"],
        (l) => out.push(l),
        (l) => out.push(l),
      ),
    ).toBe(0);
    const marker = crypto.randomUUID();
    await announceRevoked(o.deps, "session", marker);
    await heard.has(marker);

    // The other node's clock stands still: only the announcement can have dropped its copies.
    const refused = await other.api("GET", "/v1/images", t.access_token);
    expect(refused.status).toBe(401);
    expect(refused.body.code).toBe("OAUTH_BEARER_INVALID");
    expect((await other.api("GET", "/v1/user/me", user.jwt)).status).toBe(401);
    await witness.close();
  });
});
