// The Postgres driver across a server restart: a query cut off by the shutdown is refused,
// and the first query on the reconnected socket is answered (patches/postgres@3.4.9.patch).
// Before the patch the shutdown's error was kept by the connection and handed to that first
// query, seconds or minutes later: a 503 long after the database was back (make chaos).
import { afterAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import postgres from "postgres";
import { findPgBin, type PgCluster, startPgCluster } from "../helpers/pg-cluster.ts";
import { TEST_TIMEOUT_MS } from "../helpers/timeout.ts";

setDefaultTimeout(TEST_TIMEOUT_MS);

const bin = findPgBin();

describe.skipIf(!bin)("the Postgres driver across a restart", () => {
  let cluster: PgCluster | undefined;
  afterAll(() => cluster?.dispose());

  test("the query the shutdown cut off is refused; the next one on the same connection is answered", async () => {
    cluster = await startPgCluster(bin!);
    // One connection, so the query after the restart runs where the cut-off one did.
    const sql = postgres(cluster.url, { max: 1, onnotice: () => {}, connect_timeout: 10, backoff: () => 0.05 });
    try {
      expect((await sql`select 1 as one`)[0]!.one).toBe(1);
      const pid = Number((await sql`select pg_backend_pid() as pid`)[0]!.pid);
      const cut = sql`select pg_sleep(30)`.then(
        () => "answered",
        (e: { code?: string }) => e.code ?? "error",
      );
      // Wait on the server's own view of the query, not on a clock.
      const watcher = postgres(cluster.url, { max: 1, onnotice: () => {} });
      while (!(await watcher`select 1 from pg_stat_activity where pid = ${pid} and query like 'select pg_sleep%'`).length);
      await watcher.end();
      await cluster.stopFast();
      expect(["CONNECTION_CLOSED", "57P01"]).toContain(await cut);
      await cluster.start();
      const after = await sql`select 2 as two`.then(
        (rows) => rows[0]!.two as number,
        (e: { code?: string }) => e.code ?? "error",
      );
      expect(after).toBe(2);
    } finally {
      await sql.end({ timeout: 1 });
    }
  }, 60_000);
});
