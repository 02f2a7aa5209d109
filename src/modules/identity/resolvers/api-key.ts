// API keys: looked up by hash and cached per process for at most 5 s, on the injectable
// clock ("refused within 5 s" is tested by moving it, not by waiting). A use is noted in
// memory and written in batches: a write per request would cost more than the request.
import type { Deps } from "../../../core/deps.ts";
import { unauthorized } from "../../../core/principal.ts";
import { AppError } from "../../../core/errors.ts";
import { TtlCache } from "../../../infra/cache.ts";
import { API_KEY_PATTERN, findKeyByHash, type KeyRecord, touchLastUsed } from "../api-keys.ts";
import type { TokenResolver } from "../principal.ts";
import { sha256Hex } from "../tokens.ts";

const CACHE_MAX = 50_000;
const LAST_USED_FLUSH_MS = 30_000;

export function apiKeyResolver(deps: Deps) {
  const cache = new TtlCache<KeyRecord | null>(CACHE_MAX, deps.clock.nowMs);
  const lastUsed = new Map<string, Date>();

  async function flushLastUsed() {
    const batch = [...lastUsed];
    lastUsed.clear();
    for (const [id, at] of batch) {
      await touchLastUsed(deps.db, id, at).catch((err) => deps.log.warn("last-used flush failed", { err }));
    }
  }
  const flushTimer = setInterval(flushLastUsed, LAST_USED_FLUSH_MS);
  flushTimer.unref();

  const resolver: TokenResolver = {
    // Any sk_ token is a key's to refuse: a malformed one is 401, not tried as another kind.
    claims: (token) => token.startsWith("sk_"),
    async resolve(key) {
      if (!API_KEY_PATTERN.test(key)) throw unauthorized();
      const hash = sha256Hex(key);
      let cached = cache.get(hash);
      if (!cached) {
        cached = { v: (await findKeyByHash(deps.db, hash)) ?? null };
        cache.set(hash, cached.v);
      }
      const rec = cached.v;
      if (!rec) throw unauthorized();
      if (rec.revokedAt) throw new AppError("API_KEY_REVOKED", "this API key was revoked");
      lastUsed.set(rec.id, deps.clock.now());
      return { userId: rec.userId, scopes: rec.scopes, via: "api_key", keyId: rec.id };
    },
  };

  return {
    ...resolver,
    /** A revoked key's hash: dropped from this node's cache. */
    forget: (hash: string) => cache.delete(hash),
    forgetUser: (userId: string) => cache.deleteWhere((rec) => rec?.userId === userId),
    /** Last use not yet written to the database (shown by the key list meanwhile). */
    pendingLastUsed: (keyId: string) => lastUsed.get(keyId),
    flushLastUsed,
    async close() {
      clearInterval(flushTimer);
      await flushLastUsed();
    },
  };
}
