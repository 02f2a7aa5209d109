// Who may call the hosted MCP server: OAuth access tokens issued for MCP_URL (RFC 8707)
// and nothing else; the challenges that let a client discover how to get one (RFC 9728);
// the step-up answer for a missing scope; Origin checks against DNS rebinding.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { oauthApp } from "../oauth/flow.ts";
import { ALL_SCOPES, deviceTokens, initialize, rpc } from "./helpers.ts";
import { zeros } from "../helpers/raw-http.ts";
import { TEST_TIMEOUT_MS } from "../helpers/timeout.ts";

setDefaultTimeout(TEST_TIMEOUT_MS);

const o = await oauthApp();
const MCP = o.deps.config.MCP_URL;
const METADATA = `${new URL(MCP).origin}/.well-known/oauth-protected-resource${new URL(MCP).pathname}`;

describe("the hosted MCP server's door", () => {
  test("no token: 401 with WWW-Authenticate naming the protected resource metadata, which names MCP_URL and the authorization server", async () => {
    const res = await rpc(o, initialize);
    expect(res.status).toBe(401);
    expect(res.headers.get("www-authenticate")).toBe(`Bearer resource_metadata="${METADATA}"`);
    expect((await res.json()).jsonrpc).toBe("2.0");

    const meta = await o.app.handle(new Request(METADATA));
    expect(meta.status).toBe(200);
    const body = await meta.json();
    expect(body.resource).toBe(MCP);
    expect(body.authorization_servers).toEqual([o.deps.config.PUBLIC_URL]);
    expect(body.scopes_supported).toEqual(ALL_SCOPES.split(" "));
    expect(body.bearer_methods_supported).toEqual(["header"]);

    const as = await (await o.app.handle(new Request(`${o.deps.config.PUBLIC_URL}/.well-known/oauth-authorization-server`))).json();
    expect(as.registration_endpoint).toBe(`${o.deps.config.PUBLIC_URL}/oauth/register`);
  });

  test("a token issued for MCP_URL is taken; it is refused by the API, and a token for the API is refused here", async () => {
    const user = await o.makeUser();
    const forMcp = await deviceTokens(o, user);
    const ok = await rpc(o, initialize, { authorization: `Bearer ${forMcp.access_token}` });
    expect(ok.status).toBe(200);
    expect((await ok.json()).result.serverInfo.name).toBe("shelf");

    const atApi = await o.api("GET", "/v1/kbs", forMcp.access_token);
    expect(atApi.status).toBe(401);
    expect(atApi.body.code).toBe("OAUTH_BEARER_INVALID");
    expect(atApi.body.error).toContain(MCP);

    const forApi = await deviceTokens(o, user, { resource: null });
    expect((await o.api("GET", "/v1/kbs", forApi.access_token)).status).toBe(200);
    const refused = await rpc(o, initialize, { authorization: `Bearer ${forApi.access_token}` });
    expect(refused.status).toBe(401);
    const challenge = refused.headers.get("www-authenticate")!;
    expect(challenge).toStartWith('Bearer error="invalid_token"');
    expect(challenge).toContain(`resource_metadata="${METADATA}"`);
    expect(challenge).toContain("not for this MCP server");

    // The API's own resource named explicitly is the same as naming none.
    const named = await deviceTokens(o, user, { resource: `${o.deps.config.PUBLIC_URL}/` });
    expect((await o.api("GET", "/v1/kbs", named.access_token)).status).toBe(200);
  });

  test("protocol revisions 2025-06-18 and 2025-11-25 are both spoken; no session id is handed out (stateless)", async () => {
    const user = await o.makeUser();
    const { access_token } = await deviceTokens(o, user);
    for (const version of ["2025-06-18", "2025-11-25"]) {
      const res = await rpc(o, { ...initialize, params: { ...initialize.params, protocolVersion: version } }, { authorization: `Bearer ${access_token}` });
      expect(res.status).toBe(200);
      expect(res.headers.get("mcp-session-id")).toBeNull();
      expect((await res.json()).result.protocolVersion).toBe(version);
      const listed = await rpc(
        o,
        { jsonrpc: "2.0", id: 2, method: "tools/list" },
        { authorization: `Bearer ${access_token}`, "mcp-protocol-version": version },
      );
      expect(listed.status).toBe(200);
    }
    const unknown = await rpc(
      o,
      { jsonrpc: "2.0", id: 3, method: "tools/list" },
      { authorization: `Bearer ${access_token}`, "mcp-protocol-version": "1999-01-01" },
    );
    expect(unknown.status).toBe(400);
  });

  test("an API key or a session is 401 here, with the challenge", async () => {
    const user = await o.makeUser();
    const key = await o.call("POST", "/v1/api-keys", { app: o.app, token: user.jwt, json: { name: "agent", scopes: ["kb.read"] } });
    expect(key.status).toBe(201);
    const apiKey = ((await key.json()) as { data: { key: string } }).data.key;
    for (const token of [apiKey, user.jwt]) {
      const res = await rpc(o, initialize, { authorization: `Bearer ${token}` });
      expect(res.status).toBe(401);
      expect(res.headers.get("www-authenticate")).toContain('error="invalid_token"');
      expect(res.headers.get("www-authenticate")).toContain("OAuth access tokens only");
    }
    const junk = await rpc(o, initialize, { authorization: "Bearer oat_notatoken" });
    expect(junk.status).toBe(401);
    expect(junk.headers.get("www-authenticate")).toContain(`resource_metadata="${METADATA}"`);
  });

  test("resource: an unknown one is invalid_target; the token endpoint refuses another resource than the grant's; a refresh keeps the audience", async () => {
    const user = await o.makeUser();
    const unknown = await o.start("shelf-agent", { resource: "https://elsewhere.example/api" });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error).toBe("invalid_target");
    const fragment = await o.start("shelf-agent", { resource: `${MCP}#x` });
    expect(fragment.body.error).toBe("invalid_target");

    const tokens = await deviceTokens(o, user);
    const other = await o.refresh(tokens.refresh_token, "shelf-agent", { resource: o.deps.config.PUBLIC_URL });
    expect(other.status).toBe(400);
    expect(other.body.error).toBe("invalid_target");
    const renewed = await o.refresh(tokens.refresh_token, "shelf-agent", { resource: MCP });
    expect(renewed.status).toBe(200);
    expect((await rpc(o, initialize, { authorization: `Bearer ${renewed.body.access_token}` })).status).toBe(200);
    expect((await o.api("GET", "/v1/kbs", renewed.body.access_token)).status).toBe(401);
  });

  test("a tool call without the tool's scope: 403 insufficient_scope naming the scopes to ask for; allowed calls go on", async () => {
    const user = await o.makeUser();
    const readOnly = await deviceTokens(o, user, { scope: "kb.read" });
    const auth = { authorization: `Bearer ${readOnly.access_token}` };
    const write = { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "write_document", arguments: { kbId: "x", path: "a.md", content: "x" } } };
    const res = await rpc(o, write, auth);
    expect(res.status).toBe(403);
    const challenge = res.headers.get("www-authenticate")!;
    expect(challenge).toStartWith('Bearer error="insufficient_scope"');
    expect(challenge).toContain('scope="kb.read kb.write"');
    expect(challenge).toContain(`resource_metadata="${METADATA}"`);
    const list = await rpc(o, { jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: "list_knowledge_bases", arguments: {} } }, auth);
    expect(list.status).toBe(200);
    expect((await list.json()).result.structuredContent).toEqual({ items: [], nextCursor: null });
  });

  test("Origin: a page of another site is 403; the service's own origin is taken; GET and DELETE are 405 (no sessions)", async () => {
    const user = await o.makeUser();
    const { access_token } = await deviceTokens(o, user);
    const auth = { authorization: `Bearer ${access_token}` };
    const evil = await rpc(o, initialize, { ...auth, origin: "http://evil.example" });
    expect(evil.status).toBe(403);
    const own = await rpc(o, initialize, { ...auth, origin: new URL(MCP).origin });
    expect(own.status).toBe(200);
    expect(own.headers.get("access-control-allow-origin")).toBe(new URL(MCP).origin);
    for (const method of ["GET", "DELETE"]) {
      const res = await o.app.handle(new Request(MCP, { method, headers: { ...auth, accept: "text/event-stream" } }));
      expect(res.status).toBe(405);
      expect(res.headers.get("allow")).toBe("POST, OPTIONS");
    }
  });

  test("a body over 72 MiB is 413 before it is read, and the connection is closed; a body that is not JSON is a JSON-RPC parse error", async () => {
    const user = await o.makeUser();
    const { access_token } = await deviceTokens(o, user);
    const { stream } = zeros(Infinity);
    const big = await o.app.handle(
      new Request(MCP, {
        method: "POST",
        headers: { authorization: `Bearer ${access_token}`, "content-type": "application/json", "content-length": String(80 * 1024 * 1024) },
        body: stream,
      }),
    );
    expect(big.status).toBe(413);
    expect(big.headers.get("connection")).toBe("close");
    expect((await big.json()).error.message).toContain(String(72 * 1024 * 1024));
    const notJson = await o.app.handle(
      new Request(MCP, {
        method: "POST",
        headers: { authorization: `Bearer ${access_token}`, "content-type": "application/json", accept: "application/json, text/event-stream" },
        body: "{not json",
      }),
    );
    expect(notJson.status).toBe(400);
    expect((await notJson.json()).error.code).toBe(-32700);
  });

  test("a refusal before the body is read (no token, a foreign origin) reads a little of the body first, then closes: a client still sending reads the answer rather than a reset", async () => {
    const MB = 1024 * 1024;
    for (const headers of [{}, { origin: "https://elsewhere.example" }] as Record<string, string>[]) {
      const body = zeros(2 * MB);
      const res = await o.app.handle(new Request(MCP, { method: "POST", headers: { "content-type": "application/json", ...headers }, body: body.stream }));
      expect(res.status).toBe(Object.keys(headers).length ? 403 : 401);
      expect(res.headers.get("connection")).toBe("close");
      // The whole 2 MiB was read (and dropped) before the answer: under the lingering bound of 8 MiB.
      expect(body.offered()).toBe(2 * MB);
    }
    // A body past the bound is not read to its end: the connection is closed under the rest.
    const endless = zeros(Infinity);
    const res = await o.app.handle(new Request(MCP, { method: "POST", headers: { "content-type": "application/json" }, body: endless.stream }));
    expect(res.status).toBe(401);
    expect(res.headers.get("connection")).toBe("close");
    expect(endless.offered()).toBeLessThan(12 * MB);
  });

  test("a revoked authorization's token is refused at once", async () => {
    const user = await o.makeUser();
    const tokens = await deviceTokens(o, user);
    const revoked = await o.call("POST", "/oauth/revoke", { app: o.app, body: new URLSearchParams({ token: tokens.refresh_token, client_id: "shelf-agent" }) });
    expect(revoked.status).toBe(200);
    const res = await rpc(o, initialize, { authorization: `Bearer ${tokens.access_token}` });
    expect(res.status).toBe(401);
    expect(res.headers.get("www-authenticate")).toContain("revoked");
  });
});
