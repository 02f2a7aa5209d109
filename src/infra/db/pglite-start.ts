// Two costs of PGlite's start on a database that exists, each a step Postgres takes in
// WebAssembly that gives the same result as a cheaper one (src/infra/db/pglite.ts uses both):
//
// - Postgres removes its relation cache init files (pg_internal.init, in global/ and in
//   each database's folder) at every start, so that the first session rebuilds them by
//   reading the system catalogs: ~50 ms of a later start here. It does so because after a
//   crash or a point-in-time recovery the WAL it replays may change catalogs without the
//   invalidation that removes a stale file. A database shut down cleanly replays nothing,
//   and while it ran Postgres kept the files in step with the catalogs (a change to a
//   cached catalog removes them before and after its commit), so after a clean shutdown
//   the files are kept and read as they are; after any other end they are removed as usual.
//
// - PGlite learns the database's array types (to parse and serialize arrays) with a join
//   of pg_type with itself and a GROUP BY, its first query; one scan of pg_type gives the
//   same pairs (an element type and its array type) for less (~20-30 ms here).
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { type PGlite, types } from "@electric-sql/pglite";
import { NodeFS } from "@electric-sql/pglite/nodefs";

// pg_control begins with system_identifier (8 bytes), pg_control_version and
// catalog_version_no (4 bytes each), then the cluster's state; DB_SHUTDOWNED is 1.
const STATE_OFFSET = 16;
const DB_SHUTDOWNED = 1;

/** True when the database in `dir` was last shut down cleanly (pg_control says so). */
export function shutDownCleanly(dir: string): boolean {
  try {
    const control = readFileSync(join(dir, "global", "pg_control"));
    return control.byteLength >= STATE_OFFSET + 4 && control.readInt32LE(STATE_OFFSET) === DB_SHUTDOWNED;
  } catch {
    return false;
  }
}

type Mod = { FS: { unlink(path: string): void } };

/**
 * PGlite's file system for a data folder (its NodeFS), which keeps the relation cache init
 * files Postgres removes while it starts, until `started()`; only for a database that
 * `shutDownCleanly` (the caller decides).
 */
export class KeepRelcacheInitFs extends NodeFS {
  #keeping = true;

  override async init(pg: PGlite, opts: Parameters<NodeFS["init"]>[1]) {
    const { emscriptenOpts } = await super.init(pg, opts);
    const keep = (mod: Mod) => {
      const unlink = mod.FS.unlink.bind(mod.FS);
      mod.FS.unlink = (path: string) => {
        if (this.#keeping && path.endsWith("/pg_internal.init")) return;
        unlink(path);
      };
    };
    const preRun = [...((emscriptenOpts.preRun as unknown[] | undefined) ?? []), keep];
    return { emscriptenOpts: { ...emscriptenOpts, preRun } as typeof emscriptenOpts };
  }

  /** Postgres has started: from now on it removes those files whenever it must. */
  started(): void {
    this.#keeping = false;
  }
}

// Every type with an array type, but record: its array (_record, 2287) is a pseudo-type
// (category P), which PGlite's query (array types of category A) leaves out.
export const ARRAY_TYPES = "select oid, typarray from pg_catalog.pg_type where typarray <> 0 and typarray <> 2287";

/**
 * Replaces PGlite's own loading of the array types on `pg` (a new instance, before it is
 * ready) by the same registration from one scan of pg_type, or from `known` pairs (what
 * that scan found when the database was last shut down, src/infra/db/pglite-known.ts).
 * refreshArrayTypes() scans again.
 */
export function loadArrayTypesByScan(pg: PGlite, known?: [oid: number, typarray: number][]): void {
  let loaded = false;
  const target = pg as unknown as {
    _initArrayTypes(opts?: { force?: boolean }): Promise<void>;
    serializers: Record<number, types.Serializer>;
    parsers: Record<number, types.Parser>;
  };
  target._initArrayTypes = async ({ force = false } = {}) => {
    if (loaded && !force) return;
    const first = !loaded;
    loaded = true;
    const pairs: [number, number][] =
      first && known ? known : (await pg.query<{ oid: number; typarray: number }>(ARRAY_TYPES)).rows.map((r) => [r.oid, r.typarray]);
    for (const [oid, typarray] of pairs) {
      // As PGlite's: the element's serializer and parser are looked up on each call.
      target.serializers[typarray] = (x) => types.arraySerializer(x, target.serializers[oid], typarray);
      target.parsers[typarray] = (x) => types.arrayParser(x, target.parsers[oid]!, typarray);
    }
  };
}
