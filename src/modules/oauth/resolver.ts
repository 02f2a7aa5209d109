// OAuth access tokens at the API: one more resolver in identity's principal lookup. A
// token's record is cached per process, and so is its grant's liveness, each for at most
// 5 s; a revoked grant is dropped from every node's cache at once by its broadcast.
import type { Deps } from "../../core/deps.ts";
import { AppError } from "../../core/errors.ts";
import { listen } from "../../infra/broadcast.ts";
import { TtlCache } from "../../infra/cache.ts";
import type { TokenResolver } from "../identity/public.ts";
import { ACCESS_TOKEN_PATTERN, isAccessTokenShaped, sha256Hex } from "./codes.ts";
import { type AccessRecord, findAccessToken, GRANT_REVOCATIONS, isGrantLive } from "./service.ts";

const CACHE_MAX = 50_000;

const bearerInvalid = (message: string, reason: string) =>
  new AppError("OAUTH_BEARER_INVALID", message, { reason }, { "www-authenticate": 'Bearer realm="shelf", error="invalid_token"' });

export function accessTokenResolver(deps: Deps) {
  const tokens = new TtlCache<AccessRecord | null>(CACHE_MAX, deps.clock.nowMs);
  const grants = new TtlCache<boolean>(CACHE_MAX, deps.clock.nowMs);
  const revocations = listen(deps, GRANT_REVOCATIONS, (grantId) => grants.delete(grantId));

  const resolver: TokenResolver = {
    claims: isAccessTokenShaped,
    async resolve(token) {
      if (!ACCESS_TOKEN_PATTERN.test(token)) throw bearerInvalid("malformed OAuth access token", "malformed");
      const hash = sha256Hex(token);
      let rec = tokens.get(hash);
      if (!rec) {
        rec = { v: (await findAccessToken(deps.db, hash)) ?? null };
        tokens.set(hash, rec.v);
      }
      const t = rec.v;
      if (!t) throw bearerInvalid("unknown OAuth access token", "unknown");
      if (t.expiresAtMs <= deps.clock.nowMs()) throw bearerInvalid("the OAuth access token has expired; refresh it", "expired");
      let live = grants.get(t.grantId);
      if (!live) {
        live = { v: await isGrantLive(deps.db, t.grantId) };
        grants.set(t.grantId, live.v);
      }
      if (!live.v) throw bearerInvalid("the authorization of this token was revoked", "revoked");
      const principal = { userId: t.userId, scopes: t.scopes, via: "oauth" as const, clientId: t.clientId };
      return t.resource === null ? principal : { ...principal, resource: t.resource };
    },
    // A deleted account's tokens and grants are gone from the database (they cascade with
    // it); once this node forgets them it looks, and refuses.
    forgetUser(userId) {
      tokens.deleteWhere((rec) => {
        if (rec?.userId !== userId) return false;
        grants.delete(rec.grantId);
        return true;
      });
    },
  };
  return { ...resolver, close: () => revocations.close() };
}
