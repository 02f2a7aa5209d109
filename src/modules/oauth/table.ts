// The OAuth provider's tables: registered clients, device authorizations, grants and the
// tokens of each grant. Codes and tokens are stored as SHA-256 only; revoking a grant
// refuses every access and refresh token descended from it.
import { boolean, index, integer, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { ts } from "../../infra/db/columns.ts";
import { users } from "../identity/table.ts";

/** Third-party clients from registration (RFC 7591); first-party clients live in the config. */
export const oauthClients = pgTable(
  "oauth_clients",
  {
    id: text("id").primaryKey(),
    name: text("name").notNull(),
    redirectUris: text("redirect_uris").array().notNull(),
    grantTypes: text("grant_types").array().notNull(),
    scopes: text("scopes").array().notNull(),
    status: text("status", { enum: ["pending", "approved", "rejected"] }).notNull(),
    createdAt: ts("created_at").notNull(),
    decidedAt: ts("decided_at"),
  },
  (t) => [index("oauth_clients_status_idx").on(t.status, t.createdAt.desc(), t.id.desc())],
);

/** One device flow (RFC 8628): pending until the user decides, consumed when its tokens are issued. */
export const oauthDeviceAuthorizations = pgTable(
  "oauth_device_authorizations",
  {
    id: text("id").primaryKey(),
    deviceCodeHash: text("device_code_hash").notNull(),
    /** Normalized: the 8 characters without the dash. */
    userCode: text("user_code").notNull(),
    clientId: text("client_id").notNull(),
    scopes: text("scopes").array().notNull(),
    /** The protected resource the tokens will be for (RFC 8707); null: the API. */
    resource: text("resource"),
    status: text("status", { enum: ["pending", "approved", "denied", "consumed"] }).notNull(),
    userId: text("user_id").references(() => users.id, { onDelete: "cascade" }),
    /** Seconds a client must wait between polls; slow_down adds 5. */
    intervalS: integer("interval_s").notNull(),
    lastPolledAt: ts("last_polled_at"),
    expiresAt: ts("expires_at").notNull(),
    createdAt: ts("created_at").notNull(),
  },
  (t) => [
    uniqueIndex("oauth_device_code_hash_uq").on(t.deviceCodeHash),
    uniqueIndex("oauth_device_user_code_uq").on(t.userCode),
    index("oauth_device_expiry_idx").on(t.expiresAt),
  ],
);

/** One authorization of a client by a user: the family every token issued from it belongs to. */
export const oauthGrants = pgTable(
  "oauth_grants",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    clientId: text("client_id").notNull(),
    scopes: text("scopes").array().notNull(),
    /**
     * The one protected resource every token of the grant is for (RFC 8707 audience): null
     * for the API at PUBLIC_URL, else MCP_URL. A token is refused anywhere else.
     */
    resource: text("resource"),
    createdAt: ts("created_at").notNull(),
    /** Set by the user, by revocation (RFC 7009), or when a rotated refresh token is replayed. */
    revokedAt: ts("revoked_at"),
  },
  (t) => [index("oauth_grants_user_idx").on(t.userId, t.createdAt.desc(), t.id.desc())],
);

export const oauthAccessTokens = pgTable(
  "oauth_access_tokens",
  {
    id: text("id").primaryKey(),
    grantId: text("grant_id")
      .notNull()
      .references(() => oauthGrants.id, { onDelete: "cascade" }),
    tokenHash: text("token_hash").notNull(),
    /** The grant's scopes, or fewer when a refresh asked for fewer. */
    scopes: text("scopes").array().notNull(),
    expiresAt: ts("expires_at").notNull(),
    createdAt: ts("created_at").notNull(),
  },
  (t) => [
    uniqueIndex("oauth_access_tokens_hash_uq").on(t.tokenHash),
    index("oauth_access_tokens_grant_idx").on(t.grantId),
    index("oauth_access_tokens_expiry_idx").on(t.expiresAt),
  ],
);

/** Using one sets rotated_at and issues its successor; presenting a rotated one is a replay. */
export const oauthRefreshTokens = pgTable(
  "oauth_refresh_tokens",
  {
    id: text("id").primaryKey(),
    grantId: text("grant_id")
      .notNull()
      .references(() => oauthGrants.id, { onDelete: "cascade" }),
    tokenHash: text("token_hash").notNull(),
    expiresAt: ts("expires_at").notNull(),
    rotatedAt: ts("rotated_at"),
    createdAt: ts("created_at").notNull(),
  },
  (t) => [
    uniqueIndex("oauth_refresh_tokens_hash_uq").on(t.tokenHash),
    index("oauth_refresh_tokens_grant_idx").on(t.grantId),
    index("oauth_refresh_tokens_expiry_idx").on(t.expiresAt),
  ],
);

/**
 * One authorization code (RFC 6749 section 4.1, PKCE of RFC 7636): valid 60 s, used once.
 * Its first use records the grant it started, so a second use can revoke that grant.
 */
export const oauthAuthorizationCodes = pgTable(
  "oauth_authorization_codes",
  {
    id: text("id").primaryKey(),
    codeHash: text("code_hash").notNull(),
    clientId: text("client_id").notNull(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    scopes: text("scopes").array().notNull(),
    /** The resource the authorization request named (RFC 8707); null: the API. */
    resource: text("resource"),
    redirectUri: text("redirect_uri").notNull(),
    /** The request named redirect_uri (the token request must then name the same one). */
    redirectUriGiven: boolean("redirect_uri_given").notNull(),
    /** BASE64URL(SHA-256(code_verifier)): S256 is the only method. */
    codeChallenge: text("code_challenge").notNull(),
    expiresAt: ts("expires_at").notNull(),
    createdAt: ts("created_at").notNull(),
    usedAt: ts("used_at"),
    grantId: text("grant_id").references(() => oauthGrants.id, { onDelete: "set null" }),
  },
  (t) => [uniqueIndex("oauth_authorization_codes_hash_uq").on(t.codeHash), index("oauth_authorization_codes_expiry_idx").on(t.expiresAt)],
);
