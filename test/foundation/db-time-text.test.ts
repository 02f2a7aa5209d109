// isoOfDbText (src/infra/clock.ts): a timestamp as the database sends it as text, printed
// as iso() prints the same instant, on both drivers.
import { expect, setDefaultTimeout, test } from "bun:test";
import { sql } from "drizzle-orm";
import { isoOfDbText } from "../../src/infra/clock.ts";
import { testContext } from "../helpers/context.ts";
import { TEST_TIMEOUT_MS } from "../helpers/timeout.ts";

setDefaultTimeout(TEST_TIMEOUT_MS);

test("every form Postgres prints in a UTC session, and any other through a Date, as iso() prints it", () => {
  const cases: [string, string][] = [
    ["2026-11-27 09:09:51+00", "2026-11-27T09:09:51.000Z"],
    ["2026-11-27 09:09:51.1+00", "2026-11-27T09:09:51.100Z"],
    ["2026-11-27 09:09:51.12+00", "2026-11-27T09:09:51.120Z"],
    ["2026-11-27 09:09:51.123+00", "2026-11-27T09:09:51.123Z"],
    // Microseconds are cut, as a Date cuts them.
    ["2026-11-27 09:09:51.1239+00", "2026-11-27T09:09:51.123Z"],
    ["2026-11-27 09:09:51.12399+00", "2026-11-27T09:09:51.123Z"],
    ["2026-11-27 09:09:51.123999+00", "2026-11-27T09:09:51.123Z"],
    ["2026-11-27 10:09:51.5+01", "2026-11-27T09:09:51.500Z"],
    ["2026-11-27 09:09:51.12+05:30", "2026-11-27T03:39:51.120Z"],
  ];
  for (const [text, want] of cases) expect([text, isoOfDbText(text)]).toEqual([text, want]);
});

test("what the database sends for instants across the years, with and without fractions, reads back to the same instant", async () => {
  const { deps } = await testContext();
  const instants = ["1970-01-01T00:00:00.000Z", "2000-02-29T23:59:59.999Z", "2026-11-27T09:09:51.100Z", "2038-01-19T03:14:07.010Z", "9999-12-31T23:59:59.001Z"];
  for (const instant of instants) {
    const rows = (await deps.db.execute(sql`select ${instant}::timestamptz::text as t`)) as unknown as { t: string }[] | { rows: { t: string }[] };
    const text = (Array.isArray(rows) ? rows : rows.rows)[0]!.t;
    expect([text, isoOfDbText(text)]).toEqual([text, instant]);
  }
});
