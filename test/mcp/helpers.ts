// The MCP tests' steps: an OAuth test app (test/oauth/flow.ts), a token issued for the MCP
// server through the device flow, and the SDK's own client speaking Streamable HTTP into
// the app in process.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport, type StreamableHTTPClientTransportOptions } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { expect } from "bun:test";
import type { OAuthClientProvider } from "@modelcontextprotocol/sdk/client/auth.js";
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from "@modelcontextprotocol/sdk/shared/auth.js";
import type { TestUser } from "../helpers/factories.ts";
import { formFields } from "../oauth/authorize-steps.ts";
import { pageClient } from "../oauth/page-client.ts";
import type { oauthApp } from "../oauth/flow.ts";

type OAuthApp = Awaited<ReturnType<typeof oauthApp>>;

/** Where the test MCP clients say the user is sent back to (nothing listens: the code is read from the redirect). */
const REDIRECT = "http://127.0.0.1:43999/callback";

/** What an MCP client keeps: its registration, its tokens, the PKCE verifier, and where it sent the user. */
export class TestProvider implements OAuthClientProvider {
  info?: OAuthClientInformationMixed;
  saved?: OAuthTokens;
  verifier = "";
  authorizationUrl?: URL;
  get redirectUrl() {
    return REDIRECT;
  }
  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: "Test Agent",
      redirect_uris: [REDIRECT],
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      token_endpoint_auth_method: "none",
    };
  }
  clientInformation() {
    return this.info;
  }
  saveClientInformation(info: OAuthClientInformationMixed) {
    this.info = info;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens: OAuthTokens) {
    this.saved = tokens;
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url;
  }
  saveCodeVerifier(v: string) {
    this.verifier = v;
  }
  codeVerifier() {
    return this.verifier;
  }
}

/** The user signs in on the authorization page and approves: the code sent back to the client. */
export async function approveInBrowser(o: OAuthApp, base: string, url: URL, user: { email: string; password: string }) {
  const v = pageClient(o.app, { ip: o.ip(), base });
  const page = `${url.pathname}${url.search}`;
  const signInPage = await v.get(page);
  expect(signInPage.status).toBe(200);
  const signedIn = await v.post(url.pathname, { ...formFields(signInPage.html, "sign-in"), email: user.email, password: user.password });
  expect(signedIn.status).toBe(303);
  const next = new URL(signedIn.headers.get("location")!, `${base}${url.pathname}`);
  const consent = await v.get(next.pathname + next.search);
  expect(consent.status).toBe(200);
  const approved = await v.post(url.pathname, { ...formFields(consent.html, "decision"), decision: "approve" });
  expect(approved.status).toBe(303);
  const back = new URL(approved.headers.get("location")!);
  expect(back.origin + back.pathname).toBe(REDIRECT);
  return { code: back.searchParams.get("code")!, consentHtml: consent.html };
}

export const ALL_SCOPES = "kb.read kb.write media.read media.write usage.read";

/** The SDK client's fetch, into the app. */
export const appFetch = (o: OAuthApp) => (url: string | URL, init?: RequestInit) => o.app.handle(new Request(url, init));

/** A device flow approved by `user` for `resource` (default MCP_URL): the token set. */
export async function deviceTokens(o: OAuthApp, user: TestUser, opts: { scope?: string; resource?: string | null; clientId?: string } = {}) {
  const clientId = opts.clientId ?? "shelf-agent";
  const resource = opts.resource === undefined ? o.deps.config.MCP_URL : opts.resource;
  const started = await o.start(clientId, { scope: opts.scope ?? ALL_SCOPES, ...(resource !== null && { resource }) });
  if (started.status !== 200) throw new Error(`device_authorization: ${started.status} ${JSON.stringify(started.body)}`);
  const approved = await o.verify(user, started.body.user_code);
  if (approved.status !== 200) throw new Error(`verify: ${approved.status}`);
  const tokens = await o.poll(started.body.device_code, clientId);
  if (tokens.status !== 200) throw new Error(`token: ${tokens.status} ${JSON.stringify(tokens.body)}`);
  return tokens.body as { access_token: string; refresh_token: string; scope: string };
}

/** The SDK client connected with `token` (no token: none sent). */
export async function connect(o: OAuthApp, token?: string, options: Partial<StreamableHTTPClientTransportOptions> = {}) {
  const client = new Client({ name: "shelf-test-agent", version: "1.0.0" });
  const transport = new StreamableHTTPClientTransport(new URL(o.deps.config.MCP_URL), {
    fetch: appFetch(o),
    ...(token && { requestInit: { headers: { authorization: `Bearer ${token}` } } }),
    ...options,
  });
  await client.connect(transport);
  return client;
}

/** A raw JSON-RPC POST to the MCP endpoint. */
export function rpc(o: OAuthApp, body: unknown, headers: Record<string, string> = {}) {
  return o.app.handle(
    new Request(o.deps.config.MCP_URL, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers },
      body: JSON.stringify(body),
    }),
  );
}

export const initialize = {
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "t", version: "1" } },
};

/** Requests whose params do not fit their method, and the words their answer must have. */
export const MALFORMED: [method: string, params: unknown, says: string][] = [
  ["tools/call", { name: "list_knowledge_bases", arguments: null }, "params.arguments must be an object, not null"],
  ["tools/call", { name: "list_knowledge_bases", arguments: [] }, "params.arguments must be an object, not an array"],
  ["tools/call", { arguments: {} }, "params.name is required (a string)"],
  ["tools/call", { name: 42, arguments: {} }, "params.name must be a string, not a number"],
  ["tools/call", undefined, "params is required (an object)"],
  ["tools/call", [], "params must be an object, not an array"],
  ["tools/call", "list_knowledge_bases", "params must be an object, not a string"],
  ["tools/call", null, "params must be an object, not null"],
  ["tools/call", { name: "list_knowledge_bases", _meta: 1 }, "params._meta must be an object, not a number"],
  ["resources/read", {}, "params.uri is required (a string)"],
  ["resources/read", { uri: ["shelf://kb/x/a.md"] }, "params.uri must be a string, not an array"],
  ["tools/list", { cursor: 5 }, "params.cursor must be a string, not a number"],
  ["resources/list", { cursor: {} }, "params.cursor must be a string, not an object"],
  ["resources/templates/list", [1], "params must be an object, not an array"],
  ["initialize", { protocolVersion: 1, capabilities: {}, clientInfo: { name: "t", version: "1" } }, "params.protocolVersion must be a string, not a number"],
  ["ping", "now", "params must be an object, not a string"],
];
