// Every all-time counter must equal the sum of the rows it counts (counters move
// with their rows, and decrease when a resource is deleted). Each kind of stored thing
// (images, videos, audio, documents) recounts an owner's rows by what the ledger
// counts; verify compares that with usage_counters, and fix sets the counters to it.
import { and, eq, inArray, sql } from "drizzle-orm";
import type { Db, DbOrTx } from "../../infra/db/index.ts";
import { lockUser, userIdsAfter } from "../identity/public.ts";
import { DIMENSIONS, TOTAL } from "./dimensions.ts";
import type { Need } from "./ledger.ts";
import { usageCounters } from "./table.ts";

/**
 * A kind of stored thing, as the operator work sees it: its objects in the store (the
 * orphan sweep) and what its rows hold in the ledger (usage verify). Each module that
 * stores objects exports one; a new kind is one more entry in the list the jobs use.
 */
export interface StoredKind {
  readonly name: string;
  /** Every object of the kind is under this prefix ("images/"). */
  readonly prefix: string;
  /** Of `keys` (under the prefix), the ones a row still names. */
  referenced(db: DbOrTx, keys: readonly string[]): Promise<Set<string>>;
  /** The keys rows name, `limit` at a time, after a cursor of the kind's own (null: from the start). */
  namedKeys(db: DbOrTx, after: string | null, limit: number): Promise<{ keys: string[]; next: string | null }>;
  /**
   * Of multipart uploads begun under the prefix (S3), the upload ids a row still names:
   * an upload that takes its parts over hours (a resumable upload) is not abandoned
   * because it is old. Without it every old one is.
   */
  keptUploads?(db: DbOrTx, uploads: readonly { key: string; uploadId: string }[]): Promise<Set<string>>;
  /** What each of `userIds`' rows hold, by what the ledger counts (`{ imageBytes, images }`); a user with none may be absent. */
  recount(db: DbOrTx, userIds: readonly string[]): Promise<Map<string, Need>>;
  /**
   * Rows that hold an object nothing needs any more, left alone since before `before` (a
   * KB file's bytes that no path or branch links): deleted, with what they counted given
   * back, so the sweep then finds their objects orphaned. How many went.
   */
  releaseUnneeded?(db: Db, before: Date, signal?: AbortSignal): Promise<number>;
}

/** The all-time dimensions: the ones rows are counted in (period counters measure activity). */
const HELD = DIMENSIONS.filter((d) => d.period === "total");

export interface CounterDifference {
  userId: string;
  dimension: string;
  /** What usage_counters says (0 when there is no counter). */
  counter: number;
  /** The sum of the rows. */
  rows: number;
}

/** Each user's differences, for a page of users at once (a query per kind, not per user). */
async function differences(db: DbOrTx, kinds: readonly StoredKind[], userIds: readonly string[]): Promise<CounterDifference[]> {
  if (!userIds.length) return [];
  const sums = new Map<string, Record<string, number>>(userIds.map((u) => [u, {}]));
  for (const kind of kinds) {
    for (const [userId, need] of await kind.recount(db, userIds)) {
      const sum = sums.get(userId);
      if (sum) for (const [k, v] of Object.entries(need)) sum[k] = (sum[k] ?? 0) + (v ?? 0);
    }
  }
  const counters = await db
    .select({ userId: usageCounters.userId, dimension: usageCounters.dimension, value: usageCounters.value })
    .from(usageCounters)
    .where(
      and(
        inArray(usageCounters.userId, [...userIds]),
        eq(usageCounters.period, TOTAL),
        inArray(
          usageCounters.dimension,
          HELD.map((d) => d.name),
        ),
      ),
    );
  const counted = new Map(counters.map((c) => [`${c.userId}:${c.dimension}`, c.value]));
  return userIds.flatMap((userId) =>
    HELD.flatMap((d) => {
      const counter = counted.get(`${userId}:${d.name}`) ?? 0;
      const rows = sums.get(userId)![d.counts] ?? 0;
      return counter === rows ? [] : [{ userId, dimension: d.name, counter, rows }];
    }),
  );
}

/**
 * Sets a user's counters to the sum of their rows, in one transaction under the user's
 * lock. The counters are locked first (in name order, as reserve and release lock them),
 * so an upload or delete of the user waits; one that wrote its rows without moving a
 * counter yet adds its amount on top of the sum afterwards, which the sum did not see.
 * Returns what was set (empty when they agreed).
 */
async function fixUser(db: Db, kinds: readonly StoredKind[], userId: string): Promise<CounterDifference[]> {
  return db.transaction(async (tx) => {
    await lockUser(tx, userId);
    const names = HELD.map((d) => d.name).sort();
    await tx
      .insert(usageCounters)
      .values(names.map((dimension) => ({ userId, period: TOTAL, dimension, value: 0 })))
      .onConflictDoUpdate({ target: [usageCounters.userId, usageCounters.period, usageCounters.dimension], set: { value: sql`${usageCounters.value}` } });
    const diffs = await differences(tx, kinds, [userId]);
    for (const d of diffs) {
      await tx
        .update(usageCounters)
        .set({ value: d.rows })
        .where(and(eq(usageCounters.userId, userId), eq(usageCounters.period, TOTAL), eq(usageCounters.dimension, d.dimension)));
    }
    return diffs;
  });
}

/**
 * Every user's differences (or those of `userIds`), a page of users at a time (read
 * without locks: a write in flight may show); with `fix`, each user found is re-checked
 * and fixed under the lock.
 */
export async function verifyUsage(
  db: Db,
  kinds: readonly StoredKind[],
  opts: { fix?: boolean; signal?: AbortSignal; pageSize?: number; userIds?: readonly string[] } = {},
): Promise<{ users: number; differences: CounterDifference[] }> {
  const found: CounterDifference[] = [];
  let users = 0;
  let after: string | null = null;
  for (;;) {
    const page: string[] = opts.userIds ? (after === null ? [...opts.userIds] : []) : await userIdsAfter(db, after, opts.pageSize ?? 200);
    if (!page.length || opts.signal?.aborted) break;
    users += page.length;
    const diffs = await differences(db, kinds, page);
    if (opts.fix) {
      for (const userId of new Set(diffs.map((d) => d.userId))) {
        found.push(...(await fixUser(db, kinds, userId).catch((e) => (isGone(e) ? [] : Promise.reject(e)))));
      }
    } else found.push(...diffs);
    after = page.at(-1)!;
  }
  return { users, differences: found };
}

/** A user deleted between the page and the fix: nothing to fix. */
const isGone = (e: unknown) => (e as { code?: string })?.code === "NOT_FOUND";
