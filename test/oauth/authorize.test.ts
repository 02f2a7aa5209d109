import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { eq } from "drizzle-orm";
import { approveAuthorization, AuthorizeError, checkAuthorizeRequest, denyAuthorization } from "../../src/modules/oauth/authorize.ts";
import { oauthAuthorizationCodes, oauthClients, oauthGrants } from "../../src/modules/oauth/table.ts";
import { oauthApp } from "./flow.ts";
import { authorizeQuery, pkce, registerClient, sha256Hex } from "./authorize-steps.ts";
import { TEST_TIMEOUT_MS } from "../helpers/timeout.ts";

setDefaultTimeout(TEST_TIMEOUT_MS);

const o = await oauthApp();
const REDIRECT = "http://127.0.0.1:53127/oauth/callback";

/** The AuthorizeError a request is refused with (fails when it is accepted). */
async function refusal(query: Record<string, string>): Promise<AuthorizeError> {
  try {
    await checkAuthorizeRequest(o.deps, query);
  } catch (e) {
    if (e instanceof AuthorizeError) return e;
    throw e;
  }
  throw new Error(`accepted: ${JSON.stringify(query)}`);
}

/** An approved request of `user`: the code, and the verifier and query it was asked with. */
async function codeFor(userId: string, extra: Record<string, string> = {}) {
  const p = pkce();
  const query = authorizeQuery(p.challenge, { redirect_uri: REDIRECT, ...extra });
  const location = new URL(await approveAuthorization(o.deps, await checkAuthorizeRequest(o.deps, query), userId));
  return { code: location.searchParams.get("code")!, verifier: p.verifier, query, location };
}

const redeem = (code: string, verifier: string | undefined, extra: Record<string, string> = {}) =>
  o.post("/oauth/token", {
    grant_type: "authorization_code",
    client_id: "shelf-sync",
    code,
    redirect_uri: REDIRECT,
    ...(verifier === undefined ? {} : { code_verifier: verifier }),
    ...extra,
  });

const codeRow = async (code: string) => {
  const [row] = await o.deps.db
    .select()
    .from(oauthAuthorizationCodes)
    .where(eq(oauthAuthorizationCodes.codeHash, sha256Hex(code)));
  return row;
};

test("the metadata names the authorization endpoint, the code response type and grant, S256 only, and iss in responses", async () => {
  const res = await o.call("GET", "/.well-known/oauth-authorization-server", { app: o.app });
  expect(await res.json()).toMatchObject({
    authorization_endpoint: "http://shelf.test/oauth/authorize",
    response_types_supported: ["code"],
    response_modes_supported: ["query"],
    grant_types_supported: ["authorization_code", "urn:ietf:params:oauth:grant-type:device_code", "refresh_token"],
    code_challenge_methods_supported: ["S256"],
    authorization_response_iss_parameter_supported: true,
  });
});

describe("the authorization request (GET /oauth/authorize)", () => {
  test("a first-party client, its loopback redirect on any port, S256: the client's name, scopes and state for the consent page", async () => {
    const { challenge } = pkce();
    const req = await checkAuthorizeRequest(o.deps, authorizeQuery(challenge, { redirect_uri: REDIRECT, scope: "kb.read media.read" }));
    expect(req).toMatchObject({
      client: { id: "shelf-sync", name: "Shelf Sync", unverified: false },
      redirectUri: REDIRECT,
      redirectUriGiven: true,
      scopes: ["media.read", "kb.read"],
      state: "xyz-state",
      codeChallenge: challenge,
    });
    const ipv6 = await checkAuthorizeRequest(o.deps, authorizeQuery(challenge, { redirect_uri: "http://[::1]:9/oauth/callback" }));
    expect(ipv6.scopes).toEqual(["media.read", "media.write", "kb.read", "kb.write"]);
  });

  test("errors before the redirect URI is trusted are for the page: no client, unknown or rejected client, a URI not registered", async () => {
    const { challenge } = pkce();
    const rejected = await registerClient(o, { client_name: "Gone App", redirect_uris: ["https://gone.example/cb"] });
    await o.deps.db.update(oauthClients).set({ status: "rejected" }).where(eq(oauthClients.id, rejected));
    const cases: [Record<string, string>, string][] = [
      [{ client_id: "" }, "invalid_client"],
      [{ client_id: "no-such-client" }, "invalid_client"],
      [{ client_id: rejected, redirect_uri: "https://gone.example/cb" }, "invalid_client"],
      [{ redirect_uri: "http://127.0.0.1:53127/other" }, "invalid_request"],
      [{ redirect_uri: "http://127.0.0.1:53127/oauth/callback/" }, "invalid_request"],
      [{ redirect_uri: "http://127.0.0.1:53127/oauth/callback?x=1" }, "invalid_request"],
      [{ redirect_uri: "http://127.0.0.1:53127/oauth/callback#f" }, "invalid_request"],
      [{ redirect_uri: "http://127.0.0.1:99999/oauth/callback" }, "invalid_request"],
      [{ redirect_uri: "http://localhost:53127/oauth/callback" }, "invalid_request"],
      [{ redirect_uri: "http://127.0.0.2/oauth/callback" }, "invalid_request"],
      [{ redirect_uri: "https://attacker.example/oauth/callback" }, "invalid_request"],
      [{ redirect_uri: "" }, "invalid_request"],
    ];
    for (const [extra, error] of cases) {
      const e = await refusal(authorizeQuery(challenge, { redirect_uri: REDIRECT, ...extra }));
      expect(e.error as string, JSON.stringify(extra)).toBe(error);
      expect(e.redirectUrl, JSON.stringify(extra)).toBeUndefined();
    }
    const missing = authorizeQuery(challenge);
    delete (missing as Record<string, string | undefined>).client_id;
    expect((await refusal(missing)).redirectUrl).toBeUndefined();
    const twice = new URLSearchParams(authorizeQuery(challenge, { redirect_uri: REDIRECT }));
    twice.append("redirect_uri", REDIRECT);
    await expect(checkAuthorizeRequest(o.deps, twice)).rejects.toMatchObject({ error: "invalid_request", redirectUrl: undefined });
    // A loopback client must name its redirect URI: the port is the app's choice.
    expect((await refusal(authorizeQuery(challenge))).redirectUrl).toBeUndefined();
  });

  test("errors after it is trusted go back to it with error, state and iss (RFC 6749 4.1.2.1): PKCE missing, plain, malformed; bad response type or scope", async () => {
    const { challenge } = pkce();
    const cases: [Record<string, string | undefined>, string][] = [
      [{ code_challenge: undefined }, "invalid_request"],
      [{ code_challenge_method: "plain" }, "invalid_request"],
      [{ code_challenge_method: undefined }, "invalid_request"],
      [{ code_challenge: "too-short" }, "invalid_request"],
      [{ code_challenge: `${challenge.slice(0, 42)}=` }, "invalid_request"],
      [{ response_type: undefined }, "invalid_request"],
      [{ response_type: "token" }, "unsupported_response_type"],
      [{ scope: "media.delete" }, "invalid_scope"],
      [{ scope: "everything" }, "invalid_scope"],
    ];
    for (const [extra, error] of cases) {
      const query = Object.fromEntries(
        Object.entries({ ...authorizeQuery(challenge, { redirect_uri: REDIRECT }), ...extra }).filter(([, v]) => v !== undefined),
      );
      const e = await refusal(query as Record<string, string>);
      expect(e.error as string, JSON.stringify(extra)).toBe(error);
      const back = new URL(e.redirectUrl!);
      expect(back.origin + back.pathname).toBe("http://127.0.0.1:53127/oauth/callback");
      expect(back.searchParams.get("error")).toBe(error);
      expect(back.searchParams.get("state")).toBe("xyz-state");
      expect(back.searchParams.get("iss")).toBe("http://shelf.test");
      expect(back.searchParams.get("code")).toBeNull();
    }
  });

  test("a pending registered client may start a flow and is marked unverified; its single https URI may be left out; the client's own query is kept", async () => {
    const { challenge } = pkce();
    const id = await registerClient(o, { client_name: "Notes App", redirect_uris: ["https://notes.example/cb?tenant=7"] });
    const req = await checkAuthorizeRequest(o.deps, authorizeQuery(challenge, { client_id: id, scope: "kb.read" }));
    expect(req).toMatchObject({
      client: { id, name: "Notes App", unverified: true },
      redirectUri: "https://notes.example/cb?tenant=7",
      redirectUriGiven: false,
    });
    const denied = new URL(denyAuthorization(req));
    expect(denied.searchParams.get("tenant")).toBe("7");
    expect(denied.searchParams.get("error")).toBe("access_denied");
    expect(denied.searchParams.get("state")).toBe("xyz-state");
  });

  test("a registered client without the authorization_code grant is unauthorized_client, at its redirect URI", async () => {
    const { challenge } = pkce();
    const id = await registerClient(o, {
      client_name: "Device Only",
      redirect_uris: ["https://device.example/cb"],
      grant_types: ["urn:ietf:params:oauth:grant-type:device_code"],
    });
    const e = await refusal(authorizeQuery(challenge, { client_id: id, redirect_uri: "https://device.example/cb" }));
    expect(e.error).toBe("unauthorized_client");
    expect(new URL(e.redirectUrl!).origin).toBe("https://device.example");
  });
});

describe("POST /oauth/token with the authorization_code grant", () => {
  test("approval sends the code with state and iss; the code is stored as its hash; redeemed once for tokens the API accepts", async () => {
    const user = await o.makeUser();
    const { code, verifier, location } = await codeFor(user.id, { scope: "media.read kb.read" });
    expect(location.searchParams.get("state")).toBe("xyz-state");
    expect(location.searchParams.get("iss")).toBe("http://shelf.test");
    const row = (await codeRow(code))!;
    expect(JSON.stringify(row)).not.toContain(code);
    expect(row.expiresAt.getTime() - row.createdAt.getTime()).toBe(60_000);
    const res = await redeem(code, verifier);
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(res.body).toMatchObject({ token_type: "Bearer", expires_in: 900, scope: "media.read kb.read" });
    expect((await o.api("GET", "/v1/kbs", res.body.access_token)).status).toBe(200);
    expect((await o.api("GET", "/v1/user/me/oauth-grants", res.body.access_token)).body.code).toBe("OAUTH_SCOPE_INSUFFICIENT");
    const [grant] = await o.deps.db
      .select()
      .from(oauthGrants)
      .where(eq(oauthGrants.id, (await codeRow(code))!.grantId!));
    expect(grant).toMatchObject({ userId: user.id, clientId: "shelf-sync", scopes: ["media.read", "kb.read"] });
    const refreshed = await o.refresh(res.body.refresh_token);
    expect(refreshed.status).toBe(200);
  });

  test("PKCE: no verifier, a 42- or 129-character one, one outside the alphabet -> invalid_request; a wrong one or the challenge itself (plain) -> invalid_grant", async () => {
    const user = await o.makeUser();
    const { code, verifier } = await codeFor(user.id);
    const challenge = (await codeRow(code))!.codeChallenge;
    const cases: [string | undefined, string][] = [
      [undefined, "invalid_request"],
      ["", "invalid_request"],
      ["a".repeat(42), "invalid_request"],
      ["a".repeat(129), "invalid_request"],
      [`${"a".repeat(42)}+`, "invalid_request"],
      ["a".repeat(43), "invalid_grant"],
      ["b".repeat(128), "invalid_grant"],
      [`${verifier.slice(0, -1)}${verifier.endsWith("A") ? "B" : "A"}`, "invalid_grant"],
      [challenge, "invalid_grant"],
    ];
    for (const [v, error] of cases) {
      const res = await redeem(code, v);
      expect(res.status, String(v)).toBe(400);
      expect(res.body.error, String(v)).toBe(error);
    }
    // None of those used the code up.
    expect((await redeem(code, verifier)).status).toBe(200);
  });

  test("verifiers of 43 and of 128 characters are accepted", async () => {
    const user = await o.makeUser();
    for (const length of [43, 128]) {
      const p = pkce("~._-aZ09".repeat(16).slice(0, length));
      const query = authorizeQuery(p.challenge, { redirect_uri: REDIRECT });
      const location = new URL(await approveAuthorization(o.deps, await checkAuthorizeRequest(o.deps, query), user.id));
      expect((await redeem(location.searchParams.get("code")!, p.verifier)).status).toBe(200);
    }
  });

  test("redirect_uri must be the request's: another one, another port or none -> invalid_grant", async () => {
    const user = await o.makeUser();
    const { code, verifier } = await codeFor(user.id);
    for (const redirect of ["http://127.0.0.1:53128/oauth/callback", "https://attacker.example/cb"]) {
      expect((await redeem(code, verifier, { redirect_uri: redirect })).body.error).toBe("invalid_grant");
    }
    const without = await o.post("/oauth/token", { grant_type: "authorization_code", client_id: "shelf-sync", code, code_verifier: verifier });
    expect(without.body.error).toBe("invalid_grant");
    expect((await redeem(code, verifier)).status).toBe(200);
  });

  test("a code lives 60 s by the clock", async () => {
    const user = await o.makeUser();
    const a = await codeFor(user.id);
    const b = await codeFor(user.id);
    o.clock.advance(59_999);
    expect((await redeem(a.code, a.verifier)).status).toBe(200);
    o.clock.advance(1);
    const expired = await redeem(b.code, b.verifier);
    expect(expired.status).toBe(400);
    expect(expired.body.error).toBe("invalid_grant");
  });

  test("a code used again: invalid_grant, and the grant of its first use is revoked: the API refuses its access token, its refresh token is dead", async () => {
    const user = await o.makeUser();
    const { code, verifier } = await codeFor(user.id);
    const first = (await redeem(code, verifier)).body;
    const next = (await o.refresh(first.refresh_token)).body;
    expect((await o.api("GET", "/v1/images", next.access_token)).status).toBe(200);
    const again = await redeem(code, verifier);
    expect(again.status).toBe(400);
    expect(again.body.error).toBe("invalid_grant");
    const [grant] = await o.deps.db
      .select()
      .from(oauthGrants)
      .where(eq(oauthGrants.id, (await codeRow(code))!.grantId!));
    expect(grant!.revokedAt).not.toBeNull();
    for (const token of [first.access_token, next.access_token]) {
      const res = await o.api("GET", "/v1/images", token);
      expect(res.status).toBe(401);
      expect(res.body.code).toBe("OAUTH_BEARER_INVALID");
    }
    expect((await o.refresh(next.refresh_token)).body.error).toBe("invalid_grant");
  });

  test("two redemptions of one code at the same moment: exactly one gets tokens; the other is a second use, so the grant goes too", async () => {
    const user = await o.makeUser();
    const { code, verifier } = await codeFor(user.id);
    const both = await Promise.all([redeem(code, verifier), redeem(code, verifier)]);
    expect(both.map((r) => r.status).sort()).toEqual([200, 400]);
    expect(both.find((r) => r.status === 400)!.body.error).toBe("invalid_grant");
    const grants = await o.deps.db.select().from(oauthGrants).where(eq(oauthGrants.userId, user.id));
    expect(grants).toHaveLength(1);
    // No grace for codes (unlike refresh tokens): a code seen twice may have leaked, whoever was first.
    expect(grants[0]!.revokedAt).not.toBeNull();
    expect((await o.api("GET", "/v1/images", both.find((r) => r.status === 200)!.body.access_token)).body.code).toBe("OAUTH_BEARER_INVALID");
  });

  test("another client's code is unknown to it and stays usable; an unknown client is invalid_client; a rejected one cannot redeem", async () => {
    const user = await o.makeUser();
    const { code, verifier } = await codeFor(user.id);
    expect((await redeem(code, verifier, { client_id: "shelf-media" })).body.error).toBe("invalid_grant");
    expect((await redeem(`oac_${"x".repeat(43)}`, verifier)).body.error).toBe("invalid_grant");
    expect((await redeem("nonsense", verifier)).body.error).toBe("invalid_grant");
    const unknown = await redeem(code, verifier, { client_id: "no-such-client" });
    expect(unknown.status).toBe(401);
    expect(unknown.body.error).toBe("invalid_client");
    expect((await redeem(code, verifier)).status).toBe(200);

    const id = await registerClient(o, { client_name: "Withdrawn App", redirect_uris: ["https://withdrawn.example/cb"] });
    const p = pkce();
    const req = await checkAuthorizeRequest(o.deps, authorizeQuery(p.challenge, { client_id: id }));
    const theirs = new URL(await approveAuthorization(o.deps, req, user.id)).searchParams.get("code")!;
    await o.deps.db.update(oauthClients).set({ status: "rejected" }).where(eq(oauthClients.id, id));
    const refused = await o.post("/oauth/token", { grant_type: "authorization_code", client_id: id, code: theirs, code_verifier: p.verifier });
    expect(refused.status).toBe(401);
    expect(refused.body.error).toBe("invalid_client");
  });

  test("a missing code is invalid_request; a registered client without the grant is unauthorized_client", async () => {
    const missing = await o.post("/oauth/token", { grant_type: "authorization_code", client_id: "shelf-sync", code_verifier: pkce().verifier });
    expect(missing.body.error).toBe("invalid_request");
    const id = await registerClient(o, { client_name: "Device Only", grant_types: ["urn:ietf:params:oauth:grant-type:device_code"] });
    const res = await o.post("/oauth/token", {
      grant_type: "authorization_code",
      client_id: id,
      code: `oac_${"x".repeat(43)}`,
      code_verifier: pkce().verifier,
    });
    expect(res.body.error).toBe("unauthorized_client");
  });

  test("the tokens belong to the user who approved: another user's grant list does not show them", async () => {
    const user = await o.makeUser();
    const other = await o.makeUser();
    const { code, verifier } = await codeFor(user.id);
    expect((await redeem(code, verifier)).status).toBe(200);
    const mine = await o.api("GET", "/v1/user/me/oauth-grants", user.jwt);
    expect(mine.body.data.items.map((g: { clientId: string }) => g.clientId)).toEqual(["shelf-sync"]);
    expect((await o.api("GET", "/v1/user/me/oauth-grants", other.jwt)).body.data.items).toEqual([]);
  });
});

test("prune-oauth deletes authorization codes a day past their expiry and keeps fresh ones", async () => {
  const user = await o.makeUser();
  const old = await codeFor(user.id);
  o.clock.advance(60_000 + 86_400_000 + 1);
  const fresh = await codeFor(user.id);
  expect((await o.services.runner.runNow("prune-oauth")).outcome).toBe("ok");
  expect(await codeRow(old.code)).toBeUndefined();
  expect(await codeRow(fresh.code)).toBeDefined();
  expect((await redeem(fresh.code, fresh.verifier)).status).toBe(200);
});
