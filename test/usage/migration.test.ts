// Migration 0004 moves the usage tables' counts into usage_counters, on the database the
// suite runs on (a fresh PGlite, or a throwaway database on the Postgres of DATABASE_URL).
import { expect, setDefaultTimeout, test } from "bun:test";
import { migrationFiles, scratchDatabase } from "../helpers/scratch-db.ts";
import { TEST_TIMEOUT_MS } from "../helpers/timeout.ts";

setDefaultTimeout(TEST_TIMEOUT_MS);

test("0004_usage_counters keeps every user's counts, one counter each, and drops the old tables", async () => {
  const migrations = migrationFiles();
  const [before, after] = [migrations.slice(0, 4), migrations[4]!];
  const db = await scratchDatabase();
  try {
    for (const m of before) for (const statement of m.sql) await db.run(statement);
    await db.run(`insert into users (id, email, password_hash, created_at, updated_at) values
      ('u1', 'u1@example.test', 'x', now(), now()), ('u2', 'u2@example.test', 'x', now(), now())`);
    await db.run(`insert into usage_totals (user_id, image_storage_bytes, media_storage_bytes, doc_count, revision_count, revision_bytes, updated_at) values
      ('u1', 5000000000, 20, 3, 4, 50, now()), ('u2', 0, 0, 0, 0, 0, now())`);
    await db.run(`insert into usage_monthly (user_id, month, image_bandwidth_bytes, media_bandwidth_bytes, uploads) values
      ('u1', '2026-04', 100, 0, 2), ('u1', '2026-05', 7, 8, 9), ('u2', '2026-05', 0, 0, 1)`);
    await db.run(`insert into usage_daily (user_id, day, uploads) values ('u1', '2026-05-01', 1), ('u1', '2026-05-02', 0), ('u2', '2026-05-02', 3)`);

    for (const statement of after.sql) await db.run(statement);

    const rows = await db.run(`select user_id, period, dimension, value::text as value from usage_counters order by user_id, period, dimension`);
    expect(rows.map((r) => `${r.user_id} ${r.period} ${r.dimension} ${r.value}`)).toEqual([
      "u1 2026-04 image_bandwidth 100",
      "u1 2026-04 uploads_per_month 2",
      "u1 2026-05 image_bandwidth 7",
      "u1 2026-05 media_bandwidth 8",
      "u1 2026-05 uploads_per_month 9",
      "u1 2026-05-01 uploads_per_day 1",
      "u1 total doc_count 3",
      "u1 total img_storage 5000000000",
      "u1 total media_storage 20",
      "u1 total revision_bytes 50",
      "u1 total revision_count 4",
      "u2 2026-05 uploads_per_month 1",
      "u2 2026-05-02 uploads_per_day 3",
    ]);
    const left = await db.run(`select table_name from information_schema.tables where table_schema = 'public' and table_name like 'usage_%' order by 1`);
    expect(left.map((r) => r.table_name)).toEqual(["usage_counters"]);
  } finally {
    await db.close();
  }
});
