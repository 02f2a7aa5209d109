// Migration 0006 starts each user's image_count (an images list's total) from the images
// they already hold, on the database the suite runs on (a fresh PGlite, or a throwaway
// database on the Postgres of DATABASE_URL).
import { expect, setDefaultTimeout, test } from "bun:test";
import { migrationFiles, scratchDatabase } from "../helpers/scratch-db.ts";
import { TEST_TIMEOUT_MS } from "../helpers/timeout.ts";

setDefaultTimeout(TEST_TIMEOUT_MS);

test("0006_image_count counts each user's images into image_count, and a user without images gets no counter", async () => {
  const migrations = migrationFiles();
  const index = migrations.findIndex((m) => m.sql.some((s) => s.includes("'image_count'")));
  expect(index).toBeGreaterThan(0);
  const db = await scratchDatabase();
  try {
    for (const m of migrations.slice(0, index)) for (const statement of m.sql) await db.run(statement);
    await db.run(`insert into users (id, email, password_hash, created_at, updated_at) values
      ('u1', 'u1@example.test', 'x', now(), now()), ('u2', 'u2@example.test', 'x', now(), now()), ('u3', 'u3@example.test', 'x', now(), now())`);
    await db.run(`insert into images (id, owner_id, filename, format, width, height, size, created_at, updated_at)
      select 'a' || i, case when i <= 3 then 'u1' else 'u2' end, 'p.png', 'png', 1, 1, 10, now(), now() from generate_series(1, 5) as i`);
    // A stale counter is set to the count, not added to.
    await db.run(
      `insert into usage_counters (user_id, period, dimension, value) values ('u2', 'total', 'image_count', 40), ('u2', 'total', 'img_storage', 20)`,
    );

    for (const m of migrations.slice(index)) for (const statement of m.sql) await db.run(statement);

    const rows = await db.run(`select user_id, dimension, value::text as value from usage_counters where period = 'total' order by user_id, dimension`);
    expect(rows.map((r) => `${r.user_id} ${r.dimension} ${r.value}`)).toEqual(["u1 image_count 3", "u2 image_count 2", "u2 img_storage 20"]);
  } finally {
    await db.close();
  }
});
