// The manifest, a KB's documents and the KB list read a range of their index in order: no
// sort, however many documents a KB has (a manifest of 100,000 entries is read a page at a
// time); and the planner knows a KB's documents are one owner's.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { sql } from "drizzle-orm";
import { encodeCursor } from "../../src/core/cursor.ts";
import type { Tx } from "../../src/infra/db/index.ts";
import { manifestQuery } from "../../src/modules/library/documents/kb-rows.ts";
import { docListQuery } from "../../src/modules/library/documents/service.ts";
import { kbListQuery } from "../../src/modules/library/kbs/manage.ts";
import { createKb } from "../../src/modules/library/public.ts";
import { testContext } from "../helpers/context.ts";
import { makeUser } from "../helpers/factories.ts";
import { explain, type PlanNode, planOf, withRows } from "../helpers/plan.ts";
import { TEST_TIMEOUT_MS } from "../helpers/timeout.ts";

setDefaultTimeout(TEST_TIMEOUT_MS);

const ROWS = 3000;

/**
 * `count` documents of `ownerId` in `kbId` (ids `<kbId>-<n>`, paths `n<n>.md`), one
 * millisecond apart from 2026-01-01 in `stepped` (the other stamp is 2026-01-01 itself).
 */
function kbDocuments(tx: Tx, o: { ownerId: string; kbId: string; count: number; stepped: "created_at" | "updated_at" }) {
  const stepped = sql`timestamptz '2026-01-01' + i * interval '1 millisecond'`;
  const flat = sql`timestamptz '2026-01-01'`;
  const [created, updated] = o.stepped === "created_at" ? [stepped, flat] : [flat, stepped];
  return tx.execute(sql`
    insert into documents (id, owner_id, kb_id, relative_path, path_key, title, filename, format, source_hash, input_hash,
                           size_bytes, word_count, image_count, rewritten_count, created_at, updated_at)
    select ${o.kbId} || '-' || i, ${o.ownerId}, ${o.kbId}, 'n' || i || '.md', 'n' || i || '.md', 't', 'n.md', 'markdown', 'h', 'h',
           1, 1, 0, 0, ${created}, ${updated}
    from generate_series(1, ${o.count}::int) as i`);
}

function expectIndexWalk(plan: PlanNode[], index: string) {
  const types = plan.map((n) => n["Node Type"]);
  expect(types).not.toContain("Sort");
  expect(types).not.toContain("Incremental Sort");
  expect(plan.find((n) => n["Index Name"])?.["Index Name"]).toBe(index);
}

describe("KB plans", () => {
  test("a manifest page, full or since, first or after a cursor, walks the KB's (updated_at, id) index without a sort", async () => {
    const { deps } = await testContext();
    const owner = await makeUser({ plan: "pro" });
    const [kb, other] = await Promise.all([0, 1].map((i) => createKb(deps, { ownerId: owner.id, name: `p${i}`, slug: `plan-${i}` })));
    const insert = async (tx: Tx) => {
      for (const k of [kb!, other!]) await kbDocuments(tx, { ownerId: owner.id, kbId: k.id, count: ROWS, stepped: "updated_at" });
    };
    await withRows(insert, ["documents", "kbs"], async (tx) => {
      const cursor = encodeCursor(["2026-01-01T00:00:01.500Z", `${kb!.id}-1500`]);
      const since = new Date("2026-01-01T00:00:01.000Z");
      for (const q of [{}, { cursor }, { since }, { since, cursor }]) {
        const plan = await planOf(tx, manifestQuery({ userId: owner.id, kbId: kb!.id, limit: 200, ...q }));
        expectIndexWalk(plan, "documents_kb_updated_idx");
        if (q.cursor) expect(plan.find((n) => n["Index Name"])!["Index Cond"]).toContain("updated_at");
      }
    });
  });

  test("a KB's documents newest first (GET /v1/docs?kbId=), first page or after a cursor, walk the KB's (created_at, id) index without a sort", async () => {
    const { deps } = await testContext();
    const owner = await makeUser({ plan: "pro" });
    const [kb, other] = await Promise.all([0, 1].map((i) => createKb(deps, { ownerId: owner.id, name: `c${i}`, slug: `created-${i}` })));
    // The KB a tenth of its owner's documents (an index of the owner's, filtered by KB, would
    // read ten rows for each one listed), and large enough that sorting it for a page of 20
    // is never the cheaper plan.
    const insert = async (tx: Tx) => {
      for (const [k, count] of [
        [kb!, ROWS],
        [other!, ROWS * 10],
      ] as const) {
        await kbDocuments(tx, { ownerId: owner.id, kbId: k.id, count, stepped: "created_at" });
      }
    };
    await withRows(insert, ["documents"], async (tx) => {
      const cursor = encodeCursor(["2026-01-01T00:00:01.500Z", `${kb!.id}-1500`]);
      for (const q of [{}, { cursor }]) {
        const plan = await planOf(tx, docListQuery(owner.id, { kbId: kb!.id, sort: "created_desc", limit: 20, ...q }));
        expectIndexWalk(plan, "documents_kb_created_idx");
      }
    });
  });

  test("the planner counts a KB's documents as the KB's, not as an owner's share times a KB's share (statistics on owner and KB)", async () => {
    // Fifty owners with a KB of sixty documents each: taken as independent, owner and KB
    // would leave 3000 / 50 / 50 = 1.2 rows, and a KB read as one row is sorted whole and
    // probed in full once per tombstone (docs/benchmarks.md, (y)).
    const OWNERS = 50;
    const EACH = 60;
    const insert = async (tx: Tx) => {
      await tx.execute(sql`
        insert into users (id, email, created_at, updated_at)
        select 'stats-u' || o, 'stats-' || o || '@example.test', now(), now() from generate_series(1, ${OWNERS}::int) as o`);
      await tx.execute(sql`
        insert into kbs (id, owner_id, name, slug, created_at, updated_at)
        select 'stats-k' || o, 'stats-u' || o, 'kb', 'kb', now(), now() from generate_series(1, ${OWNERS}::int) as o`);
      await tx.execute(sql`
        insert into documents (id, owner_id, kb_id, relative_path, path_key, title, filename, format, source_hash, input_hash,
                               size_bytes, word_count, image_count, rewritten_count, created_at, updated_at)
        select 'stats-d' || o || '-' || i, 'stats-u' || o, 'stats-k' || o, 'n' || i || '.md', 'n' || i || '.md', 't', 'n.md', 'markdown', 'h', 'h',
               1, 1, 0, 0, now(), now()
        from generate_series(1, ${OWNERS}::int) as o, generate_series(1, ${EACH}::int) as i`);
    };
    await withRows(insert, ["users", "kbs", "documents"], async (tx) => {
      const [top] = await explain(tx, sql`select id from documents where owner_id = 'stats-u7' and kb_id = 'stats-k7'`);
      expect(top!["Plan Rows"]).toBeGreaterThanOrEqual(EACH / 2);
    });
  });

  test("a KB list page, by updated_at or by name, walks the owner's index without a sort", async () => {
    const owner = await makeUser({ plan: "pro_plus" });
    const insert = async (tx: Tx) => {
      await tx.execute(sql`
        insert into kbs (id, owner_id, name, slug, created_at, updated_at)
        select ${owner.id} || '-' || i, ${owner.id}, 'kb ' || i, 'kb-' || i, timestamptz '2026-01-01', timestamptz '2026-01-01' + i * interval '1 second'
        from generate_series(1, ${ROWS}::int) as i`);
    };
    await withRows(insert, ["documents", "kbs"], async (tx) => {
      expectIndexWalk(await planOf(tx, kbListQuery(owner.id, { limit: 20, sort: "updated_at" })), "kbs_owner_updated_idx");
      expectIndexWalk(await planOf(tx, kbListQuery(owner.id, { limit: 20, sort: "name" })), "kbs_owner_name_idx");
    });
  });
});
