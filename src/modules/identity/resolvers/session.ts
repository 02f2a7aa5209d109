// JWT access tokens of a signed-in session: the signature and expiry are checked, then
// whether the session is still live and is the token's user's, cached per process for
// at most 5 s (as keys are).
import type { Deps } from "../../../core/deps.ts";
import { unauthorized } from "../../../core/principal.ts";
import { SCOPES } from "../../../core/scopes.ts";
import { TtlCache } from "../../../infra/cache.ts";
import type { TokenResolver } from "../principal.ts";
import { liveSessionUser } from "../sessions.ts";
import type { TokenSigner } from "../tokens.ts";

const CACHE_MAX = 50_000;
const JWT_SHAPE = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/;

export function sessionResolver(deps: Deps, signer: TokenSigner) {
  /** A session's user while it is live, null once it ended (or never was). */
  const cache = new TtlCache<string | null>(CACHE_MAX, deps.clock.nowMs);
  const resolver: TokenResolver = {
    claims: (token) => JWT_SHAPE.test(token),
    async resolve(token) {
      const claims = await signer.verify(token);
      let owner = cache.get(claims.sessionId);
      if (!owner) {
        owner = { v: await liveSessionUser(deps.db, claims.sessionId) };
        cache.set(claims.sessionId, owner.v);
      }
      // A session answers for its own user only: a token naming another is not one we signed.
      if (owner.v !== claims.userId) throw unauthorized("session ended");
      // A signed-in session acts for its owner in full; keys and grants carry scopes.
      return { userId: claims.userId, scopes: SCOPES, via: "jwt", sessionId: claims.sessionId };
    },
  };
  return {
    ...resolver,
    /** An ended session's id: dropped from this node's cache. */
    forget: (sessionId: string) => cache.delete(sessionId),
    forgetUser: (userId: string) => cache.deleteWhere((owner) => owner === userId),
  };
}
