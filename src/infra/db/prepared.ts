// Hot-path queries are prepared statements. Query modules are plain functions that take
// the database (or a transaction), so the statement is built on first use, once per
// database and name, and kept as long as that database object lives.
import { type Placeholder, sql } from "drizzle-orm";
import type { DbOrTx } from "./index.ts";

const byDb = new WeakMap<DbOrTx, Map<string, unknown>>();

export function prepared<Q>(db: DbOrTx, name: string, build: (db: DbOrTx) => Q): Q {
  let statements = byDb.get(db);
  if (!statements) byDb.set(db, (statements = new Map()));
  let q = statements.get(name) as Q | undefined;
  if (!q) statements.set(name, (q = build(db)));
  return q;
}

/** A placeholder named after each column: the values of a prepared insert or update. */
export function placeholders<C extends string>(columns: readonly C[]): Record<C, Placeholder> {
  return Object.fromEntries(columns.map((c) => [c, sql.placeholder(c)])) as unknown as Record<C, Placeholder>;
}
