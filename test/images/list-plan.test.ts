// The list queries read a range of their index in order: no sort, however many rows the
// owner has. A plan that sorts a library costs time in proportion to its size, and nothing
// else would notice: the pages it answers are the same.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { sql } from "drizzle-orm";
import type { Tx } from "../../src/infra/db/index.ts";
import { apiKeyListQuery } from "../../src/modules/identity/api-keys.ts";
import { imageListQuery } from "../../src/modules/images/service.ts";
import { makeUser } from "../helpers/factories.ts";
import { type PlanNode, planOf, withRows } from "../helpers/plan.ts";
import { TEST_TIMEOUT_MS } from "../helpers/timeout.ts";

setDefaultTimeout(TEST_TIMEOUT_MS);

/** Enough rows for one owner that the planner weighs a sort of them against the index. */
const ROWS = 3000;

function expectIndexWalk(plan: PlanNode[], index: string) {
  const types = plan.map((n) => n["Node Type"]);
  expect(types).not.toContain("Sort");
  expect(types).not.toContain("Incremental Sort");
  expect(plan.find((n) => n["Node Type"] === "Index Scan")?.["Index Name"]).toBe(index);
}

describe("list plans", () => {
  test("an images list page, first, after a cursor and by tag, walks the owner's index without a sort", async () => {
    const owner = await makeUser();
    const other = await makeUser();
    const insert = async (tx: Tx) => {
      for (const [id, n] of [
        [owner.id, ROWS],
        [other.id, ROWS],
      ] as const) {
        await tx.execute(sql`
          insert into images (id, owner_id, filename, format, width, height, tags, size, created_at, updated_at)
          select ${id} || '-' || i, ${id}, 'p.png', 'png', 1, 1, case when i % 3 = 0 then array['cats'] else '{}' end, 100,
                 timestamptz '2026-01-01' + i * interval '1 second', timestamptz '2026-01-01'
          from generate_series(1, ${n}::int) as i`);
      }
    };
    await withRows(insert, ["images"], async (tx) => {
      const cursor = Buffer.from(JSON.stringify(["2026-01-01T00:25:00.000Z", `${owner.id}-1500`])).toString("base64url");
      for (const q of [{ limit: 20 }, { limit: 20, cursor }, { limit: 20, tag: "cats" }, { limit: 20, tag: "cats", cursor }]) {
        const plan = await planOf(tx, imageListQuery(owner.id, q));
        expectIndexWalk(plan, "images_owner_created_idx");
        // After a cursor the index range starts at it: the comparison is an index condition.
        if (q.cursor) expect(plan.find((n) => n["Index Name"])!["Index Cond"]).toContain("created_at");
      }
    });
  });

  test("an API key list page, first and after a cursor, walks the owner's index without a sort", async () => {
    const owner = await makeUser();
    const insert = (tx: Tx) =>
      tx
        .execute(sql`
          insert into api_keys (id, user_id, name, key_hash, last4, scopes, created_at)
          select ${owner.id} || '-' || i, ${owner.id}, 'k', md5(${owner.id} || i), 'abcd', array['media.read'],
                 timestamptz '2026-01-01' + i * interval '1 second'
          from generate_series(1, ${ROWS}::int) as i`)
        .then(() => undefined);
    await withRows(insert, ["api_keys"], async (tx) => {
      const cursor = Buffer.from(JSON.stringify(["2026-01-01T00:25:00.000Z", `${owner.id}-1500`])).toString("base64url");
      for (const q of [{ limit: 20 }, { limit: 20, cursor }]) {
        const plan = await planOf(tx, apiKeyListQuery(owner.id, q));
        expectIndexWalk(plan, "api_keys_user_idx");
        if (q.cursor) expect(plan.find((n) => n["Index Name"])!["Index Cond"]).toContain("created_at");
      }
    });
  });
});
