// Resetting a forgotten password by e-mail. Asking answers the same whether the address has
// an account or not; an account's owner is mailed a link (email-links.ts) that works once,
// within an hour: it sets the new password, ends every session of the account on every
// node, and tells the owner (password_changed).
import { eq } from "drizzle-orm";
import type { Deps } from "../../core/deps.ts";
import { countLinkAsk, issueLink, mayMailLink, spendLink } from "./email-links.ts";
import { assertPasswordAcceptable } from "./password.ts";
import { announceRevoked } from "./revocations.ts";
import { endOtherSessions } from "./sessions.ts";
import { users } from "./table.ts";
import type { AfterAnswer, Tell } from "./tell.ts";
import { getUserByEmail, hashPassword, normalizeEmail } from "./users.ts";

export const RESET_TTL_MS = 3_600_000;

/**
 * Counts the ask (429 past the address's asks), then mails a reset link to the account with
 * this address, if there is one and it may have another this hour, after the answer: the
 * answer waits on the same work for every address, so its time tells no more than its words.
 */
export async function askPasswordReset(deps: Deps, input: { email: string; ip: string }, tell: Tell, afterAnswer: AfterAnswer): Promise<void> {
  const email = normalizeEmail(input.email);
  await countLinkAsk(deps, "password-reset", input.ip);
  afterAnswer("password_reset", () => mailResetLink(deps, email, tell));
}

async function mailResetLink(deps: Deps, email: string, tell: Tell): Promise<void> {
  const user = await getUserByEmail(deps.db, email);
  if (!user || !(await mayMailLink(deps, "password_reset", email))) return;
  const now = deps.clock.now();
  await deps.db.transaction(async (tx) => {
    const token = await issueLink(tx, { userId: user.id, purpose: "password_reset", address: email, now, ttlMs: RESET_TTL_MS });
    const payload = { link: `${deps.config.CENTER_URL}/#/reset-password?token=${token}`, expiresAt: new Date(now.getTime() + RESET_TTL_MS).toISOString() };
    await tell(tx, [{ kind: "password_reset", userId: user.id, payload }], now);
  });
}

/**
 * Sets the new password with a reset link's token: 400 RESET_TOKEN_INVALID for a token
 * unknown, used or expired; 422 for a password the rules refuse (the token stays usable).
 * Every session of the account ends, and every other link it was mailed stops working.
 * Opening the link proves the address too.
 */
export async function resetPassword(deps: Deps, input: { token: string; newPassword: string }, tell: Tell): Promise<void> {
  assertPasswordAcceptable(input.newPassword, "body.newPassword");
  const now = deps.clock.now();
  const passwordHash = await hashPassword(deps.config, input.newPassword);
  const ended = await deps.db.transaction(async (tx) => {
    const { userId } = await spendLink(tx, input.token, "password_reset", now);
    await tx.update(users).set({ passwordHash, emailVerifiedAt: now, mustVerifyEmail: false, updatedAt: now }).where(eq(users.id, userId));
    await tell(tx, [{ kind: "password_changed", userId, payload: {} }], now);
    return endOtherSessions(tx, userId, undefined, now);
  });
  for (const id of ended) await announceRevoked(deps, "session", id);
}
