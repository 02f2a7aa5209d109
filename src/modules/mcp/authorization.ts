// Who may call the hosted MCP server, as the MCP authorization spec has it: OAuth access
// tokens issued for MCP_URL (RFC 8707) only; a request without one is told where the
// protected resource metadata is (RFC 9728), so a client discovers the authorization
// server; a token without a tool's scope is answered 403 insufficient_scope naming the
// scopes to ask for (a step-up). Browser pages of other origins are refused (DNS
// rebinding: a page of any site could otherwise reach a server on the user's machine).
import type { Config } from "../../config.ts";
import type { Principal } from "../../core/principal.ts";
import { AppError } from "../../core/errors.ts";
import type { Scope } from "../../core/scopes.ts";

/** A refusal of the MCP endpoint, answered as JSON-RPC with the HTTP status and headers given. */
export class McpRefusal extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }

  response(extra: Record<string, string> = {}): Response {
    const body = { jsonrpc: "2.0", error: { code: -32001, message: this.message }, id: null };
    return Response.json(body, { status: this.status, headers: { ...this.headers, ...extra, "cache-control": "no-store" } });
  }
}

const quoted = (s: string) => `"${s.replace(/["\\]/g, "")}"`;

export function challenges(metadataUrl: string) {
  const header = (fields: Record<string, string | undefined>) =>
    `Bearer ${Object.entries({ ...fields, resource_metadata: metadataUrl })
      .filter(([, v]) => v !== undefined)
      .map(([k, v]) => `${k}=${quoted(v!)}`)
      .join(", ")}`;
  return {
    /** No credential: where to find out how to get one. */
    missing: () => new McpRefusal(401, "this MCP server needs an OAuth access token", { "www-authenticate": header({}) }),
    invalid: (description: string) =>
      new McpRefusal(401, description, { "www-authenticate": header({ error: "invalid_token", error_description: description }) }),
    insufficientScope: (needed: readonly Scope[], description: string) =>
      new McpRefusal(403, description, {
        "www-authenticate": header({ error: "insufficient_scope", scope: needed.join(" "), error_description: description }),
      }),
  };
}
export type Challenges = ReturnType<typeof challenges>;

/** The principal a token stands for, if it is an OAuth token issued for this MCP server. */
export async function mcpPrincipal(
  resolve: (header: string) => Promise<Principal>,
  header: string | null,
  mcpUrl: string,
  challenge: Challenges,
): Promise<Principal> {
  if (!header) throw challenge.missing();
  let principal: Principal;
  try {
    principal = await resolve(header);
  } catch (e) {
    if (e instanceof AppError && e.status === 401) throw challenge.invalid(e.message);
    throw e;
  }
  if (principal.via !== "oauth") {
    throw challenge.invalid("this MCP server accepts OAuth access tokens only; an API key works with `shelf mcp` (stdio) and the API");
  }
  if (principal.resource !== mcpUrl) {
    throw challenge.invalid(`this token was issued for ${principal.resource ?? "the API"}, not for this MCP server: authorize with resource=${mcpUrl}`);
  }
  return principal;
}

/** Origins whose pages may call the server: those of the service's own addresses and MCP_ALLOWED_ORIGINS. */
export function allowedOrigins(config: Pick<Config, "PUBLIC_URL" | "MCP_URL" | "CENTER_URL" | "MCP_ALLOWED_ORIGINS">): ReadonlySet<string> {
  const origins = new Set([config.PUBLIC_URL, config.MCP_URL, config.CENTER_URL].map((u) => new URL(u).origin));
  for (const o of config.MCP_ALLOWED_ORIGINS.split(",")) if (o.trim()) origins.add(o.trim().replace(/\/+$/, ""));
  return origins;
}
