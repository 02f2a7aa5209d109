// An MCP client's whole first contact, with the SDK's own OAuth client: a 401 without a
// token, discovery (protected resource metadata, then the authorization server's),
// dynamic client registration, the authorization code with PKCE through the consent page
// (driven as a browser drives it), tokens for MCP_URL, tool calls; a step-up for a scope
// the first authorization did not include.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { oauthApp } from "../oauth/flow.ts";
import { ALL_SCOPES, appFetch, approveInBrowser as approveAt, deviceTokens, TestProvider } from "./helpers.ts";
import { TEST_TIMEOUT_MS } from "../helpers/timeout.ts";

setDefaultTimeout(TEST_TIMEOUT_MS);

const o = await oauthApp();
const MCP = o.deps.config.MCP_URL;
const approveInBrowser = (url: URL, user: { email: string; password: string }) => approveAt(o, "http://shelf.test", url, user);

const transportFor = (provider: TestProvider) => new StreamableHTTPClientTransport(new URL(MCP), { authProvider: provider, fetch: appFetch(o) });

describe("an MCP client's first contact, with the SDK's OAuth client", () => {
  test("401 -> discovery -> registration -> code with PKCE through the consent page -> tokens for MCP_URL -> tools", async () => {
    const user = await o.makeUser();
    const provider = new TestProvider();
    const first = transportFor(provider);
    await expect(new Client({ name: "agent", version: "1" }).connect(first)).rejects.toThrow(/Unauthorized/);

    // Registered (pending an administrator's approval: the consent page says it is unverified).
    expect(provider.info?.client_id).toBeString();
    const url = provider.authorizationUrl!;
    expect(url.origin + url.pathname).toBe(`${o.deps.config.PUBLIC_URL}/oauth/authorize`);
    expect(url.searchParams.get("resource")).toBe(MCP);
    expect(url.searchParams.get("code_challenge_method")).toBe("S256");
    expect(url.searchParams.get("client_id")).toBe(provider.info!.client_id);

    const { code, consentHtml } = await approveInBrowser(url, user);
    expect(consentHtml).toContain("Test Agent");
    expect(consentHtml).toContain('id="unverified"');
    expect(consentHtml).toContain('through the <strong id="resource">MCP server</strong>');
    await first.finishAuth(code);
    expect(provider.saved?.access_token).toStartWith("oat_");
    // The scopes the protected resource metadata lists, as the SDK asks for them.
    expect(new Set(provider.saved!.scope!.split(" "))).toEqual(new Set(ALL_SCOPES.split(" ")));

    const client = new Client({ name: "agent", version: "1" });
    await client.connect(transportFor(provider));
    const kbs = await client.callTool({ name: "list_knowledge_bases", arguments: {} });
    expect(kbs.isError).toBeFalsy();
    expect(kbs.structuredContent).toEqual({ items: [], nextCursor: null });
    await client.close();

    // The token is for the MCP server only.
    expect((await o.api("GET", "/v1/kbs", provider.saved!.access_token)).status).toBe(401);
  });

  test("the pre-registered shelf-agent client with a kb.read token: a tool needing kb.write is 403 insufficient_scope, and the SDK client asks again for both (step-up)", async () => {
    const user = await o.makeUser();
    const provider = new TestProvider();
    provider.info = { client_id: "shelf-agent" };
    // An access token alone: holding a refresh token, the SDK client would first refresh,
    // which keeps the grant's scopes (a refresh can narrow them, never widen).
    provider.saved = { access_token: (await deviceTokens(o, user, { scope: "kb.read" })).access_token, token_type: "Bearer" };

    const client = new Client({ name: "agent", version: "1" });
    await client.connect(transportFor(provider));
    provider.authorizationUrl = undefined;
    const kb = await o.call("POST", "/v1/kbs", { app: o.app, token: user.jwt, json: { name: "Agent notes" } });
    const kbId = ((await kb.json()) as { data: { id: string } }).data.id;
    await expect(client.callTool({ name: "write_document", arguments: { kbId, path: "a.md", content: "x" } })).rejects.toThrow();
    // The client was sent to authorize again, for the scopes the challenge named.
    expect(provider.authorizationUrl).toBeDefined();
    expect(new Set(provider.authorizationUrl!.searchParams.get("scope")!.split(" "))).toEqual(new Set(["kb.read", "kb.write"]));
    await client.close();
  });
});
