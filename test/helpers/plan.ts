// What Postgres plans for the statement keysetPage runs: the plan tests assert that a list
// reads a range of its index in order (no sort node), however many rows the owner has.
import { expect } from "bun:test";
import { type SQL, sql } from "drizzle-orm";
import type { PgTable } from "drizzle-orm/pg-core";
import { type KeysetQuery, keysetSql } from "../../src/core/cursor.ts";
import { rowsOf, type Tx } from "../../src/infra/db/index.ts";
import { testContext } from "./context.ts";

export interface PlanNode {
  "Node Type": string;
  "Index Name"?: string;
  "Index Cond"?: string;
  /** The planner's estimate of the rows the node returns. */
  "Plan Rows": number;
  Plans?: PlanNode[];
}

const nodes = (n: PlanNode): PlanNode[] => [n, ...(n.Plans ?? []).flatMap(nodes)];

/** Every node of the plan of `q`'s statement, its parameters bound, explained in `tx`. */
export async function planOf<T extends PgTable, K extends keyof T["$inferSelect"] & string>(tx: Tx, q: KeysetQuery<T, K>): Promise<PlanNode[]> {
  const { sql: text, params } = keysetSql(tx, q);
  const chunks: SQL[] = text.split(/\$(\d+)/).map((p, i) => (i % 2 ? sql`${params[Number(p) - 1]}` : sql.raw(p)));
  return explain(tx, sql.join(chunks));
}

/** Every node of the plan of `statement`, the top one first, explained in `tx`. */
export async function explain(tx: Tx, statement: SQL): Promise<PlanNode[]> {
  const [row] = rowsOf<Record<string, unknown>>(await tx.execute(sql`explain (format json) ${statement}`));
  const plan = Object.values(row!)[0];
  return nodes(((typeof plan === "string" ? JSON.parse(plan) : plan) as { Plan: PlanNode }[])[0]!.Plan);
}

/** Runs `use` with rows made by `insert` and `tables` analyzed, then rolls it all back. */
export async function withRows(insert: (tx: Tx) => Promise<void>, tables: string[], use: (tx: Tx) => Promise<void>) {
  const { deps } = await testContext();
  const done = new Error("rolled back");
  const run = deps.db.transaction(async (tx) => {
    await insert(tx);
    for (const table of tables) await tx.execute(sql.raw(`analyze ${table}`));
    await use(tx);
    throw done;
  });
  await expect(run).rejects.toBe(done);
}
