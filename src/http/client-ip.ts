import type { Server } from "bun";

/** The caller's address: the socket's, or the first X-Forwarded-For hop behind a trusted proxy. */
export function clientIp(request: Request, server: Server<unknown> | null | undefined, trustProxy: boolean): string {
  if (trustProxy) {
    const forwarded = request.headers.get("x-forwarded-for")?.split(",")[0]?.trim();
    if (forwarded && forwarded.length <= 64) return forwarded;
  }
  return server?.requestIP(request)?.address ?? "unknown";
}
