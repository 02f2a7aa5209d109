// The hosted MCP server at MCP_URL (Streamable HTTP, stateless: every request carries its
// token and is answered by whichever api node gets it) and its protected resource metadata
// (RFC 9728). The MCP SDK's web-standard transport answers the protocol (a plain tools/call
// is answered as it would be, without it: tool-call.ts); what is ours is who may call
// (authorization.ts) and what the tools do (tools.ts).
import { Elysia } from "elysia";
import type { Principal } from "../../core/principal.ts";
import { lingeringClose, readBody } from "../../http/body-limit.ts";
import type { Buckets } from "../../http/buckets.ts";
import { AppError } from "../../core/errors.ts";
import { OWN_PATHS } from "../../http/openapi.ts";
import type { Scope } from "../../core/scopes.ts";
import type { RouteServices } from "../../wiring/services.ts";
import { type Addresses, addressesOf } from "../../http/addresses.ts";
import { allowedOrigins, challenges, McpRefusal, mcpPrincipal } from "./authorization.ts";
import { type Send, ShelfClient } from "./client.ts";
import { urlImageFetcher } from "./image-url.ts";
import { mcpDocumentation } from "./model.ts";
import type { McpServerOptions } from "./server.ts";
import { toolNamed } from "./tools.ts";

const importSdk = async () => {
  const [server, params, transport, toolCall] = await Promise.all([
    import("./server.ts"),
    import("./params.ts"),
    import("@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js"),
    import("./tool-call.ts"),
  ]);
  return {
    createMcpServer: server.createMcpServer,
    toolCaller: server.toolCaller,
    answerPlainToolCall: toolCall.answerPlainToolCall,
    paramsRefusal: params.paramsRefusal,
    WebStandardStreamableHTTPServerTransport: transport.WebStandardStreamableHTTPServerTransport,
  };
};
let sdk: Promise<Awaited<ReturnType<typeof importSdk>>> | undefined;
/** The SDK and the server, imported at the first call and kept (three imports awaited on every call cost about 40 us of CPU). */
const loadSdk = () => {
  sdk ??= importSdk().catch((e: unknown) => {
    sdk = undefined;
    throw e;
  });
  return sdk;
};

/** The largest request: an upload_image of the largest image a plan takes, as base64, with room for the rest. */
const MAX_BODY_BYTES = 72 * 1024 * 1024;
/** The API the tools call in process: only the path matters to the app. */
const IN_PROCESS_BASE = "http://localhost";
const MCP_SCOPES: readonly Scope[] = ["kb.read", "kb.write", "media.read", "media.write", "usage.read"];

const CORS_ALLOW = {
  "access-control-allow-methods": "POST, GET, DELETE, OPTIONS",
  "access-control-allow-headers": "authorization, content-type, accept, mcp-protocol-version, mcp-session-id, last-event-id",
  "access-control-expose-headers": "www-authenticate, mcp-session-id, mcp-protocol-version",
  "access-control-max-age": "600",
};

/** The scope a JSON-RPC message needs beyond a valid token, if any. */
function scopeNeeded(message: unknown): Scope | undefined {
  if (typeof message !== "object" || message === null) return undefined;
  const { method, params } = message as { method?: unknown; params?: { name?: unknown } };
  if (method === "tools/call" && typeof params?.name === "string") return toolNamed(params.name)?.scope;
  if (method === "resources/list" || method === "resources/read") return "kb.read";
  return undefined;
}

/** Takes a tool call from the user's mcpCall bucket; when it is empty, the tool error to answer. */
async function chargeToolCall(buckets: Buckets, userId: string): Promise<string | undefined> {
  try {
    await buckets.take(userId, "mcpCall");
    return undefined;
  } catch (e) {
    if (!(e instanceof AppError) || e.code !== "RATE_LIMITED") throw e;
    const retryS = Math.max(1, Math.ceil(Number(e.meta.retryAfterMs) / 1000));
    return `RATE_LIMITED (the mcpCall bucket): ${e.message}; try again in ${retryS} s`;
  }
}

export const mcpModule = (services: RouteServices, send: Send) => {
  const { deps, identity, mcpDelegation, buckets } = services;
  const config = deps.config;
  // The paths are the same at every address the server is reached at.
  const path = new URL(config.MCP_URL).pathname.replace(/\/+$/, "") || "/";
  const metadataPath = `/.well-known/oauth-protected-resource${path === "/" ? "" : path}`;
  const fetchImage = urlImageFetcher();
  /** What the server says of itself at these addresses: a client must find the address it called. */
  const serverAt = (addresses: Addresses) => ({
    addresses,
    challenge: challenges(`${new URL(addresses.MCP_URL).origin}${metadataPath}`),
    origins: allowedOrigins({ ...addresses, MCP_ALLOWED_ORIGINS: config.MCP_ALLOWED_ORIGINS }),
    // The tools' API calls are made in process at the same address, so the URLs they hand
    // back are the caller's.
    inProcessBase: config.addressesFromRequest.length === 0 ? IN_PROCESS_BASE : new URL(addresses.PUBLIC_URL).origin,
    metadata: {
      resource: addresses.MCP_URL,
      authorization_servers: [addresses.PUBLIC_URL],
      scopes_supported: [...MCP_SCOPES],
      bearer_methods_supported: ["header"],
      resource_name: "shelf",
      resource_documentation: `${addresses.PUBLIC_URL}/swagger`,
    },
  });
  const fixed = config.addressesFromRequest.length === 0 ? serverAt(config) : null;
  const here = (request: Request) => fixed ?? serverAt(addressesOf(config, request));

  const corsFor = (origin: string | null): Record<string, string> => (origin ? { "access-control-allow-origin": origin, vary: "Origin" } : {});

  async function serve(request: Request, principal: Principal, inProcessBase: string): Promise<Response> {
    let message: unknown;
    try {
      message = JSON.parse(new TextDecoder().decode(await readBody(request, MAX_BODY_BYTES)));
    } catch (e) {
      if (e instanceof AppError) throw new McpRefusal(e.status, e.message, e.headers);
      return Response.json({ jsonrpc: "2.0", error: { code: -32700, message: "Parse error: the body is not JSON" }, id: null }, { status: 400 });
    }
    const needed = scopeNeeded(message);
    if (needed && !principal.scopes.includes(needed)) {
      const scopes = [...new Set([...principal.scopes.filter((s) => MCP_SCOPES.includes(s)), needed])];
      throw here(request).challenge.insufficientScope(scopes, `this needs the ${needed} scope, which this authorization does not include`);
    }
    // The SDK loads at the first call, not at start: most api nodes never serve one
    // (docs/benchmarks.md, "Idle memory").
    const { createMcpServer, toolCaller, answerPlainToolCall, paramsRefusal, WebStandardStreamableHTTPServerTransport } = await loadSdk();
    // The transport takes a request whose params are not an object for no JSON-RPC at all
    // (400, -32700) before the server sees it: it is answered here as the server answers
    // other malformed params.
    const refusal = Array.isArray(message) ? undefined : paramsRefusal(message);
    if (refusal) return Response.json(refusal);
    return mcpDelegation.run(principal, async (authorization) => {
      const ctx = { client: new ShelfClient(inProcessBase, send, () => authorization), fetchImage };
      const opts: McpServerOptions = {
        scopes: principal.scopes,
        onToolCall: (call) => {
          deps.log.info("mcp tool call", { ...call, userId: principal.userId, clientId: principal.clientId });
          deps.metrics.mcpToolCall(call.tool, call.ok ? "ok" : (call.error ?? "error"));
        },
        charge: () => chargeToolCall(buckets, principal.userId),
      };
      // A plain tools/call needs no server and transport of its own (tool-call.ts); anything else, the SDK's.
      const plain = await answerPlainToolCall(request, message, toolCaller(ctx, opts));
      if (plain) return plain;
      const server = createMcpServer(ctx, opts);
      const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
      await server.connect(transport);
      try {
        return await transport.handleRequest(request, { parsedBody: message });
      } finally {
        await server.close();
      }
    });
  }

  async function handle(request: Request): Promise<Response> {
    // A refusal before the body is read closes the connection after a lingering read of it.
    const unread = () => lingeringClose(request);
    const origin = request.headers.get("origin");
    const { addresses, challenge, origins, inProcessBase } = here(request);
    if (origin !== null && !origins.has(origin)) {
      return new McpRefusal(403, `requests from the origin ${origin.slice(0, 200)} are not accepted (add it to MCP_ALLOWED_ORIGINS)`).response(await unread());
    }
    const cors = corsFor(origin);
    if (request.method === "OPTIONS") return new Response(null, { status: 204, headers: { ...cors, ...CORS_ALLOW } });
    try {
      const principal = await mcpPrincipal(identity.resolveForResource, request.headers.get("authorization"), addresses.MCP_URL, challenge);
      // Stateless: no session to resume or end, and no stream of server-initiated messages.
      if (request.method !== "POST") {
        return new Response(JSON.stringify({ jsonrpc: "2.0", error: { code: -32000, message: "Method not allowed: send JSON-RPC with POST" }, id: null }), {
          status: 405,
          headers: { ...cors, allow: "POST, OPTIONS", "content-type": "application/json" },
        });
      }
      const res = await serve(request, principal, inProcessBase);
      for (const [k, v] of Object.entries(cors)) res.headers.set(k, v);
      return res;
    } catch (e) {
      if (e instanceof McpRefusal) return e.response({ ...cors, ...(await unread()) });
      throw e;
    }
  }

  const own = { hide: true, [OWN_PATHS]: mcpDocumentation(path, metadataPath) };
  return (
    new Elysia({ name: "mcp" })
      .get(
        metadataPath,
        ({ set, request }) => {
          set.headers["cache-control"] = "public, max-age=3600";
          set.headers["access-control-allow-origin"] = "*";
          return here(request).metadata;
        },
        { detail: own },
      )
      // Each method its own route: a POST's body is read here (parse "none"), within MAX_BODY_BYTES.
      .post(path, ({ request }) => handle(request), { parse: "none", detail: { hide: true } })
      .get(path, ({ request }) => handle(request), { detail: { hide: true } })
      .delete(path, ({ request }) => handle(request), { parse: "none", detail: { hide: true } })
      .options(path, ({ request }) => handle(request), { parse: "none", detail: { hide: true } })
  );
};
