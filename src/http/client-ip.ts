import type { Server } from "bun";

/**
 * The caller's address: the socket's, or behind a trusted proxy (TRUST_PROXY) the last
 * X-Forwarded-For hop, the one that proxy appended. Earlier hops are whatever the client
 * wrote, so trusting them would let anyone pick the address its limits are counted on.
 */
export function clientIp(request: Request, server: Server<unknown> | null | undefined, trustProxy: boolean): string {
  if (trustProxy) {
    const forwarded = request.headers.get("x-forwarded-for")?.split(",").at(-1)?.trim();
    if (forwarded && forwarded.length <= 64) return forwarded;
  }
  return server?.requestIP(request)?.address ?? "unknown";
}
