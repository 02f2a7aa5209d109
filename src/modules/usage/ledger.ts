// The usage ledger and the one quota check, for any list of dimensions (dimensions.ts).
// Features call reserve() inside the transaction that inserts the rows being counted, and
// release() inside the one that deletes them, so counters and rows never disagree. A need
// that does not fit is answered with a LimitRefusal: plain values, no HTTP.
import { and, eq, inArray, sql } from "drizzle-orm";
import { rowsOf, type DbOrTx, type Tx } from "../../infra/db/index.ts";
import { prepared } from "../../infra/db/prepared.ts";
import { LimitRaced, LimitRefusal } from "../../core/refusal.ts";
import type { PlanLimits } from "../identity/public.ts";
import { DIMENSIONS, limitOf, PERIODS, TOTAL, type Dimension } from "./dimensions.ts";
import { tellQuotaCrossings } from "./notify.ts";
import { usageCounters, userExists } from "./table.ts";

/** Amounts by what they count (a dimension's `counts`): `{ imageBytes: 2048, uploads: 1 }`. */
export type Need<M extends string = string> = Partial<Record<M, number>>;
/** Every dimension's counter for one user at one instant, by name; zero where none. */
export type Snapshot<N extends string = string> = Record<N, number>;
/** One user's counter: a dimension in a period, keyed "total", "YYYY-MM" or "YYYY-MM-DD". */
export interface Counter<N extends string = string> {
  userId: string;
  dimension: N;
  period: string;
}
/** An amount to add to one counter. */
export interface Count<N extends string = string> extends Counter<N> {
  amount: number;
}

const snapshotQuery = (db: DbOrTx) =>
  db
    .select({ period: usageCounters.period, dimension: usageCounters.dimension, value: usageCounters.value })
    .from(usageCounters)
    .where(
      and(
        eq(usageCounters.userId, sql.placeholder("userId")),
        inArray(usageCounters.period, [sql.placeholder("total"), sql.placeholder("month"), sql.placeholder("day")]),
      ),
    )
    .prepare("usage_snapshot");

const totalQuery = (db: DbOrTx) =>
  db
    .select({ value: usageCounters.value })
    .from(usageCounters)
    .where(and(eq(usageCounters.userId, sql.placeholder("userId")), eq(usageCounters.period, TOTAL), eq(usageCounters.dimension, sql.placeholder("dimension"))))
    .prepare("usage_total");

const excludedValue = sql.raw("excluded.value");

export function createLedger<const D extends readonly Dimension[]>(dimensions: D) {
  type Name = D[number]["name"];
  type Measure = D[number]["counts"];
  const byName = new Map<string, Dimension>(dimensions.map((d) => [d.name, d]));
  const empty = Object.fromEntries(dimensions.map((d) => [d.name, 0])) as Snapshot<Name>;
  const amount = (d: Dimension, need: Need) => need[d.counts as Measure] ?? 0;

  /**
   * The first dimension `need` does not fit in `userId`'s `u`, as a refusal; null when it
   * fits. `planLimits`: the plan's own, where `limits` allow an overage.
   */
  function refusal(userId: string, u: Snapshot<Name>, limits: PlanLimits, need: Need<Measure>, now: Date, planLimits = limits): LimitRefusal | null {
    for (const d of dimensions) {
      if (d.refused === "never") continue;
      const add = amount(d, need);
      const limit = limitOf(d, limits);
      const used = u[d.name as Name] ?? 0;
      if (limit < 0 || add <= 0 || used + add <= limit) continue;
      const retryAt = d.refused === "rate" ? (PERIODS[d.period].endsAt(now) ?? undefined) : undefined;
      return new LimitRefusal(userId, d.name, used, limit, now, retryAt, limitOf(d, planLimits));
    }
    return null;
  }

  /** Every dimension's counter for this day, this month and in total, in one prepared query. */
  async function snapshot(db: DbOrTx, userId: string, now: Date): Promise<Snapshot<Name>> {
    const keys = { total: PERIODS.total.key(now), month: PERIODS.month.key(now), day: PERIODS.day.key(now) };
    const rows = await prepared(db, "usage_snapshot", snapshotQuery).execute({ userId, ...keys });
    const u = { ...empty };
    for (const r of rows) {
      const d = byName.get(r.dimension);
      if (d && keys[d.period] === r.period) u[d.name as Name] = r.value;
    }
    return u;
  }

  /** One all-time counter (a list's `total`): one row by its key, where a snapshot reads them all. */
  async function total(db: DbOrTx, userId: string, name: Name): Promise<number> {
    if (byName.get(name)?.period !== "total") throw new Error(`${name} is not an all-time counter`);
    const [row] = await prepared(db, "usage_total", totalQuery).execute({ userId, dimension: name });
    return row?.value ?? 0;
  }

  /** Throws a LimitRefusal when `need` does not fit in `u` (`userId`'s snapshot, read earlier). */
  function assertFits(userId: string, u: Snapshot<Name>, limits: PlanLimits, need: Need<Measure>, now: Date): void {
    const r = refusal(userId, u, limits, need, now);
    if (r) throw r;
  }

  /**
   * The authoritative check, in one statement: an upsert of every counter the need moves,
   * each updated only where it still fits its limit, returning the ones that moved. Row
   * locks make a concurrent need at the edge of a limit wait, and its condition is then
   * checked against what the first one wrote. Must run inside the transaction that writes
   * the counted rows: a refusal throws, and the rollback takes back any counter that did
   * move. A move past a quota mark is told to the user (notify.ts) against `planLimits`:
   * the plan's own limits, where `limits` allow an overage (conflict branches).
   */
  async function reserve(tx: Tx, userId: string, limits: PlanLimits, need: Need<Measure>, now: Date, planLimits = limits): Promise<void> {
    // Rows are upserted, and so locked, in the order of their names (byte order, as
    // release() locks them): two transactions that move the same counters cannot deadlock.
    const moving = dimensions.filter((d) => amount(d, need) > 0).sort((a, b) => (a.name < b.name ? -1 : 1));
    if (!moving.length) return;
    // What cannot fit an empty account is refused without a write; what can is inserted
    // as is where the user has no counter yet (the insert takes no condition).
    assertFits(userId, empty, limits, need, now);
    const capped = moving.filter((d) => d.refused !== "never" && limitOf(d, limits) >= 0);
    const fits = sql.join(
      capped.map((d) => sql`when ${d.name} then ${usageCounters.value} + ${excludedValue} <= ${limitOf(d, limits)}`),
      sql` `,
    );
    const moved = await tx
      .insert(usageCounters)
      .values(moving.map((d) => ({ userId, period: PERIODS[d.period].key(now), dimension: d.name, value: amount(d, need) })))
      .onConflictDoUpdate({
        target: [usageCounters.userId, usageCounters.period, usageCounters.dimension],
        set: { value: sql`${usageCounters.value} + ${excludedValue}` },
        setWhere: capped.length ? sql`case ${usageCounters.dimension} ${fits} else true end` : undefined,
      })
      .returning({ dimension: usageCounters.dimension, value: usageCounters.value });
    if (moved.length === moving.length) {
      const moves = moved.map(({ dimension, value }) => {
        const d = byName.get(dimension)!;
        return { userId, dimension: d, period: PERIODS[d.period].key(now), limit: limitOf(d, planLimits), before: value - amount(d, need), after: value };
      });
      await tellQuotaCrossings(tx, moves, now);
      return;
    }

    // Refused. Report the counter that did not move, at its value now; the ones that did
    // move are taken back out first, so the report is what the check saw.
    const u = await snapshot(tx, userId, now);
    for (const { dimension } of moved) u[dimension as Name] -= amount(byName.get(dimension)!, need);
    // Unless a delete made room between the two statements: nothing to report but the race.
    throw refusal(userId, u, limits, need, now, planLimits) ?? new LimitRaced();
  }

  /**
   * Gives back what deleted rows held (same transaction as the delete). Only totals are
   * given back: a day's or month's count measures what was done, not what is kept.
   */
  async function release(tx: DbOrTx, userId: string, freed: Need<Measure>): Promise<void> {
    const back = dimensions.filter((d) => d.period === "total" && amount(d, freed) > 0);
    if (!back.length) return;
    const by = sql.join(
      back.map((d) => sql`when ${d.name} then ${amount(d, freed)}`),
      sql` `,
    );
    const mine = and(eq(usageCounters.userId, userId), eq(usageCounters.period, TOTAL));
    // Locked in the order of their names first, as reserve() locks them.
    const locked = tx
      .select({ dimension: usageCounters.dimension })
      .from(usageCounters)
      .where(
        and(
          mine,
          inArray(
            usageCounters.dimension,
            back.map((d) => d.name),
          ),
        ),
      )
      .orderBy(sql`${usageCounters.dimension} collate "C"`)
      .for("update")
      .as("locked");
    await tx
      .update(usageCounters)
      .set({ value: sql`greatest(0, ${usageCounters.value} - case ${usageCounters.dimension} ${by} else 0 end)` })
      .from(locked)
      .where(and(mine, eq(usageCounters.dimension, locked.dimension)));
  }

  /**
   * Adds measured use without a limit check (bandwidth is counted after it was served), in
   * one statement. Amounts for the same counter are summed first; users deleted meanwhile
   * are skipped. Returns the counters that moved, each with its value now.
   */
  async function add(db: DbOrTx, counts: readonly Count<Name>[]): Promise<(Counter<Name> & { value: number })[]> {
    const live = counts.filter((c) => c.amount > 0);
    for (const c of live) if (!byName.has(c.dimension)) throw new Error(`unknown usage dimension: ${c.dimension}`);
    if (!live.length) return [];
    const batch = JSON.stringify(live.map((c) => ({ user_id: c.userId, period: c.period, dimension: c.dimension, amount: c.amount })));
    const result = await db.execute(sql`
      insert into ${usageCounters} (user_id, period, dimension, value)
      select v.user_id, v.period, v.dimension, sum(v.amount)
      from json_to_recordset(${batch}::json) as v(user_id text, period text, dimension text, amount bigint)
      where ${userExists(sql`v.user_id`)}
      group by v.user_id, v.period, v.dimension
      on conflict (user_id, period, dimension) do update set value = ${usageCounters}.value + excluded.value
      returning user_id as "userId", dimension, period, value`);
    // postgres.js reads a bigint as a string.
    return rowsOf<Counter<Name> & { value: number | string }>(result).map((r) => ({ ...r, value: Number(r.value) }));
  }

  return { dimensions, snapshot, total, assertFits, reserve, release, add };
}

/** The production ledger. */
export const ledger = createLedger(DIMENSIONS);
export type UsageSnapshot = Snapshot<(typeof DIMENSIONS)[number]["name"]>;
