// The same behaviour from both kv implementations; Redis runs when REDIS_URL is set.
// Expiry is observed without racing the wall clock: the in-process kv measures time on a
// clock the test moves; Redis measures it on its own, so the test waits for Redis to drop
// the key, however long that takes on a busy machine. The sliding window is cut from a time
// the caller gives: Redis is given the test's instants, the in-process kv reads them from
// its clock, so neither test waits.
import { afterAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { Redis } from "ioredis";
import { createMemoryKv, type Kv, type WindowResult } from "../../src/infra/kv/index.ts";
import { createRedisKv } from "../../src/infra/kv/redis.ts";
import { createLog } from "../../src/infra/log.ts";
import { stoppedClock } from "../helpers/clock.ts";
import { inbox } from "../helpers/events.ts";
import { TEST_TIMEOUT_MS } from "../helpers/timeout.ts";

setDefaultTimeout(TEST_TIMEOUT_MS);

interface Impl {
  kv: Kv;
  /** Lets `ms` pass for `key`, which was given a TTL of at most `ms`. */
  elapse(key: string, ms: number): Promise<void>;
  /** The sliding window at instant `at`, which never goes back between two calls. */
  windowAt(key: string, limit: number, windowMs: number, at: number): Promise<WindowResult>;
  /** An instant no earlier than any `at` given so far. */
  now(): number;
  close(): Promise<void>;
}

function memory(): Impl {
  const clock = stoppedClock();
  const kv = createMemoryKv({ clock });
  return {
    kv,
    async elapse(_key, ms) {
      clock.advance(ms);
    },
    windowAt(key, limit, windowMs, at) {
      clock.advance(at - clock.nowMs());
      return kv.slidingWindow(key, limit, windowMs);
    },
    now: () => clock.nowMs(),
    close: () => kv.close(),
  };
}

/**
 * A database of the Redis of its own, emptied first. Redis expires keys by sampling the
 * keys that have a TTL, so the thousands the rest of the suite leaves (limits, counters)
 * would delay the expiries these tests wait for by seconds.
 */
const OWN_DB = 7;

async function redis(shared: string): Promise<Impl> {
  const own = new URL(shared);
  own.pathname = `/${OWN_DB}`;
  const url = own.toString();
  const kv = await createRedisKv(url, createLog("silent"));
  const probe = new Redis(url, { lazyConnect: true });
  const events = new Redis(url, { lazyConnect: true });
  await Promise.all([probe.connect(), events.connect()]);
  await probe.flushdb();
  // Redis announces each key it expires: the test waits for that event, not for a time.
  await probe.config("SET", "notify-keyspace-events", "Ex");
  const expired = new Map<string, () => void>();
  events.on("message", (_channel, key: string) => expired.get(key)?.());
  await events.subscribe(`__keyevent@${OWN_DB}__:expired`);
  return {
    kv,
    async elapse(key, ms) {
      const gone = new Promise<void>((resolve) => expired.set(key, resolve));
      const ttl = await probe.pttl(key);
      expect(ttl).not.toBe(-1); // a key without an expiry would never go
      expect(ttl).toBeLessThanOrEqual(ms);
      // Already expired (-2) before the subscription could hear it; else its event comes.
      if (ttl >= 0) await gone;
      expired.delete(key);
    },
    windowAt: (key, limit, windowMs, at) => kv.slidingWindow(key, limit, windowMs, at),
    now: () => Date.now(),
    async close() {
      await Promise.all([kv.close(), probe.quit(), events.quit()]);
    },
  };
}

const impls: [string, () => Promise<Impl>][] = [["memory", async () => memory()]];
if (process.env.REDIS_URL) impls.push(["redis", () => redis(process.env.REDIS_URL!)]);

/** A TTL no step of a test can outlast: for keys that must still be there. */
const LONG = 60_000;
/** The shortest TTL Redis takes: for keys a test waits to see expire. */
const SHORT = 1;
/** Long enough for Redis to count a burst of calls within one window, short enough to wait out. */
const WINDOW = 1_000;

for (const [name, make] of impls) {
  describe(`kv (${name})`, () => {
    const implP = make();
    const k = (s: string) => `test:${crypto.randomUUID()}:${s}`;
    afterAll(async () => (await implP).close());

    test("incr is atomic under concurrency and expires", async () => {
      const { kv, elapse } = await implP;
      const key = k("ctr");
      const results = await Promise.all(Array.from({ length: 50 }, () => kv.incr(key, 2, LONG)));
      expect(new Set(results).size).toBe(50);
      expect(Math.max(...results)).toBe(100);
      const brief = k("ctr-brief");
      expect(await kv.incr(brief, 2, SHORT)).toBe(2);
      await elapse(brief, SHORT);
      expect(await kv.get(brief)).toBeNull();
    });

    test("get, set with ttl, del", async () => {
      const { kv, elapse } = await implP;
      const key = k("s");
      await kv.set(key, "v", LONG);
      expect(await kv.get(key)).toBe("v");
      await kv.del(key);
      expect(await kv.get(key)).toBeNull();
      await kv.set(key, "w", SHORT);
      await elapse(key, SHORT);
      expect(await kv.get(key)).toBeNull();
    });

    test("sliding window allows the limit, refuses the next, admits again when it said", async () => {
      const { windowAt, now } = await implP;
      const key = k("win");
      // Halfway through a window: the refusal's wait runs into the next one.
      const t0 = (Math.floor(now() / WINDOW) + 1) * WINDOW + WINDOW / 2;
      const results = await Promise.all(Array.from({ length: 7 }, () => windowAt(key, 5, WINDOW, t0)));
      expect(results.filter((r) => r.allowed)).toHaveLength(5);
      expect(results.map((r) => r.remaining).sort()).toEqual([0, 0, 0, 1, 2, 3, 4]);
      const refused = results.find((r) => !r.allowed)!;
      expect(refused.remaining).toBe(0);
      expect(refused.resetMs).toBeGreaterThan(0);
      expect(refused.resetMs).toBeLessThanOrEqual(WINDOW);
      // Refused calls were not counted: one more fits exactly when the refusal said.
      expect((await windowAt(key, 5, WINDOW, t0 + refused.resetMs - 1)).allowed).toBe(false);
      expect((await windowAt(key, 5, WINDOW, t0 + refused.resetMs)).allowed).toBe(true);
      expect((await windowAt(key, 5, WINDOW, t0 + refused.resetMs)).allowed).toBe(false);
      const again = await windowAt(key, 5, WINDOW, t0 + 3 * WINDOW);
      expect(again.allowed).toBe(true);
      expect(again.remaining).toBe(4);
    });

    // The bound: a steady stream (one call every windowMs / (rate * limit)) that has run for
    // two windows is admitted, in any span of windowMs, within one call of what an exact
    // sliding window (a log of every admitted call) admits, whether it is under, at or over
    // the limit and wherever the span falls against the counter's window boundaries: within
    // 2% for every limit of 50 or more. Not bounded: the first window of a burst that starts
    // in the middle of a window, or uneven traffic (see src/infra/kv/window.ts).
    test("a steady stream across window boundaries is admitted within 2% of an exact sliding window", async () => {
      const { windowAt, now } = await implP;
      const W = 60_000;
      const cases = [
        { limit: 60, rate: 0.9, phase: 0 },
        { limit: 60, rate: 1.1, phase: 0.3 },
        { limit: 60, rate: 5, phase: 0.77 },
        { limit: 600, rate: 0.5, phase: 0.5 },
        { limit: 600, rate: 1, phase: 0.77 },
        { limit: 600, rate: 2, phase: 0.3 },
      ];
      for (const { limit, rate, phase } of cases) {
        const key = k(`steady-${limit}-${rate}`);
        const first = (Math.floor(now() / W) + 1) * W;
        const start = first + phase * W;
        const step = W / (rate * limit);
        const exactLog: number[] = [];
        const admitted: number[] = [];
        const exact: number[] = [];
        for (let i = 0, t = Math.round(start); t < start + 5 * W; i++, t = Math.round(start + i * step)) {
          if ((await windowAt(key, limit, W, t)).allowed) admitted.push(t);
          while (exactLog.length && exactLog[0]! <= t - W) exactLog.shift();
          if (exactLog.length < limit) {
            exactLog.push(t);
            exact.push(t);
          }
        }
        const within = (ts: number[], from: number) => ts.filter((t) => t >= from && t < from + W).length;
        // Spans of one window from the fourth boundary on: before it, across it, from it.
        for (const offset of [-0.5, -0.1, 0, 0.01, 0.3, 0.9]) {
          const from = first + 3 * W + offset * W;
          const [got, want] = [within(admitted, from), within(exact, from)];
          const off = Math.abs(got - want);
          expect({ limit, rate, offset, got, want, ok: off <= 1 && off <= 0.02 * want }).toMatchObject({ ok: true });
        }
      }
    }, 60_000); // some 12,600 calls one after another (a Redis round trip each): a bound for a busy machine, not a wait

    test("hash counters add up atomically and are claimed whole", async () => {
      const { kv } = await implP;
      const key = k("h");
      await Promise.all([kv.hincrby(key, "a", 3), kv.hincrby(key, "a", 4), kv.hincrby(key, "b", 1)]);
      expect(await kv.claimHash(key, k("h-claimed"))).toEqual({ a: 7, b: 1 });
      await kv.del(k("h-claimed"));
      expect(await kv.claimHash(key, k("h-claimed"))).toEqual({});
    });

    test("a claimed hash stays claimed until deleted; later counts wait for the next claim", async () => {
      const { kv } = await implP;
      const live = k("live");
      const claimed = k("claimed");
      expect(await kv.claimHash(live, claimed)).toEqual({});
      await Promise.all([kv.hincrby(live, "a", 3), kv.hincrby(live, "b", 1)]);
      expect(await kv.claimHash(live, claimed)).toEqual({ a: 3, b: 1 });
      await kv.hincrby(live, "a", 5); // served while the first claim is processed
      // The processing died before deleting its claim: the next claim gets the same counts.
      expect(await kv.claimHash(live, claimed)).toEqual({ a: 3, b: 1 });
      await kv.del(claimed);
      expect(await kv.claimHash(live, claimed)).toEqual({ a: 5 });
      await kv.del(claimed);
      expect(await kv.claimHash(live, claimed)).toEqual({});
    });

    test("a lease excludes others until released or expired", async () => {
      const { kv, elapse } = await implP;
      const key = k("lease");
      const t1 = await kv.acquireLease(key, LONG);
      expect(t1).toBeString();
      expect(await kv.acquireLease(key, LONG)).toBeNull();
      expect(await kv.renewLease(key, "not-the-token", LONG)).toBe(false);
      expect(await kv.renewLease(key, t1!, LONG)).toBe(true);
      await kv.releaseLease(key, "not-the-token");
      expect(await kv.acquireLease(key, LONG)).toBeNull();
      await kv.releaseLease(key, t1!);
      const t2 = await kv.acquireLease(key, SHORT);
      expect(t2).toBeString();
      await elapse(key, SHORT);
      expect(await kv.acquireLease(key, SHORT)).toBeString();
    });

    test("pub/sub delivers to subscribers until they leave", async () => {
      const { kv } = await implP;
      const channel = k("ch");
      const left = inbox();
      const off = await kv.subscribe(channel, left.push);
      await kv.publish(channel, "one");
      await left.count(1);
      await off();
      // A subscriber that stays: once it has "two", the one that left would have had it too.
      const stays = inbox();
      const offStays = await kv.subscribe(channel, stays.push);
      await kv.publish(channel, "two");
      await stays.count(1);
      expect(stays.got).toEqual(["two"]);
      expect(left.got).toEqual(["one"]);
      await offStays();
    });
  });
}
