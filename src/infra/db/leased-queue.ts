// A table that is its own work queue (the account exports', the imports'): a worker claims
// the oldest due row, queued or running under a lease that ran out (its worker died), with
// FOR UPDATE SKIP LOCKED, so two workers never take the same row; and every later write of
// a held row names the worker, so one that lost it is told so and stops.
import { and, eq, type SQL, sql } from "drizzle-orm";
import type { PgColumn, PgTable } from "drizzle-orm/pg-core";

export interface LeasedColumns {
  id: PgColumn;
  state: PgColumn;
  leaseOwner: PgColumn;
  leaseUntil: PgColumn;
  createdAt: PgColumn;
}

/** The id of the oldest row due at `at` (ISO text), locked for the claiming statement. */
export function oldestDue(table: PgTable, c: LeasedColumns, at: string): SQL {
  return sql`(select ${c.id} from ${table}
              where ${c.state} in ('queued', 'running')
                and (${c.leaseUntil} is null or ${c.leaseUntil} < ${at})
              order by ${c.createdAt}, ${c.id}
              limit 1
              for update skip locked)`;
}

/** The row `id` while `worker` holds it. */
export const heldBy = (c: LeasedColumns, id: string, worker: string) => and(eq(c.id, id), eq(c.state, "running"), eq(c.leaseOwner, worker));
