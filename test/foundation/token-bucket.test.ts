// The token bucket of both kv implementations (Redis when REDIS_URL is set): every call is
// given the test's instant, so refills are measured on a clock the test moves, never waited
// for. Redis expires a bucket's key on its own clock when the bucket would be full; each
// test here uses a bucket that takes minutes to fill, far longer than the test runs.
import { afterAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { Redis } from "ioredis";
import { createBuckets } from "../../src/http/buckets.ts";
import { createMemoryKv, type Kv } from "../../src/infra/kv/index.ts";
import { createRedisKv } from "../../src/infra/kv/redis.ts";
import { createLog } from "../../src/infra/log.ts";
import { stoppedClock } from "../helpers/clock.ts";
import { TEST_TIMEOUT_MS } from "../helpers/timeout.ts";

setDefaultTimeout(TEST_TIMEOUT_MS);

const impls: [string, () => Promise<Kv>][] = [["memory", async () => createMemoryKv()]];
if (process.env.REDIS_URL) impls.push(["redis", () => createRedisKv(process.env.REDIS_URL!, createLog("silent"))]);

const T0 = Date.UTC(2026, 10, 27, 12, 0, 0);

for (const [name, make] of impls) {
  describe(`token bucket (${name})`, () => {
    const kvP = make();
    afterAll(async () => (await kvP).close());
    const key = () => `test:tb:${crypto.randomUUID()}`;

    test("a full bucket allows its capacity at once, then refuses with the wait for one token", async () => {
      const kv = await kvP;
      const k = key();
      const remaining = [];
      for (let i = 0; i < 5; i++) {
        const r = await kv.tokenBucket(k, 5, 6, 1, T0);
        expect(r.allowed).toBe(true);
        remaining.push(r.remaining);
      }
      expect(remaining).toEqual([4, 3, 2, 1, 0]);
      // 6 a minute: one token every 10 s, exactly.
      expect(await kv.tokenBucket(k, 5, 6, 1, T0)).toEqual({ allowed: false, remaining: 0, retryAfterMs: 10_000 });
      expect(await kv.tokenBucket(k, 5, 6, 1, T0 + 9_999)).toEqual({ allowed: false, remaining: 0, retryAfterMs: 1 });
      expect(await kv.tokenBucket(k, 5, 6, 1, T0 + 10_000)).toEqual({ allowed: true, remaining: 0, retryAfterMs: 0 });
    });

    test("refills at its rate up to its capacity, never beyond", async () => {
      const kv = await kvP;
      const k = key();
      for (let i = 0; i < 3; i++) await kv.tokenBucket(k, 3, 6, 1, T0);
      // 6 a minute: one every 10 s; 25 s later two and a half tokens are back.
      expect(await kv.tokenBucket(k, 3, 6, 1, T0 + 25_000)).toEqual({ allowed: true, remaining: 1, retryAfterMs: 0 });
      // The half token left is kept: the next whole one is 5 s away, after one more call.
      await kv.tokenBucket(k, 3, 6, 1, T0 + 25_000);
      expect(await kv.tokenBucket(k, 3, 6, 1, T0 + 25_000)).toEqual({ allowed: false, remaining: 0, retryAfterMs: 5_000 });
      // An hour idle fills it to its capacity, not to an hour's refill.
      const later = T0 + 3_600_000;
      expect((await kv.tokenBucket(k, 3, 6, 1, later)).remaining).toBe(2);
    });

    test("a cost above one takes that many tokens, and its wait is for all of them", async () => {
      const kv = await kvP;
      const k = key();
      expect(await kv.tokenBucket(k, 100, 60, 70, T0)).toEqual({ allowed: true, remaining: 30, retryAfterMs: 0 });
      // 40 asked, 30 there: 10 more at one a second is 10 s. Nothing is taken by the refusal.
      expect(await kv.tokenBucket(k, 100, 60, 40, T0)).toEqual({ allowed: false, remaining: 30, retryAfterMs: 10_000 });
      expect(await kv.tokenBucket(k, 100, 60, 30, T0)).toEqual({ allowed: true, remaining: 0, retryAfterMs: 0 });
      // More than the capacity needs a full bucket and empties it: it is not refused forever.
      const big = key();
      expect(await kv.tokenBucket(big, 10, 6, 25, T0)).toEqual({ allowed: true, remaining: 0, retryAfterMs: 0 });
      expect(await kv.tokenBucket(big, 10, 6, 25, T0 + 10_000)).toEqual({ allowed: false, remaining: 1, retryAfterMs: 90_000 });
    });

    test("a clock that goes back refills nothing and takes nothing twice", async () => {
      const kv = await kvP;
      const k = key();
      await kv.tokenBucket(k, 2, 6, 2, T0 + 5_000);
      expect(await kv.tokenBucket(k, 2, 6, 1, T0)).toEqual({ allowed: false, remaining: 0, retryAfterMs: 10_000 });
      expect((await kv.tokenBucket(k, 2, 6, 1, T0 + 15_000)).allowed).toBe(true);
    });

    test("calls at once never spend more than the bucket holds", async () => {
      const kv = await kvP;
      const k = key();
      const answers = await Promise.all(Array.from({ length: 200 }, () => kv.tokenBucket(k, 50, 1, 1, T0)));
      expect(answers.filter((r) => r.allowed)).toHaveLength(50);
      expect(answers.filter((r) => !r.allowed).every((r) => r.retryAfterMs === 60_000)).toBe(true);
      // With costs of 3 against 50 tokens: 16 calls (48 tokens), never a 17th.
      const k3 = key();
      const threes = await Promise.all(Array.from({ length: 40 }, () => kv.tokenBucket(k3, 50, 1, 3, T0)));
      expect(threes.filter((r) => r.allowed)).toHaveLength(16);
    });

    test("the helper reads the rate per user and bucket, and refuses with 429 RATE_LIMITED and an exact Retry-After", async () => {
      const kv = await kvP;
      const clock = stoppedClock(T0);
      const buckets = createBuckets(kv, createLog("silent"), {
        clock,
        rateOf: async (_user, bucket) => (bucket === "syncOp" ? { capacity: 10, refillPerMinute: 12 } : { capacity: -1, refillPerMinute: 1 }),
      });
      const user = crypto.randomUUID();
      await buckets.take(user, "syncOp", 8);
      const refusal = await buckets.take(user, "syncOp", 3).then(
        () => undefined,
        (e) => e,
      );
      expect(refusal).toMatchObject({ code: "RATE_LIMITED", status: 429 });
      // 2 left, 3 asked: one more at 12 a minute is 5 s.
      expect(refusal.meta).toEqual({ bucket: "syncOp", capacity: 10, refillPerMinute: 12, cost: 3, retryAfterMs: 5_000 });
      expect(refusal.headers).toMatchObject({ "retry-after": "5", "ratelimit-limit": "10", "ratelimit-remaining": "0", "ratelimit-reset": "5" });
      clock.advance(4_999);
      await expect(buckets.take(user, "syncOp", 3)).rejects.toMatchObject({ headers: { "retry-after": "1" } });
      clock.advance(1);
      await buckets.take(user, "syncOp", 3);
      // A capacity of -1 is no bucket at all.
      for (let i = 0; i < 1000; i++) await buckets.take(user, "upload");
    });

    test("when the kv fails the buckets are kept per process, never a 500", async () => {
      const kv = await kvP;
      const down: Kv = { ...kv, tokenBucket: async () => Promise.reject(new Error("ECONNREFUSED")) };
      const buckets = createBuckets(down, createLog("silent"), { clock: stoppedClock(T0), rateOf: async () => ({ capacity: 2, refillPerMinute: 1 }) });
      const user = crypto.randomUUID();
      await buckets.take(user, "upload");
      await buckets.take(user, "upload");
      await expect(buckets.take(user, "upload")).rejects.toMatchObject({ code: "RATE_LIMITED", headers: { "retry-after": "60" } });
    });
  });
}

if (process.env.REDIS_URL) {
  test("on Redis a bucket's key expires when the bucket would be full again", async () => {
    const kv = await createRedisKv(process.env.REDIS_URL!, createLog("silent"));
    const probe = new Redis(process.env.REDIS_URL!);
    try {
      const k = `test:tb:${crypto.randomUUID()}`;
      await kv.tokenBucket(k, 5, 6, 3, T0);
      // 3 tokens missing at one per 10 s: full in 30 s.
      const ttl = await probe.pttl(k);
      expect(ttl).toBeGreaterThan(25_000);
      expect(ttl).toBeLessThanOrEqual(30_000);
    } finally {
      await Promise.all([kv.close(), probe.quit()]);
    }
  });
}

test("an idle bucket's state goes when it would be full: a full bucket is no key", async () => {
  const kv = createMemoryKv();
  await kv.tokenBucket("k", 2, 60, 1, T0);
  // Full again 1 s later: the state of an earlier call is not read, a fresh full bucket is.
  expect(await kv.tokenBucket("k", 2, 60, 2, T0 + 1_000)).toEqual({ allowed: true, remaining: 0, retryAfterMs: 0 });
  await kv.close();
});
