// API keys: `sk_live_` + 32 URL-safe characters, stored as SHA-256, shown once.
import { and, count, desc, eq, isNull, lt, or } from "drizzle-orm";
import { nanoid } from "nanoid";
import type { Deps } from "../../deps.ts";
import { decodeCursor, toPage } from "../../http/cursor.ts";
import { AppError, notFound, validationError } from "../../http/errors.ts";
import { DEFAULT_KEY_SCOPES, normalizeScopes, type Scope } from "../../http/scopes.ts";
import { iso, isoOrNull } from "../../infra/clock.ts";
import { newId } from "../../infra/ids.ts";
import type { PlanLimits } from "../../plans.ts";
import { users } from "../auth/table.ts";
import { sha256Hex } from "../auth/tokens.ts";
import { apiKeys } from "./table.ts";

export const newApiKey = () => `sk_live_${nanoid(32)}`;

export async function createApiKey(deps: Deps, userId: string, limits: PlanLimits, input: { name: string; scopes?: string[] }) {
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
    // The user's row is the lock: concurrent creates for one user take turns, so the count
    // below always sees the keys of the ones before (READ COMMITTED alone would not).
    const [owner] = await tx.select({ id: users.id }).from(users).where(eq(users.id, userId)).for("update");
    if (!owner) throw notFound("user");
    const [active] = await tx.select({ n: count() }).from(apiKeys).where(and(eq(apiKeys.userId, userId), isNull(apiKeys.revokedAt)));
    if (limits.apiKeyCount >= 0 && active!.n >= limits.apiKeyCount) {
      throw new AppError("QUOTA_EXCEEDED", "API key limit of the plan reached", { type: "api_keys", used: active!.n, limit: limits.apiKeyCount });
    }
    const [r] = await tx
      .insert(apiKeys)
      .values({ id: newId(), userId, name: input.name, keyHash: sha256Hex(key), last4: key.slice(-4), scopes, createdAt: now })
      .returning();
    return r!;
  });
  return { id: row.id, name: row.name, key, last4: row.last4, scopes: row.scopes as Scope[], createdAt: iso(row.createdAt) };
}

export async function listApiKeys(deps: Deps, userId: string, q: { cursor?: string; limit: number }, pendingLastUsed: (id: string) => Date | undefined) {
  let after = undefined;
  if (q.cursor) {
    const [at, id] = decodeCursor(q.cursor, ["d", "s"]);
    after = or(lt(apiKeys.createdAt, at), and(eq(apiKeys.createdAt, at), lt(apiKeys.id, id)));
  }
  const rows = await deps.db
    .select()
    .from(apiKeys)
    .where(and(eq(apiKeys.userId, userId), isNull(apiKeys.revokedAt), after))
    .orderBy(desc(apiKeys.createdAt), desc(apiKeys.id))
    .limit(q.limit + 1);
  return toPage(
    rows,
    q.limit,
    (r) => [iso(r.createdAt), r.id],
    (r) => {
      const pending = pendingLastUsed(r.id);
      const last = pending && (!r.lastUsedAt || pending > r.lastUsedAt) ? pending : r.lastUsedAt;
      return { id: r.id, name: r.name, last4: r.last4, scopes: r.scopes as Scope[], lastUsedAt: isoOrNull(last), createdAt: iso(r.createdAt) };
    },
  );
}

/** Revokes an active key of this user; returns its hash so caches everywhere can drop it. */
export async function revokeApiKey(deps: Deps, userId: string, id: string): Promise<string> {
  const [row] = await deps.db
    .update(apiKeys)
    .set({ revokedAt: deps.clock.now() })
    .where(and(eq(apiKeys.id, id), eq(apiKeys.userId, userId), isNull(apiKeys.revokedAt)))
    .returning({ keyHash: apiKeys.keyHash });
  if (!row) throw notFound("api_key");
  return row.keyHash;
}
