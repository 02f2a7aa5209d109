// API keys: `sk_live_` + 32 URL-safe characters, stored as SHA-256, shown once.
import { and, count, eq, isNull, sql } from "drizzle-orm";
import { nanoid } from "nanoid";
import type { Deps } from "../../core/deps.ts";
import { keysetPage, type KeysetQuery } from "../../core/cursor.ts";
import { AppError, notFound, validationError } from "../../core/errors.ts";
import { isScope, SCOPES, type Scope } from "../../core/scopes.ts";
import { iso, isoOrNull } from "../../infra/clock.ts";
import type { DbOrTx } from "../../infra/db/index.ts";
import { prepared } from "../../infra/db/prepared.ts";
import { newId } from "../../infra/ids.ts";
import type { PlanLimits } from "../../core/plans.ts";
import { announceRevoked } from "./revocations.ts";
import { apiKeys } from "./table.ts";
import type { Tell } from "./tell.ts";
import { sha256Hex } from "./tokens.ts";
import { lockUser } from "./users.ts";

const newApiKey = () => `sk_live_${nanoid(32)}`;
export const API_KEY_PATTERN = /^sk_live_[A-Za-z0-9_-]{32}$/;

/** A new key gets every *.read and *.write scope, not media.delete. */
export const DEFAULT_KEY_SCOPES: readonly Scope[] = SCOPES.filter((s) => s !== "media.delete");

const READ: Scope[] = ["media.read", "kb.read", "account.read", "usage.read"];
/** Keys made before scopes existed carry one of three tiers, expanded here. */
const LEGACY_TIERS: Readonly<Record<string, readonly Scope[]>> = {
  read: READ,
  read_write: [...READ, "media.write", "kb.write"],
  read_write_delete: [...READ, "media.write", "kb.write", "media.delete"],
};

/** Expands legacy tiers and de-duplicates, in SCOPES order; returns the unknown names too. */
function normalizeScopes(requested: readonly string[]): { scopes: Scope[]; unknown: string[] } {
  const set = new Set<Scope>();
  const unknown: string[] = [];
  for (const name of requested) {
    if (isScope(name)) set.add(name);
    else if (LEGACY_TIERS[name]) for (const s of LEGACY_TIERS[name]) set.add(s);
    else unknown.push(name);
  }
  return { scopes: SCOPES.filter((s) => set.has(s)), unknown };
}

export async function createApiKey(deps: Deps, userId: string, limits: PlanLimits, input: { name: string; scopes?: string[] }, tell?: Tell) {
  let scopes: Scope[] = [...DEFAULT_KEY_SCOPES];
  if (input.scopes) {
    const n = normalizeScopes(input.scopes);
    if (n.unknown.length) throw validationError("body.scopes", `unknown scopes: ${n.unknown.join(", ")}`);
    if (!n.scopes.length) throw validationError("body.scopes", "at least one scope is needed");
    scopes = n.scopes;
  }
  const key = newApiKey();
  const now = deps.clock.now();
  const row = await deps.db.transaction(async (tx) => {
    // Concurrent creates for one user take turns, so the count below sees the keys of the ones before.
    await lockUser(tx, userId);
    const [active] = await tx
      .select({ n: count() })
      .from(apiKeys)
      .where(and(eq(apiKeys.userId, userId), isNull(apiKeys.revokedAt)));
    if (limits.apiKeyCount >= 0 && active!.n >= limits.apiKeyCount) {
      throw new AppError("QUOTA_EXCEEDED", "API key limit of the plan reached", { type: "api_keys", used: active!.n, limit: limits.apiKeyCount });
    }
    const [r] = await tx
      .insert(apiKeys)
      .values({ id: newId(), userId, name: input.name, keyHash: sha256Hex(key), last4: key.slice(-4), scopes, createdAt: now })
      .returning();
    await tell?.(tx, [{ kind: "api_key_created", userId, payload: { keyId: r!.id, name: r!.name, last4: r!.last4, scopes } }], now);
    return r!;
  });
  return { id: row.id, name: row.name, key, last4: row.last4, scopes: row.scopes as Scope[], createdAt: iso(row.createdAt) };
}

const activeKeys = () => and(eq(apiKeys.userId, sql.placeholder("userId")), isNull(apiKeys.revokedAt));

/** The keyset query of a page of a user's active keys. */
export function apiKeyListQuery(userId: string, q: { cursor?: string; limit: number }): KeysetQuery<typeof apiKeys> {
  return { from: apiKeys, shape: "active", where: activeKeys, params: { userId }, sort: ["createdAt", "id"], cursor: q.cursor, limit: q.limit };
}

export function listApiKeys(deps: Deps, userId: string, q: { cursor?: string; limit: number }, pendingLastUsed: (id: string) => Date | undefined) {
  return keysetPage(deps.db, apiKeyListQuery(userId, q), (r) => {
    const pending = pendingLastUsed(r.id);
    const last = pending && (!r.lastUsedAt || pending > r.lastUsedAt) ? pending : r.lastUsedAt;
    return { id: r.id, name: r.name, last4: r.last4, scopes: r.scopes as Scope[], lastUsedAt: isoOrNull(last), createdAt: iso(r.createdAt) };
  });
}

/** Revokes an active key of this user; every node's cache drops it at once. */
export async function revokeApiKey(deps: Deps, userId: string, id: string, tell?: Tell): Promise<void> {
  const now = deps.clock.now();
  const row = await deps.db.transaction(async (tx) => {
    const [r] = await tx
      .update(apiKeys)
      .set({ revokedAt: now })
      .where(and(eq(apiKeys.id, id), eq(apiKeys.userId, userId), isNull(apiKeys.revokedAt)))
      .returning({ keyHash: apiKeys.keyHash, name: apiKeys.name, last4: apiKeys.last4 });
    if (r) await tell?.(tx, [{ kind: "api_key_revoked", userId, payload: { keyId: id, name: r.name, last4: r.last4 } }], now);
    return r;
  });
  if (!row) throw notFound("api_key");
  await announceRevoked(deps, "key", row.keyHash);
}

export type KeyRecord = { id: string; userId: string; scopes: Scope[]; revokedAt: Date | null };

const keyByHash = (db: DbOrTx) =>
  db
    .select({ id: apiKeys.id, userId: apiKeys.userId, scopes: apiKeys.scopes, revokedAt: apiKeys.revokedAt })
    .from(apiKeys)
    .where(eq(apiKeys.keyHash, sql.placeholder("hash")))
    .prepare("api_key_by_hash");

/** The key stored under this SHA-256 (revoked ones too): read on every API-key request, so prepared. */
export async function findKeyByHash(db: DbOrTx, hash: string): Promise<KeyRecord | undefined> {
  const [row] = await prepared(db, "api_key_by_hash", keyByHash).execute({ hash });
  return row && { ...row, scopes: row.scopes as Scope[] };
}

/** Moves last_used_at forward to `at`, never back (nodes write their batches in any order). */
export async function touchLastUsed(db: DbOrTx, id: string, at: Date): Promise<void> {
  await db
    .update(apiKeys)
    .set({ lastUsedAt: sql`greatest(${apiKeys.lastUsedAt}, ${at.toISOString()}::timestamptz)` })
    .where(eq(apiKeys.id, id));
}
