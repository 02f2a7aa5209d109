// Resource indicators (RFC 8707): the protected resource an authorization is for. This
// server protects two: the API at PUBLIC_URL and the MCP server at MCP_URL. A token is
// issued for exactly one of them and accepted by that one only, so a token an MCP client
// holds cannot be spent on the API, nor an API token on the MCP server. A request that
// names no resource is for the API, as before resource indicators existed.
import type { Config } from "../../config.ts";
import { OAuthError } from "./errors.ts";

/** What is stored for a grant: null for the API, else the resource's URL. */
export type Resource = string | null;

const invalidTarget = (description: string) => new OAuthError("invalid_target", description);

const trimSlash = (s: string) => s.replace(/\/+$/, "");

/**
 * The resource a request names (`undefined`: none; `null`: given more than once), checked
 * against the ones this server protects. Trailing slashes are not significant.
 */
export function requestedResource(config: Pick<Config, "PUBLIC_URL" | "MCP_URL">, value: string | undefined | null): Resource {
  if (value === undefined) return null;
  if (value === null) throw invalidTarget("name one resource per request");
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw invalidTarget("resource must be an absolute URI");
  }
  if (url.hash || value.includes("#")) throw invalidTarget("resource must not have a fragment");
  const given = trimSlash(value);
  if (given === config.MCP_URL) return config.MCP_URL;
  if (given === config.PUBLIC_URL) return null;
  throw invalidTarget(`this server issues tokens for ${config.PUBLIC_URL} (the API) and ${config.MCP_URL} (the MCP server) only`);
}

/** At the token endpoint: a resource named there must be the one the grant was given for. */
export function assertSameResource(config: Pick<Config, "PUBLIC_URL" | "MCP_URL">, value: string | undefined, granted: Resource): void {
  if (value === undefined) return;
  if (requestedResource(config, value) !== granted) {
    throw invalidTarget(`this authorization was given for ${granted ?? config.PUBLIC_URL}; ask for that resource, or authorize again`);
  }
}
