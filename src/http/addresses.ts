// The service's public addresses as one request sees them. With PUBLIC_URL set they are the
// configured ones. Unset, the service answers at whatever address reached it (localhost,
// 127.0.0.1, the machine's name or LAN address), and every URL it hands out (the dashboard's
// API, OAuth metadata, MCP discovery, media URLs) is made from that address: one made from
// localhost is unusable to the browser that came by 127.0.0.1 (another origin, so CORS and
// the MCP SDK's resource check refuse it) and to a phone on the LAN.
import type { Config, PublicAddress } from "../config.ts";

export type Addresses = Pick<Config, PublicAddress>;

type AddressConfig = Addresses & Pick<Config, "addressesFromRequest" | "TRUST_PROXY">;

/** A Host header as a URL authority: a name or address, and a port. */
const AUTHORITY = /^(?:[a-z0-9.-]+|\[[0-9a-f:.]+\])(?::\d{1,5})?$/i;

/**
 * The origin the request was sent to: its Host (Bun builds request.url from it), or behind
 * a trusted proxy the X-Forwarded-Host and -Proto it set. A malformed name is not taken.
 */
function requestOrigin(request: Request, trustProxy: boolean): string | null {
  const url = new URL(request.url);
  let protocol = url.protocol;
  let host = url.host;
  if (trustProxy) {
    const forwardedHost = request.headers.get("x-forwarded-host")?.split(",")[0]?.trim();
    const forwardedProto = request.headers.get("x-forwarded-proto")?.split(",")[0]?.trim().toLowerCase();
    if (forwardedHost) host = forwardedHost;
    if (forwardedProto === "http" || forwardedProto === "https") protocol = `${forwardedProto}:`;
  }
  return AUTHORITY.test(host) ? `${protocol}//${host.toLowerCase()}` : null;
}

/** The public addresses for this request: the configured ones, or those made from its origin. */
export function addressesOf(config: AddressConfig, request: Request): Addresses {
  if (config.addressesFromRequest.length === 0) return config;
  const origin = requestOrigin(request, config.TRUST_PROXY);
  if (origin === null) return config;
  // A default is http://localhost:PORT and a path: the same path at the request's origin.
  const defaultOrigin = new URL(config.PUBLIC_URL).origin;
  const out: Record<PublicAddress, string> = {
    PUBLIC_URL: config.PUBLIC_URL,
    MEDIA_URL: config.MEDIA_URL,
    CENTER_URL: config.CENTER_URL,
    MCP_URL: config.MCP_URL,
  };
  for (const name of config.addressesFromRequest) out[name] = origin + config[name].slice(defaultOrigin.length);
  return out;
}

/**
 * `deps` with this request's addresses in its config, for the services that read them there
 * (OAuth's issuer, resources and device URI): the same object when PUBLIC_URL is set.
 */
export function depsAt<D extends { config: AddressConfig }>(deps: D, request: Request): D {
  if (deps.config.addressesFromRequest.length === 0) return deps;
  return { ...deps, config: { ...deps.config, ...addressesOf(deps.config, request) } };
}
