// The one opaque cursor codec: base64url of a JSON array holding the sort key and the id
// of the last row of a page. A cursor that does not decode to the expected shape is a
// 400 INVALID_CURSOR, never a 500.
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
