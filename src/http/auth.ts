// Who is calling: the Bearer header resolves to a principal { userId, scopes, via }.
// API keys are looked up by hash and cached per process for at most 5 s; revocations are
// also published so every node drops them at once. Sessions (JWT) are checked the same way.
import { eq, sql } from "drizzle-orm";
import type { Deps } from "../deps.ts";
import { apiKeys } from "../modules/api-keys/table.ts";
import { sessions } from "../modules/auth/table.ts";
import { sha256Hex, type TokenSigner } from "../modules/auth/tokens.ts";
import { broadcast, listen } from "../infra/broadcast.ts";
import { TtlCache } from "../infra/cache.ts";
import { AppError } from "./errors.ts";
import { SCOPES, type Scope } from "./scopes.ts";

export interface Principal {
  userId: string;
  scopes: readonly Scope[];
  via: "api_key" | "jwt" | "oauth";
  keyId?: string;
  sessionId?: string;
}

const CACHE_MAX = 50_000;
const LAST_USED_FLUSH_MS = 30_000;
const REVOCATIONS = "auth:revocations";

export const API_KEY_PATTERN = /^sk_live_[A-Za-z0-9_-]{32}$/;
const BEARER = /^Bearer ([A-Za-z0-9._~+/-]+=*)$/;
const JWT_SHAPE = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/;

const unauthorized = (message = "missing or invalid credentials") =>
  new AppError("UNAUTHORIZED", message, {}, { "www-authenticate": 'Bearer realm="shelf"' });

type KeyRecord = { id: string; userId: string; scopes: string[]; revokedAt: Date | null } | null;

export function createAuthenticator(deps: Deps, signer: TokenSigner) {
  // On the injectable clock: "refused within 5 s" is tested by moving it, not by waiting.
  const keyCache = new TtlCache<KeyRecord>(CACHE_MAX, deps.clock.nowMs);
  const sessionCache = new TtlCache<boolean>(CACHE_MAX, deps.clock.nowMs);
  const lastUsed = new Map<string, Date>();
  const keyByHash = deps.db
    .select({ id: apiKeys.id, userId: apiKeys.userId, scopes: apiKeys.scopes, revokedAt: apiKeys.revokedAt })
    .from(apiKeys)
    .where(eq(apiKeys.keyHash, sql.placeholder("hash")))
    .prepare("api_key_by_hash");
  const sessionById = deps.db
    .select({ revokedAt: sessions.revokedAt })
    .from(sessions)
    .where(eq(sessions.id, sql.placeholder("id")))
    .prepare("session_by_id");

  const revocations = listen(deps, REVOCATIONS, (message) => {
    const [kind, id] = message.split(":");
    if (kind === "key" && id) keyCache.delete(id);
    if (kind === "session" && id) sessionCache.delete(id);
  });

  async function fromApiKey(key: string): Promise<Principal> {
    if (!API_KEY_PATTERN.test(key)) throw unauthorized();
    const hash = sha256Hex(key);
    let cached = keyCache.get(hash);
    if (!cached) {
      const [row] = await keyByHash.execute({ hash });
      cached = { v: row ?? null };
      keyCache.set(hash, cached.v);
    }
    const rec = cached.v;
    if (!rec) throw unauthorized();
    if (rec.revokedAt) throw new AppError("API_KEY_REVOKED", "this API key was revoked");
    lastUsed.set(rec.id, deps.clock.now());
    return { userId: rec.userId, scopes: rec.scopes as Scope[], via: "api_key", keyId: rec.id };
  }

  async function fromJwt(token: string): Promise<Principal> {
    const claims = await signer.verify(token);
    let live = sessionCache.get(claims.sessionId);
    if (!live) {
      const [row] = await sessionById.execute({ id: claims.sessionId });
      live = { v: !!row && !row.revokedAt };
      sessionCache.set(claims.sessionId, live.v);
    }
    if (!live.v) throw unauthorized("session ended");
    return { userId: claims.userId, scopes: SCOPES, via: "jwt", sessionId: claims.sessionId };
  }

  async function flushLastUsed() {
    const batch = [...lastUsed];
    lastUsed.clear();
    for (const [id, at] of batch) {
      await deps.db
        .update(apiKeys)
        .set({ lastUsedAt: sql`greatest(${apiKeys.lastUsedAt}, ${at.toISOString()}::timestamptz)` })
        .where(eq(apiKeys.id, id))
        .catch((err) => deps.log.warn("last-used flush failed", { err }));
    }
  }
  const flushTimer = setInterval(flushLastUsed, LAST_USED_FLUSH_MS);
  flushTimer.unref();

  return {
    /** Resolves the Authorization header; 401 for anything but a valid `Bearer <token>`. */
    async authenticate(header: string | null | undefined): Promise<Principal> {
      if (!header) throw unauthorized("missing Authorization header");
      if (header.length > 4096) throw unauthorized();
      const m = BEARER.exec(header);
      if (!m) throw unauthorized("the Authorization header must be exactly `Bearer <token>`");
      const token = m[1]!;
      if (token.startsWith("sk_")) return fromApiKey(token);
      if (JWT_SHAPE.test(token)) return fromJwt(token);
      throw unauthorized();
    },
    revokeKeyHash: (hash: string) => broadcast(deps, REVOCATIONS, `key:${hash}`),
    revokeSession: (id: string) => broadcast(deps, REVOCATIONS, `session:${id}`),
    /** Last use not yet written to the database (shown by the key list meanwhile). */
    pendingLastUsed: (keyId: string) => lastUsed.get(keyId),
    flushLastUsed,
    async close() {
      clearInterval(flushTimer);
      await flushLastUsed();
      await revocations.close();
    },
  };
}
export type Authenticator = ReturnType<typeof createAuthenticator>;
