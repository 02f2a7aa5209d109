// The one keyset page every list reads through, on a table of its own (a temporary table
// inside a transaction that is rolled back, so nothing is left behind on either database).
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { eq, sql } from "drizzle-orm";
import { bigint, pgTable, text, timestamp } from "drizzle-orm/pg-core";
import { decodeCursor, encodeCursor, keysetPage } from "../../src/core/cursor.ts";
import type { Tx } from "../../src/infra/db/index.ts";
import { testContext } from "../helpers/context.ts";
import { TEST_TIMEOUT_MS } from "../helpers/timeout.ts";

setDefaultTimeout(TEST_TIMEOUT_MS);

const rows = pgTable("keyset_rows", {
  id: text("id").primaryKey(),
  owner: text("owner").notNull(),
  at: timestamp("at", { withTimezone: true, mode: "date", precision: 3 }).notNull(),
  rank: bigint("rank", { mode: "number" }).notNull(),
});

/** Runs `use` on a fresh keyset_rows table holding `values`; rolls everything back after. */
async function withRows(values: (typeof rows.$inferInsert)[], use: (tx: Tx) => Promise<void>) {
  const { deps } = await testContext();
  const done = new Error("rolled back");
  const run = deps.db.transaction(async (tx) => {
    await tx.execute(
      sql`create temporary table keyset_rows (id text primary key, owner text not null, at timestamptz(3) not null, rank bigint not null) on commit drop`,
    );
    await tx.insert(rows).values(values);
    await use(tx);
    throw done;
  });
  await expect(run).rejects.toBe(done);
}

/** Every page, from the first, as lists of ids. */
async function walk(tx: Tx, q: Omit<Parameters<typeof keysetPage<typeof rows, string>>[1], "from" | "cursor">) {
  const pages: string[][] = [];
  let cursor: string | undefined;
  do {
    const page = await keysetPage(tx, { ...q, from: rows, cursor }, (r) => r.id);
    pages.push(page.items);
    cursor = page.nextCursor ?? undefined;
  } while (cursor && pages.length < 10);
  return pages;
}

describe("keyset pages", () => {
  test("rows that tie on the sort key are ordered by id and each is on exactly one page", async () => {
    const t0 = new Date("2026-03-01T00:00:00.000Z");
    const t1 = new Date("2026-03-02T00:00:00.000Z");
    const values = [
      { id: "a", owner: "me", at: t0, rank: 1 },
      { id: "b", owner: "me", at: t1, rank: 1 },
      { id: "c", owner: "me", at: t1, rank: 1 },
      { id: "d", owner: "me", at: t1, rank: 1 },
      { id: "e", owner: "me", at: t0, rank: 1 },
      { id: "z", owner: "someone else", at: t1, rank: 1 },
    ];
    await withRows(values, async (tx) => {
      const pages = await walk(tx, {
        shape: "owned",
        where: () => eq(rows.owner, sql.placeholder("owner")),
        params: { owner: "me" },
        sort: ["at", "id"],
        limit: 2,
      });
      expect(pages).toEqual([["d", "c"], ["b", "e"], ["a"]]);
    });
  });

  test("the cursor holds the last row's sort values, dates as ISO text and numbers as numbers", async () => {
    const at = new Date("2026-03-01T10:20:30.456Z");
    await withRows(
      [
        { id: "x", owner: "me", at, rank: 7 },
        { id: "y", owner: "me", at, rank: 9 },
      ],
      async (tx) => {
        const byDate = await keysetPage(tx, { from: rows, sort: ["at", "id"], limit: 1 }, (r) => r.id);
        expect(decodeCursor(byDate.nextCursor!, ["d", "s"])).toEqual([at, "y"]);
        const byRank = await keysetPage(tx, { from: rows, sort: ["rank", "id"], limit: 1 }, (r) => r.id);
        expect(byRank.items).toEqual(["y"]);
        expect(decodeCursor(byRank.nextCursor!, ["n", "s"])).toEqual([9, "y"]);
        // The last page says so.
        expect((await keysetPage(tx, { from: rows, sort: ["rank", "id"], limit: 2 }, (r) => r.id)).nextCursor).toBeNull();
      },
    );
  });

  test("a list that names its columns reads those alone, mapped as the table maps them, and pages the same", async () => {
    const at = new Date("2026-03-01T10:20:30.456Z");
    const values = ["a", "b", "c"].map((id, i) => ({ id, owner: "me", at: new Date(at.getTime() + i), rank: 2 ** 40 + i }));
    await withRows(values, async (tx) => {
      const q = { from: rows, columns: ["id", "at", "rank"] as const, sort: ["at", "id"] as const, limit: 2 };
      const first = await keysetPage(tx, q, (r) => r);
      expect(first.items).toEqual([
        { id: "c", at: new Date(at.getTime() + 2), rank: 2 ** 40 + 2 },
        { id: "b", at: new Date(at.getTime() + 1), rank: 2 ** 40 + 1 },
      ]);
      // The same statement name is not shared with the all-columns query of the same shape.
      const all = await keysetPage(tx, { from: rows, sort: ["at", "id"], limit: 2 }, (r) => r);
      expect(Object.keys(all.items[0]!).sort()).toEqual(["at", "id", "owner", "rank"]);
      const next = await keysetPage(tx, { ...q, cursor: first.nextCursor! }, (r) => r.id);
      expect(next).toEqual({ items: ["a"], nextCursor: null });
    });
  });

  test("a cursor made for other sort columns is 400 INVALID_CURSOR", async () => {
    await withRows([{ id: "x", owner: "me", at: new Date(), rank: 1 }], async (tx) => {
      const byRank = encodeCursor([1, "x"]);
      await expect(keysetPage(tx, { from: rows, sort: ["at", "id"], cursor: byRank, limit: 1 }, (r) => r.id)).rejects.toMatchObject({
        code: "INVALID_CURSOR",
        status: 400,
      });
    });
  });
});
