// With PUBLIC_URL unset, every address that reaches the server works: the URLs it hands out
// (the dashboard's API, OAuth metadata and endpoints, MCP discovery, the device page, media
// URLs, the API document) are made from the address the request came to, and the own-site
// rule takes that address's pages as the service's own. With PUBLIC_URL set, the configured
// addresses are the only ones, and the dashboard is told to go there.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { loadConfig } from "../../src/config.ts";
import { addressesOf } from "../../src/http/addresses.ts";
import { addressesFromRequest, testEnv } from "../helpers/context.ts";
import { PASSWORD } from "../helpers/factories.ts";
import { TEST_TIMEOUT_MS } from "../helpers/timeout.ts";
import { png } from "../images/fixtures.ts";
import { approveInBrowser, TestProvider } from "../mcp/helpers.ts";
import { oauthApp } from "../oauth/flow.ts";

setDefaultTimeout(TEST_TIMEOUT_MS);

/** The addresses a config without PUBLIC_URL has: the defaults, each following the request. */
const unset = loadConfig(testEnv({ PUBLIC_URL: "", PORT: "8080" }));
const o = await oauthApp((deps) => ({ config: addressesFromRequest(deps.config) }));

const LOOPBACK = "http://127.0.0.1:8080";
const LAN = "http://192.168.1.5:8080";

const get = (url: string, headers: Record<string, string> = {}) => o.app.handle(new Request(url, { headers }));
const json = async (url: string) => (await (await get(url)).json()) as Record<string, unknown>;

describe("PUBLIC_URL unset: the address a request came to", () => {
  test("the configuration says which addresses follow the request, and jobs get http://localhost:PORT", () => {
    expect(unset.addressesFromRequest).toEqual(["PUBLIC_URL", "MEDIA_URL", "CENTER_URL", "MCP_URL"]);
    expect(unset.PUBLIC_URL).toBe("http://localhost:8080");
    const set = loadConfig(testEnv({ PUBLIC_URL: "https://shelf.example.com" }));
    expect(set.addressesFromRequest).toEqual([]);
    // A MEDIA_URL of its own stays, while the others follow the request.
    const cdn = loadConfig(testEnv({ PUBLIC_URL: "", MEDIA_URL: "https://cdn.example.com" }));
    expect(cdn.addressesFromRequest).toEqual(["PUBLIC_URL", "CENTER_URL", "MCP_URL"]);
    expect(addressesOf(cdn, new Request(`${LAN}/v1/images`)).MEDIA_URL).toBe("https://cdn.example.com");
  });

  test("a Host that is no address is not taken; behind a trusted proxy its forwarded host and scheme are", () => {
    const evil = new Request("http://10.0.0.2:8080/", { headers: { "x-forwarded-host": "evil.example/<script>" } });
    expect(addressesOf(o.deps.config, evil).PUBLIC_URL).toBe(unset.PUBLIC_URL);
    const proxied = new Request("http://10.0.0.2:8080/", { headers: { "x-forwarded-host": "notes.example.org", "x-forwarded-proto": "https" } });
    expect(addressesOf(o.deps.config, proxied)).toEqual({
      PUBLIC_URL: "https://notes.example.org",
      MEDIA_URL: "https://notes.example.org/media",
      CENTER_URL: "https://notes.example.org",
      MCP_URL: "https://notes.example.org/mcp",
    });
    expect(addressesOf({ ...o.deps.config, TRUST_PROXY: false }, proxied).PUBLIC_URL).toBe("http://10.0.0.2:8080");
  });

  test("the dashboard calls the API at the address it was opened at, and is not sent elsewhere", async () => {
    for (const base of [LOOPBACK, LAN]) {
      const res = await get(`${base}/`);
      const html = await res.text();
      expect(html).toContain(`data-api="${base}"`);
      expect(html).toContain(`data-media="${base}/media"`);
      expect(html).not.toContain("data-fixed");
      expect(res.headers.get("content-security-policy")).toContain(`connect-src 'self' ${base} ${base}`);
    }
  });

  test("OAuth metadata, MCP discovery, the device URI and the API document name the address asked", async () => {
    for (const base of [LOOPBACK, LAN]) {
      expect(await json(`${base}/.well-known/oauth-authorization-server`)).toMatchObject({
        issuer: base,
        authorization_endpoint: `${base}/oauth/authorize`,
        token_endpoint: `${base}/oauth/token`,
      });
      expect(await json(`${base}/.well-known/oauth-protected-resource/mcp`)).toMatchObject({ resource: `${base}/mcp`, authorization_servers: [base] });
      const refused = await o.app.handle(new Request(`${base}/mcp`, { method: "POST", body: "{}" }));
      expect(refused.status).toBe(401);
      expect(refused.headers.get("www-authenticate")).toContain(`resource_metadata="${base}/.well-known/oauth-protected-resource/mcp"`);
      const started = await o.app.handle(
        new Request(`${base}/v1/oauth/device_authorization`, { method: "POST", body: new URLSearchParams({ client_id: "shelf-sync" }) }),
      );
      expect(((await started.json()) as { verification_uri: string }).verification_uri).toBe(`${base}/device`);
    }
    expect(((await json(`${LAN}/swagger/json`)).servers as unknown[])[0]).toEqual({ url: "/" });
  });

  test("an image uploaded by the LAN address gets a URL at that address", async () => {
    const user = await o.makeUser();
    const form = new FormData();
    form.append("file", new Blob([(await png()).slice()], { type: "image/png" }), "photo.png");
    const res = await o.app.handle(new Request(`${LAN}/v1/images`, { method: "POST", body: form, headers: { authorization: `Bearer ${user.jwt}` } }));
    expect(res.status).toBe(201);
    const { data } = (await res.json()) as { data: { id: string; url: string } };
    expect(data.url).toStartWith(`${LAN}/media/${data.id}.`);
  });

  test("sign-in from the LAN address's own page over plain http (Origin only, no Sec-Fetch-Site) is let in; another site's is 403", async () => {
    const user = await o.makeUser();
    const signIn = (origin: string) =>
      o.app.handle(
        new Request(`${LAN}/v1/auth/login`, {
          method: "POST",
          headers: { origin, "content-type": "application/json", "x-forwarded-for": o.ip() },
          body: JSON.stringify({ email: user.email, password: PASSWORD }),
        }),
      );
    expect((await signIn(LAN)).status).toBe(200);
    const refused = await signIn("http://evil.example");
    expect(refused.status).toBe(403);
    expect(refused.headers.getSetCookie()).toEqual([]);
  });

  test("the MCP SDK's own OAuth client, pointed at 127.0.0.1, finds the resource it called and gets a token that works there", async () => {
    const user = await o.makeUser();
    const provider = new TestProvider();
    const mcp = new URL(`${LOOPBACK}/mcp`);
    const fetchIn = (url: string | URL, init?: RequestInit) => o.app.handle(new Request(url, init));
    const first = new StreamableHTTPClientTransport(mcp, { authProvider: provider, fetch: fetchIn });
    await expect(new Client({ name: "agent", version: "1" }).connect(first)).rejects.toThrow(/Unauthorized/);
    const url = provider.authorizationUrl!;
    expect(url.origin).toBe(LOOPBACK);
    expect(url.searchParams.get("resource")).toBe(`${LOOPBACK}/mcp`);
    const { code } = await approveInBrowser(o, LOOPBACK, url, user);
    await first.finishAuth(code);
    const client = new Client({ name: "agent", version: "1" });
    await client.connect(new StreamableHTTPClientTransport(mcp, { authProvider: provider, fetch: fetchIn }));
    const kbs = await client.callTool({ name: "list_knowledge_bases", arguments: {} });
    expect(kbs.isError).toBeFalsy();
    await client.close();
  });
});

describe("PUBLIC_URL set: the configured addresses only", () => {
  test("another Host changes nothing the server says, and the dashboard is marked to go to CENTER_URL", async () => {
    const fixed = await oauthApp();
    const { PUBLIC_URL } = fixed.deps.config;
    const meta = (await (await fixed.app.handle(new Request(`${LAN}/.well-known/oauth-authorization-server`))).json()) as { issuer: string };
    expect(meta.issuer).toBe(PUBLIC_URL);
    const html = await (await fixed.app.handle(new Request(`${LAN}/`))).text();
    expect(html).toContain(`data-center="${fixed.deps.config.CENTER_URL}"`);
    expect(html).toContain("data-fixed");
  });
});
