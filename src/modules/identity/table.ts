// Identity's tables: accounts, their sessions and refresh tokens, and their API keys.
// Other modules reach these rows through public.ts; a table elsewhere may reference users.id.
import { bigint, boolean, index, integer, jsonb, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { ts } from "../../infra/db/columns.ts";
import type { StoredChoices } from "./notification-settings.ts";
import { PLAN_NAMES } from "../../core/plans.ts";

export const users = pgTable(
  "users",
  {
    id: text("id").primaryKey(),
    /** Stored lower-cased; unique. */
    email: text("email").notNull(),
    /** Null for an account made by a sign-in through an OpenID provider, until it sets a password (a reset link). */
    passwordHash: text("password_hash"),
    nickname: text("nickname"),
    plan: text("plan", { enum: PLAN_NAMES }).notNull().default("trial"),
    planExpiresAt: ts("plan_expires_at"),
    isAdmin: boolean("is_admin").notNull().default(false),
    docVersioningEnabled: boolean("doc_versioning_enabled").notNull().default(false),
    docVersioningMax: integer("doc_versioning_max").notNull().default(20),
    /** The 80% quota e-mails are optional; the 100% and video bandwidth ones are not. */
    quotaWarnings: boolean("quota_warnings").notNull().default(true),
    /** Per notification kind, what the user changed from the defaults (notification-settings.ts). */
    notificationSettings: jsonb("notification_settings").$type<StoredChoices>().notNull().default({}),
    /** When the owner proved they read mail at `email` (a link of theirs opened); null if never. */
    emailVerifiedAt: ts("email_verified_at"),
    /** Made by a sign-up while SIGNUP_EMAIL_VERIFICATION was on and not verified yet: it cannot sign in. */
    mustVerifyEmail: boolean("must_verify_email").notNull().default(false),
    /** The TOTP secret in force, sealed (two-factor.ts); null while two factors are off. */
    totpSecret: text("totp_secret"),
    /** A secret enrolled but not confirmed with a code yet, sealed; it signs nothing in. */
    totpPendingSecret: text("totp_pending_secret"),
    /** The last time step a code was accepted for: a code of it or an earlier step is refused (replay). */
    totpLastStep: integer("totp_last_step"),
    /** The SHA-256 of each unused recovery code; one is removed as it is used. */
    recoveryCodes: text("recovery_codes").array().notNull().default([]),
    createdAt: ts("created_at").notNull(),
    updatedAt: ts("updated_at").notNull(),
  },
  (t) => [uniqueIndex("users_email_uq").on(t.email), index("users_created_idx").on(t.createdAt.desc(), t.id.desc())],
);

/** One login: its access tokens carry the session id, its refresh tokens rotate within it. */
export const sessions = pgTable(
  "sessions",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    createdAt: ts("created_at").notNull(),
    /** Set by logout, or when a rotated refresh token is presented again. */
    revokedAt: ts("revoked_at"),
    /** The User-Agent of the sign-in, so its owner can tell one device from another. */
    userAgent: text("user_agent"),
    /** The client address of the sign-in, then of each refresh. */
    address: text("address"),
    /** The sign-in, then each refresh: an access token lives minutes, so this is the device's last use to within them. */
    lastUsedAt: ts("last_used_at"),
  },
  (t) => [index("sessions_user_idx").on(t.userId, t.createdAt.desc(), t.id.desc())],
);

/** Only the SHA-256 of a refresh token is stored. Using one sets rotated_at and issues the next. */
export const refreshTokens = pgTable(
  "refresh_tokens",
  {
    id: text("id").primaryKey(),
    sessionId: text("session_id")
      .notNull()
      .references(() => sessions.id, { onDelete: "cascade" }),
    tokenHash: text("token_hash").notNull(),
    expiresAt: ts("expires_at").notNull(),
    rotatedAt: ts("rotated_at"),
    createdAt: ts("created_at").notNull(),
  },
  (t) => [
    uniqueIndex("refresh_tokens_hash_uq").on(t.tokenHash),
    index("refresh_tokens_session_idx").on(t.sessionId),
    index("refresh_tokens_expiry_idx").on(t.expiresAt),
  ],
);

/** Only the SHA-256 of a key is stored; the key itself is shown once and never again. */
export const apiKeys = pgTable(
  "api_keys",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    keyHash: text("key_hash").notNull(),
    last4: text("last4").notNull(),
    scopes: text("scopes").array().notNull(),
    lastUsedAt: ts("last_used_at"),
    revokedAt: ts("revoked_at"),
    createdAt: ts("created_at").notNull(),
  },
  (t) => [uniqueIndex("api_keys_hash_uq").on(t.keyHash), index("api_keys_user_idx").on(t.userId, t.createdAt.desc(), t.id.desc())],
);

/**
 * A link mailed to prove something by reading mail: a password reset, a new address, a
 * sign-up's address. Only the SHA-256 of its token is stored; the token goes out once, in
 * the mail. Used at most once, before it expires; `address` is where it was sent (for an
 * e-mail change, the new address the link confirms).
 */
export const emailLinks = pgTable(
  "email_links",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    purpose: text("purpose", { enum: ["password_reset", "email_change", "email_verify"] }).notNull(),
    tokenHash: text("token_hash").notNull(),
    address: text("address").notNull(),
    createdAt: ts("created_at").notNull(),
    expiresAt: ts("expires_at").notNull(),
    usedAt: ts("used_at"),
  },
  (t) => [uniqueIndex("email_links_token_uq").on(t.tokenHash), index("email_links_user_idx").on(t.userId, t.purpose)],
);

/**
 * A passkey (a WebAuthn credential) of an account: it signs in without the password, or is
 * the second step after it (passkeys.ts). Its public key and signature counter are kept; the
 * private key never leaves the authenticator.
 */
export const passkeys = pgTable(
  "passkeys",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** The credential id the authenticator gave, base64url; unique on the server. */
    credentialId: text("credential_id").notNull(),
    /** The COSE public key, base64url. */
    publicKey: text("public_key").notNull(),
    /** The highest signature counter seen: an assertion with a counter not above it (when either is non-zero) is a cloned authenticator's. */
    counter: bigint("counter", { mode: "number" }).notNull().default(0),
    transports: text("transports").array().notNull().default([]),
    /** singleDevice or multiDevice (synced between the owner's devices). */
    deviceType: text("device_type", { enum: ["singleDevice", "multiDevice"] }).notNull(),
    backedUp: boolean("backed_up").notNull().default(false),
    name: text("name").notNull(),
    createdAt: ts("created_at").notNull(),
    lastUsedAt: ts("last_used_at"),
  },
  (t) => [uniqueIndex("passkeys_credential_uq").on(t.credentialId), index("passkeys_user_idx").on(t.userId, t.createdAt.desc(), t.id.desc())],
);
