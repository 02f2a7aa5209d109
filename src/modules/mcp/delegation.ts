// The hosted server's tools call the API in process (client.ts). The caller's OAuth token
// is for the MCP server only (RFC 8707), so the API would refuse it; for the life of one
// MCP request the tools carry a delegated credential instead: random, held in this
// process's memory only, standing for the same user, client and scopes (never more), and
// gone when the request ends. It never leaves the process, so no other node needs it.
import { randomBytes } from "node:crypto";
import { unauthorized, type Principal } from "../../core/principal.ts";
import type { TokenResolver } from "../identity/public.ts";

const PREFIX = "mcpd_";

export function createDelegation() {
  const live = new Map<string, Principal>();
  const resolver: TokenResolver = {
    claims: (token) => token.startsWith(PREFIX),
    async resolve(token) {
      const principal = live.get(token);
      if (!principal) throw unauthorized("unknown or ended delegated credential");
      return principal;
    },
    forgetUser(userId) {
      for (const [token, p] of live) if (p.userId === userId) live.delete(token);
    },
  };
  return {
    resolver,
    /** Runs `work` with an Authorization header that stands for `principal` (for the API: no resource). */
    async run<T>(principal: Principal, work: (authorization: string) => Promise<T>): Promise<T> {
      const token = PREFIX + randomBytes(32).toString("base64url");
      const { resource: _forMcp, ...forApi } = principal;
      live.set(token, forApi);
      try {
        return await work(`Bearer ${token}`);
      } finally {
        live.delete(token);
      }
    },
  };
}
