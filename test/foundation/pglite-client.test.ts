// The embedded database's client (src/infra/db/pglite-client.ts): each SQL text a named
// prepared statement, its output read from the engine's bytes. What the app relies on
// stays as with PGlite's own query: typed rows, affected rows, errors with their code
// (and the statement still usable after one), transactions that roll back.
import { expect, setDefaultTimeout, test } from "bun:test";
import type { PGlite } from "@electric-sql/pglite";
import { testContext } from "../helpers/context.ts";
import { TEST_TIMEOUT_MS } from "../helpers/timeout.ts";

setDefaultTimeout(TEST_TIMEOUT_MS);

const { deps } = await testContext();
const embedded = deps.database.kind === "pglite";
const client = () => (deps.db as unknown as { $client: PGlite }).$client;

test.skipIf(!embedded)("rows, nulls, types and affected rows come back as PGlite's query gives them", async () => {
  const pg = client();
  await pg.query("create temporary table client_probe (id int primary key, name text, at timestamptz, n bigint, tags text[])");
  const insert = await pg.query("insert into client_probe values ($1, $2, $3, $4, $5), ($6, $7, $8, $9, $10)", [
    1,
    "één",
    new Date("2026-01-02T03:04:05.678Z"),
    5_000_000_000n,
    ["a", "b"],
    2,
    null,
    null,
    null,
    null,
  ]);
  expect(insert.affectedRows).toBe(2);
  // PGlite's own parsing of the same rows (exec: the simple protocol, PGlite's parsers).
  const [expected] = await pg.exec("select * from client_probe where id >= 1 order by id");
  expect(expected!.rows[0]).toMatchObject({ id: 1, name: "één", at: new Date("2026-01-02T03:04:05.678Z"), tags: ["a", "b"] });
  for (let i = 0; i < 3; i++) {
    // The same text again and again: one prepared statement, same answers.
    const { rows, fields } = await pg.query<Record<string, unknown>>("select * from client_probe where id >= $1 order by id", [1]);
    expect(fields).toEqual(expected!.fields);
    expect(rows).toEqual(expected!.rows as Record<string, unknown>[]);
    expect(rows[1]).toEqual({ id: 2, name: null, at: null, n: null, tags: null });
  }
  const arrays = await pg.query("select id, name from client_probe order by id", [], { rowMode: "array" });
  expect(arrays.rows).toEqual([
    [1, "één"],
    [2, null],
  ]);
  await pg.query("drop table client_probe");
});

test.skipIf(!embedded)("an error keeps its code and the query; the statement works again after it", async () => {
  const pg = client();
  await pg.query("create temporary table client_unique (id int primary key)");
  const insert = "insert into client_unique values ($1)";
  await pg.query(insert, [1]);
  const err = (await pg.query(insert, [1]).catch((e: unknown) => e)) as { code?: string; query?: string };
  expect(err.code).toBe("23505");
  expect(err.query).toBe(insert);
  await pg.query(insert, [2]);
  const syntax = (await pg.query("selec 1").catch((e: unknown) => e)) as { code?: string };
  expect(syntax.code).toBe("42601");
  expect((await pg.query<{ n: number }>("select count(*)::int as n from client_unique")).rows[0]!.n).toBe(2);
  await pg.query("drop table client_unique");
});

test.skipIf(!embedded)("a transaction that fails rolls back its statements", async () => {
  const pg = client();
  await pg.query("create temporary table client_tx (id int primary key)");
  const failed = await pg
    .transaction(async (tx) => {
      await tx.query("insert into client_tx values ($1)", [1]);
      await tx.query("insert into client_tx values ($1)", [1]);
    })
    .catch((e: unknown) => e as { code?: string });
  expect((failed as { code?: string }).code).toBe("23505");
  expect((await pg.query("select * from client_tx")).rows).toEqual([]);
  await pg.transaction(async (tx) => {
    await tx.query("insert into client_tx values ($1)", [3]);
  });
  expect((await pg.query("select id from client_tx")).rows).toEqual([{ id: 3 }]);
  await pg.query("drop table client_tx");
});
