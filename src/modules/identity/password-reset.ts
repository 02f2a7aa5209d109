// Resetting a forgotten password by e-mail. Asking answers the same whether the address has
// an account or not; an account's owner is mailed a link holding a random token, of which
// only the SHA-256 is stored. The link works once, within an hour: it sets the new password,
// ends every session of the account on every node, and tells the owner (password_changed).
import { randomBytes } from "node:crypto";
import { and, eq, gt, isNull } from "drizzle-orm";
import type { Deps } from "../../core/deps.ts";
import { AppError, rateLimited } from "../../core/errors.ts";
import { newId } from "../../infra/ids.ts";
import { assertPasswordAcceptable } from "./password.ts";
import { announceRevoked } from "./revocations.ts";
import { endOtherSessions } from "./sessions.ts";
import { passwordResets, users } from "./table.ts";
import type { Tell } from "./tell.ts";
import { sha256Hex } from "./tokens.ts";
import { getUserByEmail, hashPassword, normalizeEmail } from "./users.ts";

export const RESET_TTL_MS = 3_600_000;
const WINDOW_MS = 3_600_000;
/** Asks per address an hour: past it, 429 (it says nothing about any account). */
export const MAX_RESET_ASKS_PER_IP_HOUR = 20;
/** Links mailed per account an hour: past it, asking still answers 202 and mails nothing. */
export const MAX_RESET_MAILS_PER_ACCOUNT_HOUR = 3;

const invalid = () => new AppError("RESET_TOKEN_INVALID", "this reset link is unknown, already used or expired; ask for a new one");

/**
 * Mails a reset link to the account with this address, if there is one and it has not had
 * MAX_RESET_MAILS_PER_ACCOUNT_HOUR this hour. 429 past the address's asks; 503 when they
 * cannot be counted.
 */
export async function askPasswordReset(deps: Deps, input: { email: string; ip: string }, tell: Tell): Promise<void> {
  const count = async (key: string) => {
    try {
      return await deps.kv.incr(key, 1, WINDOW_MS);
    } catch {
      throw new AppError("SERVICE_UNAVAILABLE", "password reset is briefly unavailable; try again shortly", {}, { "retry-after": "30" });
    }
  };
  if ((await count(`reset:ip:${input.ip}`)) > MAX_RESET_ASKS_PER_IP_HOUR) {
    throw rateLimited(
      "too many password reset requests from this address",
      { type: "password_resets", limit: MAX_RESET_ASKS_PER_IP_HOUR },
      { limit: MAX_RESET_ASKS_PER_IP_HOUR, resetMs: WINDOW_MS },
    );
  }
  const email = normalizeEmail(input.email);
  const user = await getUserByEmail(deps.db, email);
  if (!user) return;
  if ((await count(`reset:account:${sha256Hex(email)}`)) > MAX_RESET_MAILS_PER_ACCOUNT_HOUR) return;
  const token = randomBytes(32).toString("base64url");
  const now = deps.clock.now();
  const expiresAt = new Date(now.getTime() + RESET_TTL_MS);
  const link = `${deps.config.CENTER_URL}/#/reset-password?token=${token}`;
  await deps.db.transaction(async (tx) => {
    await tx.insert(passwordResets).values({ id: newId(), userId: user.id, tokenHash: sha256Hex(token), createdAt: now, expiresAt });
    await tell(tx, [{ kind: "password_reset", userId: user.id, payload: { link, expiresAt: expiresAt.toISOString() } }], now);
  });
}

/**
 * Sets the new password with a reset link's token: 400 RESET_TOKEN_INVALID for a token
 * unknown, used or expired; 422 for a password the rules refuse (the token stays usable).
 * Every session of the account ends, and every other link it was mailed stops working.
 */
export async function resetPassword(deps: Deps, input: { token: string; newPassword: string }, tell: Tell): Promise<void> {
  assertPasswordAcceptable(input.newPassword, "body.newPassword");
  const now = deps.clock.now();
  const passwordHash = await hashPassword(deps.config, input.newPassword);
  const ended = await deps.db.transaction(async (tx) => {
    // The conditional update decides: of two uses of one link, one wins.
    const [used] = await tx
      .update(passwordResets)
      .set({ usedAt: now })
      .where(and(eq(passwordResets.tokenHash, sha256Hex(input.token)), isNull(passwordResets.usedAt), gt(passwordResets.expiresAt, now)))
      .returning({ userId: passwordResets.userId });
    if (!used) throw invalid();
    await tx
      .update(passwordResets)
      .set({ usedAt: now })
      .where(and(eq(passwordResets.userId, used.userId), isNull(passwordResets.usedAt)));
    await tx.update(users).set({ passwordHash, updatedAt: now }).where(eq(users.id, used.userId));
    await tell(tx, [{ kind: "password_changed", userId: used.userId, payload: {} }], now);
    return endOtherSessions(tx, used.userId, undefined, now);
  });
  for (const id of ended) await announceRevoked(deps, "session", id);
}
