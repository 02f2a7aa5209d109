// The one opaque cursor codec: base64url of a JSON array holding the sort key and the id
// of the last row of a page. A cursor that does not decode to the expected shape is a
// 400 INVALID_CURSOR, never a 500. And the one keyset page every list reads through.
import { and, desc, eq, getTableColumns, lt, or, type SQL } from "drizzle-orm";
import type { PgColumn, PgTable } from "drizzle-orm/pg-core";
import type { DbOrTx } from "../infra/db/index.ts";
import { AppError } from "./errors.ts";

export type CursorPart = string | number;

const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

export function encodeCursor(parts: CursorPart[]): string {
  return Buffer.from(JSON.stringify(parts)).toString("base64url");
}

/** Decodes a cursor whose parts have the given types ("s" string, "n" number, "d" ISO date). */
export function decodeCursor<const K extends readonly ("s" | "n" | "d")[]>(
  cursor: string,
  kinds: K,
): { [I in keyof K]: K[I] extends "n" ? number : K[I] extends "d" ? Date : string } {
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

type Kind = "s" | "n" | "d";

function kindOf(column: PgColumn): Kind {
  if (column.dataType === "date") return "d";
  if (column.dataType === "number") return "n";
  if (column.dataType === "string") return "s";
  throw new Error(`a cursor cannot hold the ${column.dataType} column ${column.name}`);
}

/**
 * `(c1, c2, ...) < (v1, v2, ...)` spelled out column by column: the form both databases
 * plan as a range on the (owner, sort..., id) indexes.
 */
function before(columns: readonly PgColumn[], values: readonly unknown[]): SQL {
  const [c, ...restC] = columns;
  const [v, ...restV] = values;
  return restC.length ? or(lt(c!, v), and(eq(c!, v), before(restC, restV)))! : lt(c!, v);
}

/**
 * One page of `from`'s rows that match `where`, newest first: ordered by the `sort`
 * columns (keys of the table's columns: string, number or timestamp), each descending,
 * the last one unique (the id); after the row `cursor` names, if given. `where` should
 * filter by owner, as every query on user data does. 400 INVALID_CURSOR for a cursor that
 * is not one of these.
 */
export async function keysetPage<T extends PgTable, I>(
  db: DbOrTx,
  q: { from: T; where?: SQL; sort: readonly (keyof T["$inferSelect"] & string)[]; cursor?: string; limit: number },
  map: (row: T["$inferSelect"]) => I,
): Promise<{ items: I[]; nextCursor: string | null }> {
  const all = getTableColumns(q.from) as Record<string, PgColumn>;
  const columns = q.sort.map((k) => all[k]!);
  const after = q.cursor ? before(columns, decodeCursor(q.cursor, columns.map(kindOf))) : undefined;
  const rows = (await db
    .select()
    .from(q.from as PgTable)
    .where(and(q.where, after))
    .orderBy(...columns.map((c) => desc(c)))
    .limit(q.limit + 1)) as T["$inferSelect"][];
  const part = (v: unknown): CursorPart => (v instanceof Date ? v.toISOString() : (v as CursorPart));
  return toPage(rows, q.limit, (r) => q.sort.map((k) => part(r[k])), map);
}
