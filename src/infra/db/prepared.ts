// Hot-path queries are prepared statements. Query modules are plain functions that take
// the database (or a transaction), so the statement is built on first use, once per
// database and name, and kept as long as that database object lives.
import { eq, type Placeholder, sql } from "drizzle-orm";
import type { PgColumn, PgTable } from "drizzle-orm/pg-core";
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

/**
 * The row of `table` with a given id, reading `columns` only, as a prepared statement named
 * `name`: what each media kind's edge resolver runs on a cache miss (its own table, its own
 * columns; one shape of query for all). Undefined when there is no such row.
 */
export function rowById<TColumns extends Record<string, PgColumn>>(name: string, table: PgTable, id: PgColumn, columns: TColumns) {
  const build = (db: DbOrTx) =>
    db
      .select(columns)
      .from(table)
      .where(eq(id, sql.placeholder("id")))
      .prepare(name);
  return async (db: DbOrTx, value: string): Promise<ValuesOf<TColumns> | undefined> =>
    (await prepared(db, name, build).execute({ id: value }))[0] as ValuesOf<TColumns> | undefined;
}

/** What a select of `columns` reads into a row: each column's type, null where the column may be. */
type ValuesOf<TColumns extends Record<string, PgColumn>> = {
  [K in keyof TColumns]: TColumns[K]["_"]["notNull"] extends true ? TColumns[K]["_"]["data"] : TColumns[K]["_"]["data"] | null;
};
