// The same behaviour from both kv implementations; Redis runs when REDIS_URL is set.
import { afterAll, describe, expect, test } from "bun:test";
import { createMemoryKv, type Kv } from "../../src/infra/kv/index.ts";
import { createRedisKv } from "../../src/infra/kv/redis.ts";
import { createLog } from "../../src/infra/log.ts";

const impls: [string, () => Promise<Kv>][] = [["memory", async () => createMemoryKv()]];
if (process.env.REDIS_URL) impls.push(["redis", () => createRedisKv(process.env.REDIS_URL!, createLog("silent"))]);

for (const [name, make] of impls) {
  describe(`kv (${name})`, () => {
    const kvP = make();
    const k = (s: string) => `test:${crypto.randomUUID()}:${s}`;
    afterAll(async () => (await kvP).close());

    test("incr is atomic under concurrency and expires", async () => {
      const kv = await kvP;
      const key = k("ctr");
      const results = await Promise.all(Array.from({ length: 50 }, () => kv.incr(key, 2, 200)));
      expect(new Set(results).size).toBe(50);
      expect(Math.max(...results)).toBe(100);
      await Bun.sleep(260);
      expect(await kv.get(key)).toBeNull();
    });

    test("get, set with ttl, del", async () => {
      const kv = await kvP;
      const key = k("s");
      await kv.set(key, "v", 150);
      expect(await kv.get(key)).toBe("v");
      await kv.del(key);
      expect(await kv.get(key)).toBeNull();
      await kv.set(key, "w", 100);
      await Bun.sleep(160);
      expect(await kv.get(key)).toBeNull();
    });

    test("sliding window allows the limit, refuses the next, recovers after the window", async () => {
      const kv = await kvP;
      const key = k("win");
      const results = await Promise.all(Array.from({ length: 7 }, () => kv.slidingWindow(key, 5, 400)));
      expect(results.filter((r) => r.allowed)).toHaveLength(5);
      const refused = results.find((r) => !r.allowed)!;
      expect(refused.remaining).toBe(0);
      expect(refused.resetMs).toBeGreaterThan(0);
      expect(refused.resetMs).toBeLessThanOrEqual(400);
      await Bun.sleep(450);
      const again = await kv.slidingWindow(key, 5, 400);
      expect(again.allowed).toBe(true);
      expect(again.remaining).toBe(4);
    });

    test("hash counters add up atomically and are claimed whole", async () => {
      const kv = await kvP;
      const key = k("h");
      await Promise.all([kv.hincrby(key, "a", 3), kv.hincrby(key, "a", 4), kv.hincrby(key, "b", 1)]);
      expect(await kv.claimHash(key, k("h-claimed"))).toEqual({ a: 7, b: 1 });
      await kv.del(k("h-claimed"));
      expect(await kv.claimHash(key, k("h-claimed"))).toEqual({});
    });

    test("a claimed hash stays claimed until deleted; later counts wait for the next claim", async () => {
      const kv = await kvP;
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
      const kv = await kvP;
      const key = k("lease");
      const t1 = await kv.acquireLease(key, 200);
      expect(t1).toBeString();
      expect(await kv.acquireLease(key, 200)).toBeNull();
      expect(await kv.renewLease(key, "not-the-token", 200)).toBe(false);
      expect(await kv.renewLease(key, t1!, 200)).toBe(true);
      await kv.releaseLease(key, "not-the-token");
      expect(await kv.acquireLease(key, 200)).toBeNull();
      await kv.releaseLease(key, t1!);
      const t2 = await kv.acquireLease(key, 100);
      expect(t2).toBeString();
      await Bun.sleep(150);
      expect(await kv.acquireLease(key, 100)).toBeString();
    });

    test("pub/sub delivers to subscribers until they leave", async () => {
      const kv = await kvP;
      const channel = k("ch");
      const got: string[] = [];
      const off = await kv.subscribe(channel, (m) => got.push(m));
      await kv.publish(channel, "one");
      for (let i = 0; i < 50 && got.length < 1; i++) await Bun.sleep(10);
      await off();
      await kv.publish(channel, "two");
      await Bun.sleep(50);
      expect(got).toEqual(["one"]);
    });
  });
}
