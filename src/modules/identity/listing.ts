// Every account, a page at a time, for operator work that visits each user (usage verify).
import { asc, gt } from "drizzle-orm";
import type { DbOrTx } from "../../infra/db/index.ts";
import { users } from "./table.ts";

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
