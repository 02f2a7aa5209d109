// The one opaque cursor codec: base64url of a JSON array holding the sort key and the id
// of the last row of a page. A cursor that does not decode to the expected shape is a
// 400 INVALID_CURSOR, never a 500. And the one keyset page every list reads through.
import { and, Column, fillPlaceholders, getTableColumns, getTableName, sql, type SQL } from "drizzle-orm";
import type { PgColumn, PgTable } from "drizzle-orm/pg-core";
import { isoOfDbText } from "../infra/clock.ts";
import type { DbOrTx } from "../infra/db/index.ts";
import { prepared } from "../infra/db/prepared.ts";
import { AppError } from "./errors.ts";

export type CursorPart = string | number;

const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

export function encodeCursor(parts: CursorPart[]): string {
  return Buffer.from(JSON.stringify(parts)).toString("base64url");
}

/** Decodes a cursor whose parts have the given types ("s" string, "n" number, "i" 32-bit integer, "d" ISO date). */
export function decodeCursor<const K extends readonly ("s" | "n" | "i" | "d")[]>(
  cursor: string,
  kinds: K,
): { [I in keyof K]: K[I] extends "n" | "i" ? number : K[I] extends "d" ? Date : string } {
  const bad = () => new AppError("INVALID_CURSOR", "cursor is not valid", {});
  if (cursor.length > 512 || !/^[A-Za-z0-9_-]+$/.test(cursor)) throw bad();
  let parts: unknown;
  try {
    parts = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
  } catch {
    throw bad();
  }
  if (!Array.isArray(parts) || parts.length !== kinds.length) throw bad();
  return parts.map((p, i) => {
    const kind = kinds[i];
    if (kind === "n" && typeof p === "number" && Number.isFinite(p)) return p;
    // An integer column compared with 1.5 or 1e300 is the database's error, not a page.
    if (kind === "i" && Number.isInteger(p) && Math.abs(p as number) <= 2 ** 31 - 1) return p;
    if (kind === "s" && typeof p === "string" && p.length <= 256 && !/[\u0000-\u001f]/.test(p)) return p;
    // Dates are written by toISOString(): anything else (other shapes, years the
    // database cannot hold: it has no year 0) did not come from us.
    if (kind === "d" && typeof p === "string" && ISO_MS.test(p) && !p.startsWith("0000")) {
      const d = new Date(p);
      if (!Number.isNaN(d.getTime()) && d.toISOString() === p) return d;
    }
    throw bad();
  }) as never;
}

/**
 * Turns `limit + 1` fetched rows into a page: the extra row only says another page exists.
 * `key` gives the cursor parts of a row (its sort key and id).
 */
export function toPage<R, I>(rows: R[], limit: number, key: (row: R) => CursorPart[], map: (row: R) => I) {
  const more = rows.length > limit;
  const pageRows = more ? rows.slice(0, limit) : rows;
  const last = pageRows[pageRows.length - 1];
  return { items: pageRows.map(map), nextCursor: more && last ? encodeCursor(key(last)) : null };
}

type Kind = "s" | "n" | "i" | "d";

function kindOf(column: PgColumn): Kind {
  if (column.dataType === "date") return "d";
  if (column.columnType === "PgInteger") return "i";
  if (column.dataType === "number") return "n";
  if (column.dataType === "string") return "s";
  throw new Error(`a cursor cannot hold the ${column.dataType} column ${column.name}`);
}

/** The order of an index's `.desc()` column, and of the same index read backwards. */
const ORDER = { desc: (c: PgColumn) => sql`${c} desc nulls last`, asc: (c: PgColumn) => sql`${c} asc nulls first` };
type Direction = keyof typeof ORDER;

/**
 * `columns` each `desc nulls last`, as a drizzle index's `.desc()` columns are, for a
 * hand-written page's orderBy: drizzle's desc() is Postgres's `desc`, which is `nulls first`,
 * and an index ordered otherwise is read and then sorted (every row of the owner's).
 */
export const newestFirst = (...columns: PgColumn[]) => columns.map(ORDER.desc);
const cursorParam = (i: number) => sql.placeholder(`cursor${i}`);

/** A page's query: `where` (and, after a cursor, the cursor predicate) with placeholders only. */
function pageQuery(
  db: DbOrTx,
  from: PgTable,
  selection: Record<string, PgColumn> | undefined,
  where: SQL | undefined,
  columns: readonly PgColumn[],
  afterCursor: boolean,
  direction: Direction,
) {
  // One row comparison, not `a < $1 or (a = $1 and b < $2)`: Postgres turns the row
  // comparison into the start of an index range and walks from there, where the spelled-out
  // form is a filter on every row past the cursor (and a sort of what passes it).
  const after = afterCursor
    ? sql`(${sql.join([...columns], sql`, `)}) ${sql.raw(direction === "desc" ? "<" : ">")} (${sql.join(
        columns.map((_, i) => cursorParam(i)),
        sql`, `,
      )})`
    : undefined;
  return (selection ? db.select(selection) : db.select())
    .from(from)
    .where(and(where, after))
    .orderBy(...columns.map(ORDER[direction]))
    .limit(sql.placeholder("limit"));
}

type ColumnKey<T extends PgTable> = keyof T["$inferSelect"] & string;

/** What a list asks of keysetPage. */
export interface KeysetQuery<T extends PgTable, K extends ColumnKey<T> = ColumnKey<T>> {
  from: T;
  /**
   * The columns a page reads, the sort columns among them (default: every column). Only
   * what the items show: each column read is parsed by the driver and mapped, row by row.
   */
  columns?: readonly K[];
  /** Names the filter: one statement per shape (default "all"). */
  shape?: string;
  where?: () => SQL | undefined;
  params?: Record<string, unknown>;
  sort: readonly NoInfer<K>[];
  /** Newest first (default), or oldest first: the same index, read backwards. */
  direction?: Direction;
  /**
   * Timestamps as the ISO text the API answers (isoOfDbText) instead of Dates: for a page
   * that only prints them (a manifest's thousand entries), the parse and print of each is
   * the most of its time. The rows' timestamp fields are then strings, and so is the cursor's.
   */
  isoTimes?: boolean;
  cursor?: string;
  limit: number;
}

function statementOf<T extends PgTable, K extends ColumnKey<T>>(q: KeysetQuery<T, K>) {
  const all = getTableColumns(q.from) as Record<string, PgColumn>;
  const columns = q.sort.map((k) => all[k]!);
  const selection = q.columns && Object.fromEntries(q.columns.map((k) => [k, all[k]!]));
  const decode = rowDecoder(all, q.columns ?? Object.keys(all), q.isoTimes ?? false);
  const values: Record<string, unknown> = { ...q.params, limit: q.limit + 1 };
  if (q.cursor) {
    // Dates go to the database as the ISO text they came in: a placeholder is not mapped
    // through its column, and the text is unambiguous to both drivers.
    const parts = decodeCursor(q.cursor, columns.map(kindOf)) as unknown[];
    parts.forEach((p, i) => {
      values[`cursor${i}`] = p instanceof Date ? p.toISOString() : p;
    });
  }
  const afterCursor = Boolean(q.cursor);
  const direction = q.direction ?? "desc";
  const name = `keyset_${getTableName(q.from)}_${q.shape ?? "all"}_${q.sort.join("_")}_${direction}_${afterCursor ? "after" : "first"}${q.columns ? `_of_${q.columns.join("_")}` : ""}`;
  const build = (db: DbOrTx) => pageQuery(db, q.from, selection, q.where?.(), columns, afterCursor, direction);
  return { name, build, values, decode };
}

/**
 * A row as the driver returns it (keyed by column name) to the table's keys, each value
 * decoded by its column as drizzle's own mapping would: without drizzle's generic walk over
 * every cell of every row, which cost a list more than its query did.
 */
function rowDecoder(all: Record<string, PgColumn>, keys: readonly string[], isoTimes: boolean) {
  const asIso = (v: unknown) => (v instanceof Date ? v.toISOString() : isoOfDbText(v as string));
  // A column whose mapping is the identity (text, uuid) is copied without a call.
  const identity = Column.prototype.mapFromDriverValue;
  const columns = keys.map((k) => {
    const column = all[k]!;
    const map =
      isoTimes && column.columnType === "PgTimestamp"
        ? asIso
        : column.mapFromDriverValue === identity
          ? undefined
          : (v: unknown) => column.mapFromDriverValue(v);
    return { key: k, name: column.name, map };
  });
  return (raw: Record<string, unknown>) => {
    const row: Record<string, unknown> = {};
    for (const { key, name, map } of columns) {
      const v = raw[name];
      row[key] = v === null || map === undefined ? v : map(v);
    }
    return row;
  };
}

/** The SQL text and parameters keysetPage runs for `q` (to EXPLAIN it). */
export function keysetSql<T extends PgTable, K extends ColumnKey<T>>(db: DbOrTx, q: KeysetQuery<T, K>): { sql: string; params: unknown[] } {
  const { build, values } = statementOf(q);
  const query = build(db).toSQL();
  return { sql: query.sql, params: fillPlaceholders(query.params, values) };
}

/**
 * One page of `from`'s rows that match `where`, newest first: ordered by the `sort`
 * columns (keys of the table's columns: string, number or timestamp), each descending,
 * the last one unique (the id); after the row `cursor` names, if given. 400
 * INVALID_CURSOR for a cursor that is not one of these.
 *
 * The query is a prepared statement, built once per database and `shape`: `where` is
 * called only then, so it must hold placeholders (`sql.placeholder("userId")`), never a
 * request's values, which come in `params`; each filter a list may or may not apply is a
 * shape of its own. `where` should filter by owner, as every query on user data does.
 *
 * The order is `desc nulls last` on each sort column: what a drizzle index `.desc()`
 * column is. A list needs an index on its equality filters followed by its sort columns,
 * each `.desc()`: Postgres then reads a page as a range of that index, in order, however
 * many rows the owner has, and sorts nothing.
 */
export async function keysetPage<T extends PgTable, I, K extends ColumnKey<T> = ColumnKey<T>>(
  db: DbOrTx,
  q: KeysetQuery<T, K>,
  map: (row: Pick<T["$inferSelect"], K>) => I,
): Promise<{ items: I[]; nextCursor: string | null }> {
  const { name, build, values, decode } = statementOf(q);
  const statement = prepared(db, name, (d) => build(d).prepare(name));
  // all(): the driver's rows as they come (both drivers' prepared queries have it; drizzle's
  // types only declare execute()).
  const raw = await (statement as unknown as { all(v: Record<string, unknown>): Promise<Record<string, unknown>[]> }).all(values);
  const rows = raw.map(decode) as Pick<T["$inferSelect"], K>[];
  const part = (v: unknown): CursorPart => (v instanceof Date ? v.toISOString() : (v as CursorPart));
  return toPage(rows, q.limit, (r) => q.sort.map((k) => part(r[k])), map);
}
