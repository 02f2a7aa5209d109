// The same behaviour from both kv implementations; Redis runs when REDIS_URL is set.
// Expiry is observed without racing the wall clock: the in-process kv measures time on a
// clock the test moves; Redis measures it on its own, so the test waits for Redis to drop
// the key, however long that takes on a busy machine.
import { afterAll, describe, expect, test } from "bun:test";
import { Redis } from "ioredis";
import { createMemoryKv, type Kv } from "../../src/infra/kv/index.ts";
import { createRedisKv } from "../../src/infra/kv/redis.ts";
import { createLog } from "../../src/infra/log.ts";
import { stoppedClock } from "../helpers/clock.ts";
import { inbox } from "../helpers/events.ts";

interface Impl {
  kv: Kv;
  /** Lets `ms` pass for `key`, which was given a TTL of at most `ms`. */
  elapse(key: string, ms: number): Promise<void>;
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
    close: () => kv.close(),
  };
}

async function redis(url: string): Promise<Impl> {
  const kv = await createRedisKv(url, createLog("silent"));
  const probe = new Redis(url, { lazyConnect: true });
  const events = new Redis(url, { lazyConnect: true });
  await Promise.all([probe.connect(), events.connect()]);
  // Redis announces each key it expires: the test waits for that event, not for a time.
  await probe.config("SET", "notify-keyspace-events", "Ex");
  const expired = new Map<string, () => void>();
  events.on("message", (_channel, key: string) => expired.get(key)?.());
  await events.subscribe("__keyevent@0__:expired");
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

    test("sliding window allows the limit, refuses the next, recovers after the window", async () => {
      const { kv, elapse } = await implP;
      const key = k("win");
      const results = await Promise.all(Array.from({ length: 7 }, () => kv.slidingWindow(key, 5, WINDOW)));
      expect(results.filter((r) => r.allowed)).toHaveLength(5);
      const refused = results.find((r) => !r.allowed)!;
      expect(refused.remaining).toBe(0);
      expect(refused.resetMs).toBeGreaterThan(0);
      expect(refused.resetMs).toBeLessThanOrEqual(WINDOW);
      await elapse(key, WINDOW);
      const again = await kv.slidingWindow(key, 5, WINDOW);
      expect(again.allowed).toBe(true);
      expect(again.remaining).toBe(4);
    });

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
