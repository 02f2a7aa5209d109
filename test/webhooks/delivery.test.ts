// The deliverer: retries with backoff until a 2xx, gives a delivery up after its last try,
// disables an endpoint whose deliveries keep failing and tells its owner; and never
// connects to a private, loopback or link-local address (literal, or a name resolving to
// one) unless the operator allows it, nor follows a redirect.
import { afterAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { and, eq } from "drizzle-orm";
import { Webhook } from "standardwebhooks";
import { notifications, outbox } from "../../src/modules/notifications/table.ts";
import { FAILURES_TO_DISABLE, MAX_ATTEMPTS, retryDelayMs } from "../../src/modules/webhooks/deliver.ts";
import { webhookDeliveries, webhookEndpoints } from "../../src/modules/webhooks/table.ts";
import { call, callJson } from "../helpers/context.ts";
import { makeUser } from "../helpers/factories.ts";
import { TEST_TIMEOUT_MS } from "../helpers/timeout.ts";
import { closeAll, createEndpoint, receiver, webhookWorld } from "./fixtures.ts";

setDefaultTimeout(TEST_TIMEOUT_MS);
afterAll(closeAll);

type World = Awaited<ReturnType<typeof webhookWorld>>;

async function queueTest(w: World, token: string, id: string) {
  const res = await w.api("POST", `/v1/webhooks/endpoints/${id}/test`, { token });
  expect(res.status).toBe(202);
  return res.body.data as { id: string; eventId: string };
}

async function deliveryRow(w: World, id: string) {
  const [row] = await w.deps.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.id, id));
  return row!;
}

describe("webhook delivery", () => {
  test("a failed delivery is retried after a backoff, with the same webhook-id, until the receiver answers 2xx", async () => {
    const w = await webhookWorld();
    const user = await makeUser();
    const r = receiver([new Response("down", { status: 503 }), new Response("still down", { status: 500 }), new Response("ok", { status: 204 })]);
    const ep = await createEndpoint(w, user.jwt, r.url, ["video.ready"]);
    const queued = await queueTest(w, user.jwt, ep.id);

    expect(await w.deliver()).toEqual({ delivered: 0, retried: 1, failed: 0 });
    let row = await deliveryRow(w, queued.id);
    expect(row).toMatchObject({ status: "pending", attempts: 1, responseStatus: 503, responseBody: "down", lastError: "answered 503" });
    // Not before its time.
    w.clock.advance(retryDelayMs(1) - 1000);
    expect(await w.deliver()).toEqual({ delivered: 0, retried: 0, failed: 0 });
    w.clock.advance(1000);
    expect(await w.deliver()).toEqual({ delivered: 0, retried: 1, failed: 0 });
    row = await deliveryRow(w, queued.id);
    expect(row.nextAttemptAt.getTime() - w.clock.nowMs()).toBe(retryDelayMs(2));
    expect(retryDelayMs(2)).toBeGreaterThan(retryDelayMs(1));
    w.clock.advance(retryDelayMs(2));
    expect(await w.deliver()).toEqual({ delivered: 1, retried: 0, failed: 0 });
    expect(r.got).toHaveLength(3);
    expect(new Set(r.got.map((g) => g.headers["webhook-id"]))).toEqual(new Set([queued.eventId]));
    row = await deliveryRow(w, queued.id);
    expect(row).toMatchObject({ status: "delivered", attempts: 3, responseStatus: 204, lastError: null });
    // Each try is signed afresh with its own timestamp; the last one verifies.
    const last = r.got[2]!;
    expect(last.headers["webhook-timestamp"]).toBe(String(Math.floor(w.clock.nowMs() / 1000)));
    expect(() => new Webhook(ep.secret).verify(last.body, { ...last.headers })).not.toThrow();
  });

  test("after deliveries keep failing the endpoint is disabled and its owner told, in the app and by e-mail; enabling it clears the count", async () => {
    const w = await webhookWorld();
    const user = await makeUser();
    const r = receiver([new Response("no", { status: 500 })]);
    const ep = await createEndpoint(w, user.jwt, r.url, ["video.ready"]);
    // Queued while the session is fresh: the world's clock then runs a day on.
    const queued = [];
    for (let n = 1; n <= FAILURES_TO_DISABLE; n++) queued.push(await queueTest(w, user.jwt, ep.id));
    for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
      await w.deliver();
      w.clock.advance(retryDelayMs(attempt));
    }
    for (const q of queued) expect((await deliveryRow(w, q.id)).status).toBe("failed");
    expect(r.got).toHaveLength(FAILURES_TO_DISABLE * MAX_ATTEMPTS);
    // The shared app's clock is the real one, where the session is still valid.
    const got = await callJson("GET", `/v1/webhooks/endpoints/${ep.id}`, { token: user.jwt });
    expect(got.body.data).toMatchObject({ enabled: false, failureCount: FAILURES_TO_DISABLE });
    expect(got.body.data.disabledReason).toContain("answered 500");
    const told = await w.deps.db
      .select()
      .from(notifications)
      .where(and(eq(notifications.userId, user.id), eq(notifications.kind, "webhook_disabled")));
    expect(told).toHaveLength(1);
    expect(told[0]!.data).toMatchObject({ endpointId: ep.id, url: r.url });
    const mailed = await w.deps.db
      .select()
      .from(outbox)
      .where(and(eq(outbox.userId, user.id), eq(outbox.kind, "webhook_disabled")));
    expect(mailed).toHaveLength(1);
    // Disabled: nothing more is sent, and a test is refused until it is enabled again.
    expect((await callJson("POST", `/v1/webhooks/endpoints/${ep.id}/test`, { token: user.jwt })).status).toBe(409);
    const enabled = await callJson("PATCH", `/v1/webhooks/endpoints/${ep.id}`, { token: user.jwt, json: { enabled: true } });
    expect(enabled.body.data).toMatchObject({ enabled: true, failureCount: 0, disabledReason: null });
    const [stored] = await w.deps.db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, ep.id));
    expect(stored!.failureCount).toBe(0);
  });
});

describe("webhook delivery refuses private addresses and redirects", () => {
  async function refusedDelivery(w: World, token: string, endpointId: string, net?: Parameters<World["deliver"]>[0]) {
    const queued = await queueTest(w, token, endpointId);
    expect(await w.deliver(net)).toEqual({ delivered: 0, retried: 1, failed: 0 });
    return deliveryRow(w, queued.id);
  }

  test("a literal loopback, IPv6 loopback or metadata address is refused when it connects, with the operator setting off", async () => {
    // Registered while allowed, then delivered by a node that does not allow it.
    const allowed = await webhookWorld(true);
    const strict = await webhookWorld(false);
    const user = await makeUser();
    const r = receiver();
    for (const url of [r.url, `http://[::1]:${r.port}/hook`, "http://169.254.169.254/latest/meta-data"]) {
      const ep = await createEndpoint(allowed, user.jwt, url, ["video.ready"]);
      const row = await refusedDelivery(strict, user.jwt, ep.id);
      expect(row.responseStatus, url).toBeNull();
      expect(row.lastError, url).toMatch(/not a public address/);
      expect((await call("DELETE", `/v1/webhooks/endpoints/${ep.id}`, { token: user.jwt, app: strict.app })).status).toBe(204);
    }
    expect(r.got).toHaveLength(0);
  });

  test("a name that resolves to loopback is refused, however the URL names it", async () => {
    const w = await webhookWorld(false);
    const user = await makeUser();
    const r = receiver();
    const ep = await createEndpoint(w, user.jwt, `http://hooks.rebind.test:${r.port}/hook`, ["video.ready"]);
    const lookup = async () => [{ address: "127.0.0.1", family: 4 }];
    const row = await refusedDelivery(w, user.jwt, ep.id, { lookup });
    expect(row.lastError).toMatch(/resolves to 127\.0\.0\.1/);
    expect(r.got).toHaveLength(0);
  });

  test("a name with a public and a private address is refused outright: which one a try picks never matters", async () => {
    const w = await webhookWorld(false);
    const user = await makeUser();
    const ep = await createEndpoint(w, user.jwt, "https://mixed.rebind.test/hook", ["video.ready"]);
    let connected = 0;
    const fetchImpl = (async () => {
      connected++;
      return new Response("ok");
    }) as unknown as typeof fetch;
    const lookup = async () => [
      { address: "93.184.216.34", family: 4 },
      { address: "169.254.169.254", family: 4 },
    ];
    const row = await refusedDelivery(w, user.jwt, ep.id, { lookup, fetchImpl });
    expect(row.lastError).toMatch(/169\.254\.169\.254/);
    expect(connected).toBe(0);
  });

  test("a receiver's huge answer is kept to its first KB", async () => {
    const w = await webhookWorld(true);
    const user = await makeUser();
    const r = receiver([new Response("x".repeat(5 * 1024 * 1024), { status: 400 })]);
    const ep = await createEndpoint(w, user.jwt, r.url, ["video.ready"]);
    const row = await refusedDelivery(w, user.jwt, ep.id);
    expect(row.responseStatus).toBe(400);
    expect(row.responseBody).toBe("x".repeat(1024));
  });

  test("a redirect is not followed: the 3xx is the answer, and the place it points at is never asked", async () => {
    const w = await webhookWorld(true);
    const user = await makeUser();
    const target = receiver();
    const r = receiver([new Response(null, { status: 307, headers: { location: target.url } })]);
    const ep = await createEndpoint(w, user.jwt, r.url, ["video.ready"]);
    const row = await refusedDelivery(w, user.jwt, ep.id);
    expect(row.responseStatus).toBe(307);
    expect(row.lastError).toMatch(/redirects are not followed/);
    expect(r.got).toHaveLength(1);
    expect(target.got).toHaveLength(0);
  });
});
