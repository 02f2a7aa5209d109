// The broadcast to every node's caches, on both kv implementations (Redis when REDIS_URL is set).
import { afterAll, describe, expect, test } from "bun:test";
import { broadcast, listen } from "../../src/infra/broadcast.ts";
import { createMemoryKv, type Kv } from "../../src/infra/kv/index.ts";
import { createRedisKv } from "../../src/infra/kv/redis.ts";
import { createLog } from "../../src/infra/log.ts";

const log = createLog("silent");
const impls: [string, () => Promise<Kv>][] = [["memory", async () => createMemoryKv()]];
if (process.env.REDIS_URL) impls.push(["redis", () => createRedisKv(process.env.REDIS_URL!, log)]);

const until = async (cond: () => boolean) => {
  for (let i = 0; i < 100 && !cond(); i++) await Bun.sleep(10);
};

for (const [name, make] of impls) {
  describe(`broadcast (${name})`, () => {
    const kvP = make();
    const channel = () => `test:${crypto.randomUUID()}`;
    afterAll(async () => (await kvP).close());

    test("reaches this process's listeners before it resolves, and theirs again through the kv", async () => {
      const kv = await kvP;
      const ch = channel();
      const got: string[] = [];
      const l = listen({ kv, log }, ch, (m) => got.push(m));
      await Bun.sleep(20); // subscribed
      const sent = broadcast({ kv, log }, ch, "one");
      expect(got).toEqual(["one"]); // synchronously, before the publish resolves
      await sent;
      await until(() => got.length === 2);
      expect(got).toEqual(["one", "one"]);
      await l.close();
    });

    test("a message published on the kv by another node reaches the listener", async () => {
      const kv = await kvP;
      const ch = channel();
      const got: string[] = [];
      const l = listen({ kv, log }, ch, (m) => got.push(m));
      await Bun.sleep(20);
      await kv.publish(ch, "from elsewhere");
      await until(() => got.length === 1);
      expect(got).toEqual(["from elsewhere"]);
      await l.close();
    });

    test("a closed listener gets nothing more, from here or the kv", async () => {
      const kv = await kvP;
      const ch = channel();
      const got: string[] = [];
      const l = listen({ kv, log }, ch, (m) => got.push(m));
      await l.close();
      await l.close(); // idempotent
      await broadcast({ kv, log }, ch, "local");
      await kv.publish(ch, "remote");
      await Bun.sleep(50);
      expect(got).toEqual([]);
    });
  });
}

describe("broadcast when the kv's pub/sub is down", () => {
  test("this process's listeners still get every message, and nothing throws", async () => {
    const down: Kv = {
      ...createMemoryKv(),
      publish: () => Promise.reject(new Error("connection refused")),
      subscribe: () => Promise.reject(new Error("connection refused")),
    };
    const got: string[] = [];
    const l = listen({ kv: down, log }, "c", (m) => got.push(m));
    await broadcast({ kv: down, log }, "c", "still here");
    expect(got).toEqual(["still here"]);
    await l.close();
    await broadcast({ kv: down, log }, "c", "after close");
    expect(got).toEqual(["still here"]);
  });

  test("listeners on another kv (another deployment) are not reached in process", async () => {
    const a = createMemoryKv();
    const b = createMemoryKv();
    const got: string[] = [];
    const l = listen({ kv: b, log }, "c", (m) => got.push(m));
    await broadcast({ kv: a, log }, "c", "not for b");
    await Bun.sleep(20);
    expect(got).toEqual([]);
    await l.close();
    await Promise.all([a.close(), b.close()]);
  });
});
