// Proving an address by reading mail at it (email-links.ts): a sign-up's, when the operator
// asks for it (SIGNUP_EMAIL_VERIFICATION), and a new address the owner moves the account to.
// Until a sign-up's link is opened its account cannot sign in; an address change takes
// effect only when the link mailed to the new address is opened, and the old address is
// told of it.
import { eq } from "drizzle-orm";
import type { Deps } from "../../core/deps.ts";
import { AppError, rateLimited } from "../../core/errors.ts";
import { countLinkAsk, issueLink, MAX_LINKS_PER_ACCOUNT_HOUR, mayMailLink, spendLink } from "./email-links.ts";
import { users } from "./table.ts";
import type { AfterAnswer, Tell } from "./tell.ts";
import { createUser, getUser, getUserByEmail, hashPassword, type NewAccount, normalizeEmail } from "./users.ts";
import { assertPasswordAcceptable, passwordMatches } from "./password.ts";

/** A sign-up's link and an address change's stay open a day: mail can be slow to arrive. */
export const ADDRESS_LINK_TTL_MS = 24 * 3_600_000;

async function mailVerifyLink(deps: Deps, tx: Parameters<Parameters<Deps["db"]["transaction"]>[0]>[0], user: { id: string; email: string }, tell: Tell) {
  const now = deps.clock.now();
  const token = await issueLink(tx, { userId: user.id, purpose: "email_verify", address: user.email, now, ttlMs: ADDRESS_LINK_TTL_MS });
  const payload = { link: `${deps.config.CENTER_URL}/#/verify-email?token=${token}`, expiresAt: new Date(now.getTime() + ADDRESS_LINK_TTL_MS).toISOString() };
  await tell(tx, [{ kind: "email_verify", userId: user.id, payload }], now);
}

/**
 * A sign-up that must prove its address: the account is made unable to sign in and mailed a
 * link. The instance's first account (its owner, FIRST_USER_ADMIN) is not held back: it is
 * returned for the caller to open its session as any sign-up's. Null for the others.
 */
export async function signupToVerify(deps: Deps, input: { email: string; password: string; nickname?: string }, tell: Tell): Promise<NewAccount | null> {
  assertPasswordAcceptable(input.password);
  const passwordHash = await hashPassword(deps.config, input.password);
  return deps.db.transaction(async (tx) => {
    const user = await createUser(deps, { email: input.email, nickname: input.nickname, passwordHash }, tx);
    if (user.firstAccount) return user;
    await tx.update(users).set({ mustVerifyEmail: true }).where(eq(users.id, user.id));
    await mailVerifyLink(deps, tx, user, tell);
    return null;
  });
}

/**
 * Mails a new sign-up link to an account that still has to prove its address; the same
 * answer, after the same work, for any address (the link is written after the answer, as a
 * password reset's is).
 */
export async function askVerifyLink(deps: Deps, input: { email: string; ip: string }, tell: Tell, afterAnswer: AfterAnswer): Promise<void> {
  const email = normalizeEmail(input.email);
  await countLinkAsk(deps, "email-verify", input.ip);
  afterAnswer("email_verify", async () => {
    const user = await getUserByEmail(deps.db, email);
    if (!user?.mustVerifyEmail || !(await mayMailLink(deps, "email_verify", email))) return;
    await deps.db.transaction((tx) => mailVerifyLink(deps, tx, user, tell));
  });
}

/** Opens a sign-up's link: the account can sign in from now on. 400 RESET_TOKEN_INVALID as any link. */
export async function verifyEmail(deps: Deps, token: string): Promise<void> {
  const now = deps.clock.now();
  await deps.db.transaction(async (tx) => {
    const { userId, address } = await spendLink(tx, token, "email_verify", now);
    // A link for an address the account no longer has proves nothing about the one it has.
    const [user] = await tx.select({ email: users.email }).from(users).where(eq(users.id, userId));
    if (user?.email !== address) throw new AppError("RESET_TOKEN_INVALID", "this link is for an address the account no longer has");
    await tx.update(users).set({ mustVerifyEmail: false, emailVerifiedAt: now, updatedAt: now }).where(eq(users.id, userId));
  });
}

/**
 * Asks to move the account to `newEmail`: the current password again (401 when wrong), 409
 * CONFLICT when another account has the address, 429 past the links of the hour. The link
 * goes to the new address; nothing changes until it is opened.
 */
export async function askEmailChange(deps: Deps, userId: string, input: { newEmail: string; currentPassword: string }, tell: Tell): Promise<void> {
  const user = await getUser(deps.db, userId);
  if (!user) throw new AppError("UNAUTHORIZED", "session ended");
  if (!(await passwordMatches(input.currentPassword, user.passwordHash))) throw new AppError("UNAUTHORIZED", "the current password is wrong");
  const newEmail = normalizeEmail(input.newEmail);
  if (newEmail === user.email) throw new AppError("VALIDATION_ERROR", "this is already the account's address", { field: "body.newEmail" });
  if (await getUserByEmail(deps.db, newEmail)) throw new AppError("CONFLICT", "another account has this address", { field: "newEmail" });
  if (!(await mayMailLink(deps, "email_change", user.email))) {
    throw rateLimited(
      "too many address changes asked this hour; try again later",
      { type: "email_change", limit: MAX_LINKS_PER_ACCOUNT_HOUR },
      { limit: MAX_LINKS_PER_ACCOUNT_HOUR, resetMs: 3_600_000 },
    );
  }
  const now = deps.clock.now();
  await deps.db.transaction(async (tx) => {
    const token = await issueLink(tx, { userId, purpose: "email_change", address: newEmail, now, ttlMs: ADDRESS_LINK_TTL_MS });
    const payload = {
      to: newEmail,
      link: `${deps.config.CENTER_URL}/#/confirm-email?token=${token}`,
      expiresAt: new Date(now.getTime() + ADDRESS_LINK_TTL_MS).toISOString(),
    };
    await tell(tx, [{ kind: "email_change", userId, payload }], now);
  });
}

/** Opens an address change's link: the account's address becomes the new one, and the old one is told. 409 if taken meanwhile. */
export async function confirmEmailChange(deps: Deps, token: string, tell: Tell): Promise<void> {
  const now = deps.clock.now();
  await deps.db.transaction(async (tx) => {
    const { userId, address } = await spendLink(tx, token, "email_change", now);
    const [before] = await tx.select({ email: users.email }).from(users).where(eq(users.id, userId));
    if (!before) throw new AppError("RESET_TOKEN_INVALID", "this link is unknown, already used or expired; ask for a new one");
    const [taken] = await tx.select({ id: users.id }).from(users).where(eq(users.email, address));
    const takenMeanwhile = () => new AppError("CONFLICT", "another account has taken this address meanwhile", { field: "newEmail" });
    if (taken) throw takenMeanwhile();
    // A sign-up with the address may commit between the check and the update: the unique index decides.
    await tx
      .update(users)
      .set({ email: address, emailVerifiedAt: now, mustVerifyEmail: false, updatedAt: now })
      .where(eq(users.id, userId))
      .catch((e) => {
        throw isUniqueViolation(e) ? takenMeanwhile() : e;
      });
    await tell(tx, [{ kind: "email_changed", userId, payload: { to: before.email, newEmail: address } }], now);
  });
}

/** Postgres' unique_violation (23505), as either driver reports it, drizzle's wrapper or not. */
function isUniqueViolation(e: unknown): boolean {
  const code = (x: unknown) => (x as { code?: unknown } | null)?.code;
  return code(e) === "23505" || code((e as { cause?: unknown } | null)?.cause) === "23505";
}
