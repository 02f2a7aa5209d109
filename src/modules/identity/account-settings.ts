// The account's own changes beyond the profile columns: the per-kind notification choices
// (merged into what is stored) and the password (checked against the current one, told to
// the user as a security event).
import { eq } from "drizzle-orm";
import type { Deps } from "../../core/deps.ts";
import { AppError, notFound } from "../../core/errors.ts";
import type { MePatch } from "./model.ts";
import { mergeChoices } from "./notification-settings.ts";
import { announceRevoked } from "./revocations.ts";
import { endOtherSessions } from "./sessions.ts";
import { users } from "./table.ts";
import type { Tell } from "./tell.ts";
import { hashPassword, lockUser, type User, type UserPatch, updateUser } from "./users.ts";
import { passwordMatches } from "./password.ts";

/** PATCH /v1/user/me: the profile columns, and the notification choices merged under the row's lock. */
export async function patchMe(deps: Deps, userId: string, body: typeof MePatch.static): Promise<User> {
  const { notifications, ...columns } = body;
  const now = deps.clock.now();
  const user = await deps.db.transaction(async (tx) => {
    const patch: UserPatch = { ...columns };
    if (notifications) {
      await lockUser(tx, userId);
      const [row] = await tx.select({ stored: users.notificationSettings }).from(users).where(eq(users.id, userId));
      const merged = mergeChoices(row!.stored, notifications);
      patch.notificationSettings = merged.stored;
      if (merged.quotaWarnings !== undefined) patch.quotaWarnings = merged.quotaWarnings;
    }
    return updateUser(tx, userId, patch, now);
  });
  if (!user) throw notFound("user");
  return user;
}

/**
 * Sets a new password once the current one is proven (401 otherwise). The user's other
 * sessions end with it (whoever knew the old password may hold one); the session that made
 * the change stays. The user is told (password_changed) in the same transaction.
 */
export async function changePassword(
  deps: Deps,
  userId: string,
  input: { currentPassword: string; newPassword: string },
  tell: Tell,
  keepSessionId?: string,
): Promise<void> {
  const [row] = await deps.db.select({ hash: users.passwordHash }).from(users).where(eq(users.id, userId));
  if (!row) throw notFound("user");
  if (!(await passwordMatches(input.currentPassword, row.hash))) throw new AppError("UNAUTHORIZED", "the current password is wrong");
  const passwordHash = await hashPassword(deps.config, input.newPassword);
  const now = deps.clock.now();
  const ended = await deps.db.transaction(async (tx) => {
    await tx.update(users).set({ passwordHash, updatedAt: now }).where(eq(users.id, userId));
    await tell(tx, [{ kind: "password_changed", userId, payload: {} }], now);
    return endOtherSessions(tx, userId, keepSessionId, now);
  });
  for (const id of ended) await announceRevoked(deps, "session", id);
}
