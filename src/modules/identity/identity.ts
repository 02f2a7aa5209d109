// Identity's per-process part: the token signer, the principal lookup over its resolvers
// (with their caches), and the listener that drops revoked credentials from those caches.
// Built once per process by src/wiring/services.ts; close() stops its timer and subscription.
import type { Deps } from "../../core/deps.ts";
import { apiPrincipalLookup, principalLookup, type TokenResolver } from "./principal.ts";
import { apiKeyResolver } from "./resolvers/api-key.ts";
import { sessionResolver } from "./resolvers/session.ts";
import { onRevoked } from "./revocations.ts";
import { createTokenSigner } from "./tokens.ts";
import { getUser } from "./users.ts";

/** `more`: token kinds other modules own (OAuth access tokens), tried after keys and sessions. */
export function createIdentity(deps: Deps, more: readonly TokenResolver[] = []) {
  const signer = createTokenSigner(deps.config.JWT_SECRET, deps.clock);
  const keys = apiKeyResolver(deps);
  const sessions = sessionResolver(deps, signer);
  const resolvers: readonly TokenResolver[] = [keys, sessions, ...more];
  const revocations = onRevoked(deps, {
    key: keys.forget,
    session: sessions.forget,
    user: (userId) => {
      for (const r of resolvers) r.forgetUser?.(userId);
    },
  });
  const anyResource = principalLookup(resolvers);
  // Work a request starts and does not wait for: what it would otherwise wait on would tell,
  // by the answer's time, what the answer keeps to itself (whether an address has an account).
  const afterwards = new Set<Promise<void>>();
  const settled = async () => {
    while (afterwards.size > 0) await Promise.all(afterwards);
  };
  return {
    signer,
    /** The one way a request to the API becomes a principal: API keys first, then JWT sessions, then the others. */
    resolvePrincipal: apiPrincipalLookup(anyResource),
    /** The same lookup that also answers for tokens issued for another resource (the MCP server checks its own). */
    resolveForResource: anyResource,
    /** Read per request (not cached), so a withdrawn admin flag holds at once. */
    isAdmin: async (userId: string) => (await getUser(deps.db, userId))?.isAdmin === true,
    pendingLastUsed: keys.pendingLastUsed,
    flushLastUsed: keys.flushLastUsed,
    /** Runs `work` once the request has its answer; a failure is logged, and close() waits for it. */
    afterAnswer(what: string, work: () => Promise<void>): void {
      const running: Promise<void> = work()
        .catch((error: unknown) => deps.log.error("work after the answer failed", { what, error: String(error) }))
        .finally(() => afterwards.delete(running));
      afterwards.add(running);
    },
    /** Resolves once the work started by afterAnswer, and any it started, is done. */
    settled,
    async close() {
      await settled();
      await keys.close();
      await revocations.close();
    },
  };
}
