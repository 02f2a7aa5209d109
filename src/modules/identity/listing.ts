// Every account, a page at a time: for operator work that visits each user (usage verify),
// and the admin's list of accounts.
import { asc, gt, ilike, sql } from "drizzle-orm";
import { keysetPage } from "../../core/cursor.ts";
import type { DbOrTx } from "../../infra/db/index.ts";
import { users } from "./table.ts";
import { toMe } from "./users.ts";

/** Up to `limit` user ids after `after`, in id order (null: from the first). */
export async function userIdsAfter(db: DbOrTx, after: string | null, limit: number): Promise<string[]> {
  const rows = await db
    .select({ id: users.id })
    .from(users)
    .where(after === null ? undefined : gt(users.id, after))
    .orderBy(asc(users.id))
    .limit(limit);
  return rows.map((r) => r.id);
}

const withEmailLike = () => ilike(users.email, sql.placeholder("email"));

/**
 * The admin's list of accounts, newest first, a page at a time; `email` keeps those whose
 * address contains it (any case). Items are the account as its owner sees it (GET /v1/user/me).
 */
export function listUsers(db: DbOrTx, now: Date, q: { cursor?: string; limit: number; email?: string }) {
  const email = q.email?.trim().toLowerCase();
  return keysetPage(
    db,
    {
      from: users,
      shape: email ? "email" : "all",
      where: email ? withEmailLike : undefined,
      // LIKE's own wildcards in the query are matched as themselves.
      params: email ? { email: `%${email.replace(/[\\%_]/g, (c) => `\\${c}`)}%` } : {},
      sort: ["createdAt", "id"],
      cursor: q.cursor,
      limit: q.limit,
    },
    (u) => toMe(u, now),
  );
}
