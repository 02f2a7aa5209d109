// An instance keeps an administrator: without one nobody can change a plan, run a job or
// make another admin over the API, so a change that would take the flag from the last
// account holding it (its demotion, or its account's deletion) is refused. Such changes
// take turns on one transaction lock, so two admins demoting each other at once cannot
// both count the other as the one that stays.
import { and, eq, ne, sql } from "drizzle-orm";
import { AppError } from "../../core/errors.ts";
import type { Tx } from "../../infra/db/index.ts";
import { users } from "./table.ts";

/**
 * In a transaction that is about to take the admin flag from `userId` (or its account):
 * takes the lock, then refuses with 409 CONFLICT when that account is the only admin. The
 * lock is held until the transaction ends, so the change is made before the next count.
 */
export async function keepAnAdmin(tx: Tx, userId: string, change: "demote" | "delete"): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext('accounts:admins'))`);
  const [target] = await tx.select({ isAdmin: users.isAdmin }).from(users).where(eq(users.id, userId));
  if (!target?.isAdmin) return;
  const [other] = await tx
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.isAdmin, true), ne(users.id, userId)))
    .limit(1);
  if (other) return;
  const what = change === "demote" ? "taking its admin flag" : "deleting it";
  throw new AppError("CONFLICT", `this account is the instance's only administrator: ${what} would leave none; make another account an administrator first`, {
    reason: "last_admin",
  });
}
