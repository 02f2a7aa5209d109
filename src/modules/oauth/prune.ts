// Keeps the provider's tables bounded: device authorizations, tokens and grants are kept
// until a while after they stopped mattering, then deleted (the caller gives the cut-off).
import { and, eq, gt, isNotNull, lt, notExists, or } from "drizzle-orm";
import type { DbOrTx } from "../../infra/db/index.ts";
import { oauthAccessTokens, oauthAuthorizationCodes, oauthDeviceAuthorizations, oauthGrants, oauthRefreshTokens } from "./table.ts";

/**
 * Deletes what expired before `before`: device authorizations (freeing their user codes),
 * authorization codes (a used one presented again by then no longer revokes its grant),
 * access and refresh tokens, and grants revoked before it or left without a refresh token
 * that outlives it (their tokens go with them).
 */
export async function pruneOAuth(db: DbOrTx, before: Date) {
  const devices = await db
    .delete(oauthDeviceAuthorizations)
    .where(lt(oauthDeviceAuthorizations.expiresAt, before))
    .returning({ id: oauthDeviceAuthorizations.id });
  const codes = await db.delete(oauthAuthorizationCodes).where(lt(oauthAuthorizationCodes.expiresAt, before)).returning({ id: oauthAuthorizationCodes.id });
  const access = await db.delete(oauthAccessTokens).where(lt(oauthAccessTokens.expiresAt, before)).returning({ id: oauthAccessTokens.id });
  const refresh = await db.delete(oauthRefreshTokens).where(lt(oauthRefreshTokens.expiresAt, before)).returning({ id: oauthRefreshTokens.id });
  const live = db
    .select({ id: oauthRefreshTokens.id })
    .from(oauthRefreshTokens)
    .where(and(eq(oauthRefreshTokens.grantId, oauthGrants.id), gt(oauthRefreshTokens.expiresAt, before)));
  const grants = await db
    .delete(oauthGrants)
    .where(or(and(isNotNull(oauthGrants.revokedAt), lt(oauthGrants.revokedAt, before)), and(lt(oauthGrants.createdAt, before), notExists(live))))
    .returning({ id: oauthGrants.id });
  return {
    deviceAuthorizations: devices.length,
    authorizationCodes: codes.length,
    accessTokens: access.length,
    refreshTokens: refresh.length,
    grants: grants.length,
  };
}
