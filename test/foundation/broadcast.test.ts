// The broadcast to every node's caches, on both kv implementations (Redis when REDIS_URL is set).
// Every wait is on the event itself: a subscription in place, a message arrived.
import { afterAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { broadcast, listen } from "../../src/infra/broadcast.ts";
import { createMemoryKv, type Kv } from "../../src/infra/kv/index.ts";
import { createRedisKv } from "../../src/infra/kv/redis.ts";
import { createLog } from "../../src/infra/log.ts";
import { inbox } from "../helpers/events.ts";
import { TEST_TIMEOUT_MS } from "../helpers/timeout.ts";

setDefaultTimeout(TEST_TIMEOUT_MS);

const log = createLog("silent");
const impls: [string, () => Promise<Kv>][] = [["memory", async () => createMemoryKv()]];
if (process.env.REDIS_URL) impls.push(["redis", () => createRedisKv(process.env.REDIS_URL!, log)]);

/**
 * The kv, and a promise for every subscription asked of it so far being in place: listen()
 * subscribes in the background, and a message published before that is not heard.
 */
function watched(kv: Kv) {
  const pending: Promise<unknown>[] = [];
  const observed: Kv = {
    ...kv,
    subscribe(channel, onMessage) {
      const sub = kv.subscribe(channel, onMessage);
      pending.push(sub.catch(() => {}));
      return sub;
    },
  };
  return { kv: observed, subscribed: () => Promise.all(pending) };
}

for (const [name, make] of impls) {
  describe(`broadcast (${name})`, () => {
    const kvP = make();
    const channel = () => `test:${crypto.randomUUID()}`;
    afterAll(async () => (await kvP).close());

    test("reaches this process's listeners before it resolves, and theirs again through the kv", async () => {
      const { kv, subscribed } = watched(await kvP);
      const ch = channel();
      const got = inbox();
      const l = listen({ kv, log }, ch, got.push);
      await subscribed();
      const sent = broadcast({ kv, log }, ch, "one");
      expect(got.got).toEqual(["one"]); // synchronously, before the publish resolves
      await sent;
      await got.count(2);
      expect(got.got).toEqual(["one", "one"]);
      await l.close();
    });

    test("a message published on the kv by another node reaches the listener", async () => {
      const { kv, subscribed } = watched(await kvP);
      const ch = channel();
      const got = inbox();
      const l = listen({ kv, log }, ch, got.push);
      await subscribed();
      await kv.publish(ch, "from elsewhere");
      await got.count(1);
      expect(got.got).toEqual(["from elsewhere"]);
      await l.close();
    });

    test("a closed listener gets nothing more, from here or the kv", async () => {
      const { kv, subscribed } = watched(await kvP);
      const ch = channel();
      const got = inbox();
      const l = listen({ kv, log }, ch, got.push);
      await l.close();
      await l.close(); // idempotent
      // A listener that stays open: once it has heard both messages, here and through the
      // kv, the closed one has had every chance to hear them too.
      const open = inbox();
      const witness = listen({ kv, log }, ch, open.push);
      await subscribed();
      await broadcast({ kv, log }, ch, "local");
      await kv.publish(ch, "remote");
      await open.count(3);
      expect(open.got).toEqual(["local", "local", "remote"]);
      expect(got.got).toEqual([]);
      await witness.close();
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
    const onB = inbox();
    const l = listen({ kv: b, log }, "c", onB.push);
    // A listener on the sender's own kv: once the message is back from that kv, every
    // delivery it will ever get has happened.
    const sender = watched(a);
    const onA = inbox();
    const witness = listen({ kv: sender.kv, log }, "c", onA.push);
    await sender.subscribed();
    await broadcast({ kv: sender.kv, log }, "c", "not for b");
    await onA.count(2);
    expect(onB.got).toEqual([]);
    await Promise.all([l.close(), witness.close()]);
    await Promise.all([a.close(), b.close()]);
  });
});
