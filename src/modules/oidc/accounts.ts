// Which account a provider's identity signs in to, and the owner's list of linked identities.
// The rules (docs/security.md, "Signing in through an OpenID provider"):
// 1. an identity (issuer and subject) already linked signs in to its account;
// 2. else an account with the same address is linked, only when the provider says the
//    address is verified (email_verified true), and never an account still waiting for its
//    own address to be confirmed (its password was chosen by whoever signed up);
// 3. else, with OIDC_SIGNUP on and a verified address, a new account without a password;
// 4. else the sign-in is refused, and nothing is stored.
import { and, eq, sql } from "drizzle-orm";
import type { Deps } from "../../core/deps.ts";
import { AppError, notFound } from "../../core/errors.ts";
import { keysetPage } from "../../core/cursor.ts";
import { iso, isoOrNull } from "../../infra/clock.ts";
import { newId } from "../../infra/ids.ts";
import { createUser, getUser, getUserByEmail, lockUser, type User } from "../identity/public.ts";
import type { ProviderClaims } from "./provider.ts";
import { oidcIdentities } from "./table.ts";

const refused = (reason: string, message: string) => new AppError("FORBIDDEN", message, { reason });

/**
 * The account `claims` sign in to, linking or making it as the rules say; `assertSignupAllowed`
 * is asked before an account is made (the sign-up limits of the address). 403 FORBIDDEN
 * (meta.reason) when the rules refuse.
 */
export async function accountFor(
  deps: Deps,
  claims: ProviderClaims,
  assertSignupAllowed: () => Promise<void>,
): Promise<{ user: User; outcome: "signed_in" | "linked" | "created" }> {
  const now = deps.clock.now();
  const [linked] = await deps.db
    .select({ id: oidcIdentities.id, userId: oidcIdentities.userId })
    .from(oidcIdentities)
    .where(and(eq(oidcIdentities.issuer, claims.issuer), eq(oidcIdentities.subject, claims.subject)));
  if (linked) {
    const user = await getUser(deps.db, linked.userId);
    if (user) {
      await deps.db.update(oidcIdentities).set({ lastUsedAt: now }).where(eq(oidcIdentities.id, linked.id));
      return { user, outcome: "signed_in" };
    }
  }
  if (!claims.email)
    throw refused("no_email", "the provider did not give an e-mail address; ask its administrator to share it with this app (the email scope)");
  const existing = await getUserByEmail(deps.db, claims.email);
  if (existing) {
    if (!claims.emailVerified) {
      throw refused(
        "email_unverified",
        "an account here has this address, and the provider does not say the address is verified: sign in with your password, or verify the address at the provider first",
      );
    }
    if (existing.mustVerifyEmail) {
      throw refused("account_unconfirmed", "the account with this address has not confirmed its address yet: open the link mailed to it first");
    }
    await link(deps, existing.id, claims, now);
    return { user: existing, outcome: "linked" };
  }
  if (!deps.config.OIDC_SIGNUP)
    throw refused("signup_closed", "no account here has this address, and new accounts cannot be made by signing in through the provider");
  if (!claims.emailVerified) throw refused("email_unverified", "the provider does not say this address is verified, so no account is made for it");
  await assertSignupAllowed();
  const user = await deps.db.transaction(async (tx) => {
    const made = await createUser(deps, { email: claims.email!, nickname: claims.name, passwordHash: null, emailVerified: true }, tx);
    await link(deps, made.id, claims, now, tx);
    return made;
  });
  return { user, outcome: "created" };
}

async function link(deps: Deps, userId: string, claims: ProviderClaims, now: Date, db: Deps["db"] = deps.db) {
  // Two callbacks of one identity at once: the unique index keeps one link.
  await db
    .insert(oidcIdentities)
    .values({ id: newId(), userId, issuer: claims.issuer, subject: claims.subject, email: claims.email, createdAt: now, lastUsedAt: now })
    .onConflictDoNothing();
}

const ofUser = () => eq(oidcIdentities.userId, sql.placeholder("userId"));

/** The account's linked identities, newest first. */
export function listIdentities(deps: Deps, userId: string, q: { cursor?: string; limit: number }) {
  return keysetPage(
    deps.db,
    { from: oidcIdentities, shape: "mine", where: ofUser, params: { userId }, sort: ["createdAt", "id"], cursor: q.cursor, limit: q.limit },
    (r) => ({ id: r.id, issuer: r.issuer, subject: r.subject, email: r.email, createdAt: iso(r.createdAt), lastUsedAt: isoOrNull(r.lastUsedAt) }),
  );
}

/**
 * Unlinks one identity of the account: 404 for any other; 409 CONFLICT when it is the
 * account's last way to sign in (no password and no other identity).
 */
export async function unlinkIdentity(deps: Deps, userId: string, id: string): Promise<void> {
  await deps.db.transaction(async (tx) => {
    // Two unlinks at once take turns, so they cannot each leave the other as the last.
    await lockUser(tx, userId);
    const mine = await tx.select({ id: oidcIdentities.id }).from(oidcIdentities).where(eq(oidcIdentities.userId, userId));
    if (!mine.some((r) => r.id === id)) throw notFound("identity");
    const user = await getUser(tx, userId);
    if (!user?.passwordHash && mine.length === 1) {
      throw new AppError("CONFLICT", "this is the account's only way to sign in: set a password first (Forgot your password? mails a link to choose one)", {
        reason: "last_sign_in",
      });
    }
    await tx.delete(oidcIdentities).where(and(eq(oidcIdentities.id, id), eq(oidcIdentities.userId, userId)));
  });
}
