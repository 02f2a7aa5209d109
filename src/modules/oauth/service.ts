// Grants and their tokens: issuing a token set, refresh rotation with replay detection
// (RFC 9700 section 4.14), revocation (RFC 7009) and the user's list of
// authorized apps. Revoking a grant refuses every token descended from it, on every node.
import { and, eq, isNull, sql } from "drizzle-orm";
import type { Deps } from "../../core/deps.ts";
import { keysetPage } from "../../core/cursor.ts";
import { notFound } from "../../core/errors.ts";
import type { Scope } from "../../core/scopes.ts";
import { broadcast } from "../../infra/broadcast.ts";
import { iso } from "../../infra/clock.ts";
import type { DbOrTx } from "../../infra/db/index.ts";
import { prepared } from "../../infra/db/prepared.ts";
import { newId } from "../../infra/ids.ts";
import { notify } from "../notifications/public.ts";
import { findClient, requestedScopes, shownClient } from "./clients.ts";
import { ACCESS_TOKEN_PATTERN, newAccessToken, newRefreshToken, REFRESH_TOKEN_PATTERN, sha256Hex } from "./codes.ts";
import { invalidGrant, OAuthError } from "./errors.ts";
import { assertSameResource, type Resource } from "./resources.ts";
import { oauthAccessTokens, oauthGrants, oauthRefreshTokens } from "./table.ts";

const ACCESS_TOKEN_TTL_S = 15 * 60;
const REFRESH_TOKEN_TTL_MS = 30 * 86_400_000;
/**
 * A rotated refresh token presented again this soon after its rotation is taken for the
 * loser of two refreshes sent at once (a client retrying, two processes of one app): it
 * gets invalid_grant and the grant stands. Later, it is a replay and the grant is revoked.
 */
const CONCURRENT_REFRESH_MS = 2_000;

/** Grant revocations, announced to every node: the message is the grant's id. */
export const GRANT_REVOCATIONS = "oauth:grant-revocations";

export interface TokenSet {
  access_token: string;
  token_type: "Bearer";
  expires_in: number;
  refresh_token: string;
  scope: string;
}

/** A new access token and refresh token of `grantId` (inside the caller's transaction). */
export async function issueTokenSet(deps: Pick<Deps, "clock">, tx: DbOrTx, grantId: string, scopes: readonly Scope[]): Promise<TokenSet> {
  const now = deps.clock.now();
  const access = newAccessToken();
  const refresh = newRefreshToken();
  await tx.insert(oauthAccessTokens).values({
    id: newId(),
    grantId,
    tokenHash: sha256Hex(access),
    scopes: [...scopes],
    expiresAt: new Date(now.getTime() + ACCESS_TOKEN_TTL_S * 1000),
    createdAt: now,
  });
  await tx
    .insert(oauthRefreshTokens)
    .values({ id: newId(), grantId, tokenHash: sha256Hex(refresh), expiresAt: new Date(now.getTime() + REFRESH_TOKEN_TTL_MS), createdAt: now });
  return { access_token: access, token_type: "Bearer", expires_in: ACCESS_TOKEN_TTL_S, refresh_token: refresh, scope: scopes.join(" ") };
}

/**
 * Records a grant and tells its user, in the same transaction: a new OAuth authorization
 * (an authorization code exchanged) or a device signed in (a device code approved).
 */
export async function createGrant(
  deps: Pick<Deps, "clock" | "config">,
  tx: DbOrTx,
  g: { userId: string; clientId: string; scopes: readonly Scope[]; resource: Resource; via: "authorization_code" | "device" },
) {
  const id = newId();
  const now = deps.clock.now();
  await tx.insert(oauthGrants).values({ id, userId: g.userId, clientId: g.clientId, scopes: [...g.scopes], resource: g.resource, createdAt: now });
  const client = await findClient(deps, tx, g.clientId);
  const payload = { grantId: id, clientId: g.clientId, clientName: client?.name ?? g.clientId, unverified: client?.unverified ?? true, scopes: [...g.scopes] };
  await notify(tx, [{ kind: g.via === "device" ? "device_signed_in" : "oauth_authorized", userId: g.userId, payload }], now);
  return id;
}

/** Marks the grant revoked (if it was not) and tells every node; true when this call revoked it. */
export async function revokeGrant(deps: Pick<Deps, "db" | "kv" | "log" | "clock">, grantId: string, userId?: string): Promise<boolean> {
  const rows = await deps.db
    .update(oauthGrants)
    .set({ revokedAt: deps.clock.now() })
    .where(and(eq(oauthGrants.id, grantId), isNull(oauthGrants.revokedAt), userId ? eq(oauthGrants.userId, userId) : undefined))
    .returning({ id: oauthGrants.id });
  if (!rows.length) return false;
  await broadcast(deps, GRANT_REVOCATIONS, grantId);
  return true;
}

/** A client withdrawn by an administrator: every grant of it is revoked, on every node. */
export async function revokeClientGrants(deps: Pick<Deps, "db" | "kv" | "log" | "clock">, clientId: string): Promise<void> {
  const rows = await deps.db
    .update(oauthGrants)
    .set({ revokedAt: deps.clock.now() })
    .where(and(eq(oauthGrants.clientId, clientId), isNull(oauthGrants.revokedAt)))
    .returning({ id: oauthGrants.id });
  for (const { id } of rows) await broadcast(deps, GRANT_REVOCATIONS, id);
}

type RefreshOutcome = { tokens: TokenSet } | { refused: OAuthError; revoke?: string };

/**
 * The refresh_token grant. The token's row is locked for the decision, so of two
 * refreshes with one token exactly one rotates it; the other then sees it rotated.
 */
export async function refreshGrant(deps: Deps, input: { clientId: string; refreshToken: string; scope?: string; resource?: string }): Promise<TokenSet> {
  if (!REFRESH_TOKEN_PATTERN.test(input.refreshToken)) throw invalidGrant("unknown refresh token");
  const hash = sha256Hex(input.refreshToken);
  const outcome = await deps.db.transaction(async (tx): Promise<RefreshOutcome> => {
    const [row] = await tx
      .select({
        id: oauthRefreshTokens.id,
        grantId: oauthRefreshTokens.grantId,
        expiresAt: oauthRefreshTokens.expiresAt,
        rotatedAt: oauthRefreshTokens.rotatedAt,
        clientId: oauthGrants.clientId,
        scopes: oauthGrants.scopes,
        resource: oauthGrants.resource,
        revokedAt: oauthGrants.revokedAt,
      })
      .from(oauthRefreshTokens)
      .innerJoin(oauthGrants, eq(oauthGrants.id, oauthRefreshTokens.grantId))
      .where(eq(oauthRefreshTokens.tokenHash, hash))
      .for("update", { of: oauthRefreshTokens });
    // Another client's token is refused as unknown: holding it says nothing about who sends it.
    if (!row || row.clientId !== input.clientId) return { refused: invalidGrant("unknown refresh token") };
    if (row.revokedAt) return { refused: invalidGrant("this authorization was revoked") };
    const now = deps.clock.now();
    if (row.rotatedAt) {
      if (now.getTime() - row.rotatedAt.getTime() < CONCURRENT_REFRESH_MS) {
        return { refused: invalidGrant("this refresh token was just rotated by a concurrent request") };
      }
      return {
        refused: new OAuthError("invalid_grant", "this refresh token was already used; the authorization is revoked", 401, "OAUTH_REFRESH_REPLAYED"),
        revoke: row.grantId,
      };
    }
    if (row.expiresAt <= now) return { refused: invalidGrant("the refresh token has expired") };
    const grantScopes = row.scopes as Scope[];
    let scopes: Scope[];
    try {
      assertSameResource(deps.config, input.resource, row.resource);
      scopes = requestedScopes({ scopes: grantScopes }, input.scope);
    } catch (e) {
      return { refused: e as OAuthError };
    }
    await tx.update(oauthRefreshTokens).set({ rotatedAt: now }).where(eq(oauthRefreshTokens.id, row.id));
    const tokens = await issueTokenSet(deps, tx, row.grantId, scopes);
    // The refresh token keeps the whole grant: asking for fewer scopes narrows this access token only.
    return { tokens: { ...tokens, scope: scopes.join(" ") } };
  });
  if ("tokens" in outcome) return outcome.tokens;
  if (outcome.revoke) {
    await revokeGrant(deps, outcome.revoke);
    deps.log.warn("oauth refresh token replayed; grant revoked", { grantId: outcome.revoke });
  }
  throw outcome.refused;
}

/**
 * RFC 7009: revoking an access or a refresh token revokes its whole grant. An unknown
 * token, or one of another client, is answered the same way and changes nothing.
 */
export async function revokeToken(deps: Deps, input: { token: string; clientId?: string }): Promise<void> {
  const table = ACCESS_TOKEN_PATTERN.test(input.token) ? oauthAccessTokens : REFRESH_TOKEN_PATTERN.test(input.token) ? oauthRefreshTokens : undefined;
  if (!table) return;
  const [row] = await deps.db
    .select({ grantId: oauthGrants.id, clientId: oauthGrants.clientId })
    .from(table)
    .innerJoin(oauthGrants, eq(oauthGrants.id, table.grantId))
    .where(eq(table.tokenHash, sha256Hex(input.token)));
  if (!row || (input.clientId !== undefined && row.clientId !== input.clientId)) return;
  await revokeGrant(deps, row.grantId);
}

export interface AccessRecord {
  grantId: string;
  userId: string;
  scopes: Scope[];
  /** The resource the token is for (RFC 8707); null: the API. */
  resource: Resource;
  clientId: string;
  expiresAtMs: number;
}

const accessByHash = (db: DbOrTx) =>
  db
    .select({
      grantId: oauthAccessTokens.grantId,
      userId: oauthGrants.userId,
      scopes: oauthAccessTokens.scopes,
      resource: oauthGrants.resource,
      clientId: oauthGrants.clientId,
      expiresAt: oauthAccessTokens.expiresAt,
    })
    .from(oauthAccessTokens)
    .innerJoin(oauthGrants, eq(oauthGrants.id, oauthAccessTokens.grantId))
    .where(eq(oauthAccessTokens.tokenHash, sql.placeholder("hash")))
    .prepare("oauth_access_by_hash");

/** The access token stored under this hash (of a revoked grant too; liveness is asked apart): read per OAuth request, so prepared. */
export async function findAccessToken(db: DbOrTx, hash: string): Promise<AccessRecord | undefined> {
  const [row] = await prepared(db, "oauth_access_by_hash", accessByHash).execute({ hash });
  return (
    row && {
      grantId: row.grantId,
      userId: row.userId,
      scopes: row.scopes as Scope[],
      resource: row.resource,
      clientId: row.clientId,
      expiresAtMs: row.expiresAt.getTime(),
    }
  );
}

const grantRevokedAt = (db: DbOrTx) =>
  db
    .select({ revokedAt: oauthGrants.revokedAt })
    .from(oauthGrants)
    .where(eq(oauthGrants.id, sql.placeholder("id")))
    .prepare("oauth_grant_revoked_at");

export async function isGrantLive(db: DbOrTx, grantId: string): Promise<boolean> {
  const [row] = await prepared(db, "oauth_grant_revoked_at", grantRevokedAt).execute({ id: grantId });
  return !!row && !row.revokedAt;
}

/** A page of the user's live grants (authorized apps), newest first. */
export async function listGrants(deps: Deps, userId: string, q: { cursor?: string; limit: number }) {
  const page = await keysetPage(
    deps.db,
    {
      from: oauthGrants,
      shape: "live",
      where: () => and(eq(oauthGrants.userId, sql.placeholder("userId")), isNull(oauthGrants.revokedAt)),
      params: { userId },
      sort: ["createdAt", "id"],
      cursor: q.cursor,
      limit: q.limit,
    },
    (r) => ({ id: r.id, clientId: r.clientId, scopes: r.scopes as Scope[], createdAt: iso(r.createdAt) }),
  );
  const clients = new Map<string, { clientName: string; unverified: boolean }>();
  for (const item of page.items) if (!clients.has(item.clientId)) clients.set(item.clientId, await shownClient(deps, item.clientId));
  return { ...page, items: page.items.map((i) => ({ ...i, ...clients.get(i.clientId)! })) };
}

/** The user withdraws an app's authorization: every token of the grant is refused everywhere. */
export async function revokeUserGrant(deps: Deps, userId: string, grantId: string): Promise<void> {
  if (!(await revokeGrant(deps, grantId, userId))) throw notFound("oauth_grant");
}
