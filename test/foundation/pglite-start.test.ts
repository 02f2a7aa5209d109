// The embedded database's start (src/infra/db/pglite-start.ts, pglite-known.ts): after a
// clean shutdown the relation cache files Postgres wrote are kept and read, and what the
// shutdown recorded (array types, migrations) is trusted while pg_control is unchanged;
// after any other end both are rebuilt; a catalog change while running still removes the
// cache files; array types are parsed and serialized as PGlite's own loading of them does.
import { expect, setDefaultTimeout, test } from "bun:test";
import { statSync } from "node:fs";
import { join } from "node:path";
import type { PGlite } from "@electric-sql/pglite";
import { openPglite } from "../../src/infra/db/pglite.ts";
import type { KnownState } from "../../src/infra/db/pglite-known.ts";
import { ARRAY_TYPES, shutDownCleanly } from "../../src/infra/db/pglite-start.ts";
import { tempDir } from "../helpers/context.ts";
import { TEST_TIMEOUT_MS } from "../helpers/timeout.ts";

setDefaultTimeout(TEST_TIMEOUT_MS);

const INIT_FILES = ["global/pg_internal.init", "base/5/pg_internal.init"];
/** Each init file's inode and change time: a rebuilt file is a new file (written, renamed). */
const initFiles = (dir: string) => INIT_FILES.map((f) => `${statSync(join(dir, f)).ino}:${statSync(join(dir, f)).ctimeMs}`);

async function withDatabase<T>(dir: string, fn: (pg: PGlite, known: KnownState | null) => Promise<T>): Promise<T> {
  const { client, known, close } = await openPglite(dir);
  try {
    return await fn(client, known);
  } finally {
    await close();
  }
}

// One database for the file: made once (initdb, seconds from source), reopened by each test.
const dir = tempDir("shelf-pg-start-");
await withDatabase(dir, async (pg) => {
  await pg.query("create table probe (id int primary key, tags text[] not null)");
  await pg.query("insert into probe values ($1, $2)", [1, ["a", "b"]]);
});

test("after a clean shutdown the relation cache files are kept and the database answers as before", async () => {
  expect(shutDownCleanly(dir)).toBe(true);
  const before = initFiles(dir);
  await withDatabase(dir, async (pg) => {
    expect(initFiles(dir)).toEqual(before);
    expect((await pg.query("select id, tags from probe")).rows).toEqual([{ id: 1, tags: ["a", "b"] }]);
    await pg.query("insert into probe values ($1, $2)", [2, ["c"]]);
  });
  expect(shutDownCleanly(dir)).toBe(true);
  expect(initFiles(dir)).toEqual(before);
  await withDatabase(dir, async (pg) => {
    expect((await pg.query("select count(*)::int as n from probe")).rows).toEqual([{ n: 2 }]);
  });
});

test("a database as its last shutdown left it is known: its array types and migrations come from that record", async () => {
  await withDatabase(dir, async (pg, known) => {
    expect(known).not.toBeNull();
    const scanned = (await pg.query<{ oid: number; typarray: number }>(ARRAY_TYPES)).rows.map((r): [number, number] => [r.oid, r.typarray]);
    expect(known!.arrayTypes).toEqual(scanned);
    expect(known!.arrayTypes).toContainEqual([25, 1009]); // text, text[]
    expect(known!.migrations).toEqual({ count: 0, newest: 0 }); // no __migrations here
    // Registered from the record: arrays still parse and serialize.
    expect((await pg.query("select $1::text[] as t", [["x", "y"]])).rows).toEqual([{ t: ["x", "y"] }]);
    await pg.exec("create table public.__migrations (id serial primary key, hash text not null, created_at bigint)");
    await pg.exec("insert into public.__migrations (hash, created_at) values ('a', 1700000000000), ('b', 1700000000123)");
  });
  await withDatabase(dir, async (pg, known) => {
    expect(known!.migrations).toEqual({ count: 2, newest: 1700000000123 });
    await pg.exec("drop table public.__migrations");
  });
});

test("a catalog change while running removes them, and the next start rebuilds them", async () => {
  const before = initFiles(dir);
  // A new file for pg_type, a catalog the cache files describe.
  const relfilenode = async (pg: PGlite) => (await pg.query<{ f: number }>("select pg_relation_filenode('pg_type') as f")).rows[0]!.f;
  const moved = await withDatabase(dir, async (pg) => {
    const old = await relfilenode(pg);
    await pg.exec("vacuum full pg_type");
    expect(await relfilenode(pg)).not.toBe(old);
    return relfilenode(pg);
  });
  await withDatabase(dir, async (pg) => {
    expect(initFiles(dir)).not.toEqual(before);
    expect(await relfilenode(pg)).toBe(moved);
    expect((await pg.query("select count(*)::int as n from probe")).rows).toEqual([{ n: 2 }]);
  });
});

test("after an end without shutdown (the process killed) they are rebuilt, and nothing is lost", async () => {
  const src = join(import.meta.dir, "../../src/infra/db/pglite.ts");
  const child = Bun.spawn(
    [
      "bun",
      "-e",
      `const { openPglite } = await import(${JSON.stringify(src)});
       const { client } = await openPglite(${JSON.stringify(dir)});
       await client.query("insert into probe values (3, '{d}')");
       process.kill(process.pid, "SIGKILL");`,
    ],
    { stdout: "ignore", stderr: "pipe" },
  );
  expect(await child.exited).not.toBe(0);
  expect(shutDownCleanly(dir)).toBe(false);
  const before = initFiles(dir);
  await withDatabase(dir, async (pg, known) => {
    expect(known).toBeNull(); // pg_control is not as the last shutdown left it
    expect(initFiles(dir)).not.toEqual(before);
    expect((await pg.query("select id from probe order by id")).rows).toEqual([{ id: 1 }, { id: 2 }, { id: 3 }]);
  });
  expect(shutDownCleanly(dir)).toBe(true);
  await withDatabase(dir, async (_pg, known) => expect(known).not.toBeNull());
});

test("arrays of built-in and of the database's own types are parsed and serialized", async () => {
  await withDatabase(dir, async (pg) => {
    const { rows } = await pg.query<Record<string, unknown>>("select $1::int[] as ints, $2::text[] as texts, array[row(1, '{x}')::probe] as probes", [
      [1, 2],
      ["a b", 'c"d'],
    ]);
    expect(rows[0]!.ints).toEqual([1, 2]);
    expect(rows[0]!.texts).toEqual(["a b", 'c"d']);
    // An array of the table's row type: an array, its rows as PGlite's parser leaves them.
    expect(rows[0]!.probes).toEqual(["(1,{x})"]);
  });
});

test("the scan of pg_type finds the same array types as PGlite's own query", async () => {
  await withDatabase(dir, async (pg) => {
    const pairs = (rows: { oid: number | null; typarray: number | null }[]) =>
      rows
        .filter((r) => r.oid && r.typarray)
        .map((r) => `${r.oid}:${r.typarray}`)
        .sort();
    // PGlite 0.5's _initArrayTypes, word for word.
    const theirs = await pg.query<{ oid: number; typarray: number }>(`
      SELECT b.oid, b.typarray
      FROM pg_catalog.pg_type a
      LEFT JOIN pg_catalog.pg_type b ON b.oid = a.typelem
      WHERE a.typcategory = 'A'
      GROUP BY b.oid, b.typarray
      ORDER BY b.oid
    `);
    const ours = await pg.query<{ oid: number; typarray: number }>(ARRAY_TYPES);
    expect(pairs(ours.rows)).toEqual(pairs(theirs.rows));
    expect(ours.rows.some((r) => r.typarray === 1009)).toBe(true); // text[]
  });
});
