// What a start of the embedded database would ask the database, recorded when it is shut
// down, so that the next start, finding it exactly as it was left, reads the answers from
// a file instead of running its first queries in a cold engine (~70-100 ms of a later
// start here): the array types PGlite parses and serializes, and the newest migration.
//
// "Exactly as it was left": the file holds a hash of pg_control as the shutdown left it.
// Postgres rewrites pg_control whenever the cluster's state changes (any start, any
// checkpoint, any shutdown, with a new checkpoint location each time), so a database that
// anything opened since (another binary, `shelf migrate`, a crash) no longer matches and
// is asked again; so does one replaced by another folder.
import { readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { PGlite } from "@electric-sql/pglite";

export interface KnownState {
  /** Every type with an array type, and that array type (see ARRAY_TYPES). */
  arrayTypes: [oid: number, typarray: number][];
  /** Migrations recorded in __migrations, and the created_at (ms) of the newest. */
  migrations: { count: number; newest: number };
}

const FILE = "shelf-known.json";

function controlHash(dir: string): string {
  return Bun.hash(readFileSync(join(dir, "global", "pg_control"))).toString(16);
}

/** The state recorded at the last shutdown of the database in `dir`, if it is still as it was left. */
export function readKnownState(dir: string): KnownState | null {
  try {
    const saved = JSON.parse(readFileSync(join(dir, FILE), "utf8")) as KnownState & { control?: string };
    if (saved.control !== controlHash(dir) || !Array.isArray(saved.arrayTypes) || typeof saved.migrations?.newest !== "number") return null;
    return { arrayTypes: saved.arrayTypes, migrations: saved.migrations };
  } catch {
    return null;
  }
}

/**
 * Reads what the next start needs from the open database, or null when it cannot (the
 * next start then asks the database as usual).
 */
export async function collectKnownState(pg: PGlite, arrayTypesQuery: string): Promise<KnownState | null> {
  try {
    const types = await pg.query<{ oid: number; typarray: number }>(arrayTypesQuery);
    const table = await pg.query<{ t: string | null }>("select to_regclass('public.__migrations')::text as t");
    let migrations = { count: 0, newest: 0 };
    if (table.rows[0]?.t) {
      const row = (await pg.query<{ n: number; newest: string | null }>("select count(*)::int as n, max(created_at)::text as newest from public.__migrations"))
        .rows[0];
      migrations = { count: row?.n ?? 0, newest: Number(row?.newest ?? 0) };
    }
    return { arrayTypes: types.rows.map((r) => [r.oid, r.typarray]), migrations };
  } catch {
    return null;
  }
}

/** Records `state` beside the database in `dir`, which has just been shut down. */
export function saveKnownState(dir: string, state: KnownState | null): void {
  const file = join(dir, FILE);
  try {
    if (state) {
      writeFileSync(`${file}.tmp`, JSON.stringify({ control: controlHash(dir), ...state }));
      renameSync(`${file}.tmp`, file);
      return;
    }
  } catch {
    // Nothing recorded: the next start asks the database.
  }
  rmSync(file, { force: true });
}
