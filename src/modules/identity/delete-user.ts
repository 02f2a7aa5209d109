// Deleting an account (an operator's task): the user row goes, and every row of theirs with
// it (each table that names a user cascades), in one transaction under the user's lock.
// The account is announced revoked, and its API keys and sessions one by one (what nodes
// of an older version understand), so no node's cache keeps any of its tokens alive;
// their stored objects are then named by no row and the orphan sweep removes them once
// older than its cutoff. Counted usage goes with the rows: nothing is left to give back.
import { eq } from "drizzle-orm";
import type { Deps } from "../../core/deps.ts";
import { keepAnAdmin } from "./admins.ts";
import { announceRevoked } from "./revocations.ts";
import { apiKeys, sessions, users } from "./table.ts";
import { lockUser } from "./users.ts";

export interface DeletedUser {
  apiKeys: number;
  sessions: number;
}

/**
 * Deletes the account and everything its rows hold; 404 NOT_FOUND when there is none, 409
 * CONFLICT when it is the instance's only admin (admins.ts).
 */
export async function deleteUser(deps: Deps, userId: string): Promise<DeletedUser> {
  const gone = await deps.db.transaction(async (tx) => {
    await keepAnAdmin(tx, userId, "delete");
    await lockUser(tx, userId);
    const keys = await tx.select({ hash: apiKeys.keyHash }).from(apiKeys).where(eq(apiKeys.userId, userId));
    const live = await tx.select({ id: sessions.id }).from(sessions).where(eq(sessions.userId, userId));
    await tx.delete(users).where(eq(users.id, userId));
    return { keys: keys.map((k) => k.hash), sessions: live.map((s) => s.id) };
  });
  // The account first: every node drops all its tokens, OAuth's included, at once.
  await announceRevoked(deps, "user", userId);
  for (const hash of gone.keys) await announceRevoked(deps, "key", hash);
  for (const id of gone.sessions) await announceRevoked(deps, "session", id);
  return { apiKeys: gone.keys.length, sessions: gone.sessions.length };
}
