// /v1/webhooks/endpoints: registering (the secret once), listing, reading, changing,
// rotating, deleting, the delivery log and the test event; another user's endpoint is 404;
// API keys may read but not register.
import { afterAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { Webhook } from "standardwebhooks";
import { makeKey, makeUser } from "../helpers/factories.ts";
import { TEST_TIMEOUT_MS } from "../helpers/timeout.ts";
import { closeAll, createEndpoint, receiver, webhookWorld } from "./fixtures.ts";

setDefaultTimeout(TEST_TIMEOUT_MS);
afterAll(closeAll);

describe("webhook endpoints", () => {
  test("an endpoint is registered with its secret shown once, listed, read, changed and deleted", async () => {
    const w = await webhookWorld();
    const user = await makeUser();
    const created = await w.api("POST", "/v1/webhooks/endpoints", { token: user.jwt, json: { url: "https://hooks.example.com/in", events: ["video.ready"] } });
    expect(created.status).toBe(201);
    expect(created.body.success).toBe(true);
    const ep = created.body.data;
    expect(ep.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(ep).toMatchObject({ url: "https://hooks.example.com/in", events: ["video.ready"], enabled: true, disabledReason: null, failureCount: 0 });

    const got = await w.api("GET", `/v1/webhooks/endpoints/${ep.id}`, { token: user.jwt });
    expect(got.status).toBe(200);
    expect(got.body.data.secret).toBeUndefined();

    const list = await w.api("GET", "/v1/webhooks/endpoints?limit=1", { token: user.jwt });
    expect(list.body.data.items.map((e: { id: string }) => e.id)).toEqual([ep.id]);
    expect(list.body.data.nextCursor).toBeNull();

    const changed = await w.api("PATCH", `/v1/webhooks/endpoints/${ep.id}`, {
      token: user.jwt,
      json: { events: ["video.ready", "document.changed"], enabled: false },
    });
    expect(changed.status).toBe(200);
    expect(changed.body.data).toMatchObject({ events: ["video.ready", "document.changed"], enabled: false, disabledReason: "disabled by its owner" });

    const rotated = await w.api("POST", `/v1/webhooks/endpoints/${ep.id}/rotate-secret`, { token: user.jwt });
    expect(rotated.status).toBe(200);
    expect(rotated.body.data.secret).toMatch(/^whsec_/);
    expect(rotated.body.data.secret).not.toBe(ep.secret);

    expect((await w.api("POST", `/v1/webhooks/endpoints/${ep.id}/test`, { token: user.jwt })).status).toBe(409);
    const del = await w.app.handle(
      new Request(`http://shelf.test/v1/webhooks/endpoints/${ep.id}`, { method: "DELETE", headers: { authorization: `Bearer ${user.jwt}` } }),
    );
    expect(del.status).toBe(204);
    expect((await w.api("GET", `/v1/webhooks/endpoints/${ep.id}`, { token: user.jwt })).status).toBe(404);
  });

  test("a bad address or event is refused with 422", async () => {
    const w = await webhookWorld(false);
    const user = await makeUser();
    for (const url of [
      "ftp://example.com/x",
      "https://user:pw@example.com/",
      "http://127.0.0.1:9/",
      "http://[::1]/",
      "http://169.254.169.254/latest",
      "http://10.0.0.1/",
    ]) {
      const res = await w.api("POST", "/v1/webhooks/endpoints", { token: user.jwt, json: { url, events: ["video.ready"] } });
      expect(res.status, url).toBe(422);
      expect(res.body.code).toBe("VALIDATION_ERROR");
    }
    const ep = await createEndpoint(w, user.jwt, "https://hooks.example.com/ok", ["video.ready"]);
    const moved = await w.api("PATCH", `/v1/webhooks/endpoints/${ep.id}`, { token: user.jwt, json: { url: "http://192.168.1.10/" } });
    expect(moved.status).toBe(422);
    expect((await w.api("GET", `/v1/webhooks/endpoints/${ep.id}`, { token: user.jwt })).body.data.url).toBe("https://hooks.example.com/ok");
    const bad = await w.api("POST", "/v1/webhooks/endpoints", { token: user.jwt, json: { url: "https://example.com/", events: ["nope"] } });
    expect(bad.status).toBe(422);
    const none = await w.api("POST", "/v1/webhooks/endpoints", { token: user.jwt, json: { url: "https://example.com/", events: [] } });
    expect(none.status).toBe(422);
  });

  test("an account holds at most 20 endpoints: the 21st is 409 CONFLICT", async () => {
    const w = await webhookWorld();
    const user = await makeUser();
    for (let i = 0; i < 20; i++) await createEndpoint(w, user.jwt, `https://hooks.example.com/${i}`, ["video.ready"]);
    const over = await w.api("POST", "/v1/webhooks/endpoints", { token: user.jwt, json: { url: "https://hooks.example.com/21", events: ["video.ready"] } });
    expect(over.status).toBe(409);
    expect(over.body).toMatchObject({ success: false, code: "CONFLICT", meta: { limit: 20 } });
  });

  test("another user's endpoint is not found; an API key reads but cannot register", async () => {
    const w = await webhookWorld();
    const owner = await makeUser();
    const stranger = await makeUser();
    const ep = await createEndpoint(w, owner.jwt, "https://hooks.example.com/a", ["upload.completed"]);
    for (const [method, path] of [
      ["GET", `/v1/webhooks/endpoints/${ep.id}`],
      ["PATCH", `/v1/webhooks/endpoints/${ep.id}`],
      ["POST", `/v1/webhooks/endpoints/${ep.id}/rotate-secret`],
      ["POST", `/v1/webhooks/endpoints/${ep.id}/test`],
      ["GET", `/v1/webhooks/endpoints/${ep.id}/deliveries`],
      ["DELETE", `/v1/webhooks/endpoints/${ep.id}`],
    ] as const) {
      const res = await w.api(method, path, { token: stranger.jwt, ...(method === "PATCH" && { json: { enabled: true } }) });
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(res.body.code).toBe("NOT_FOUND");
    }
    expect((await w.api("GET", "/v1/webhooks/endpoints", { token: stranger.jwt })).body.data.items).toEqual([]);
    const key = await makeKey(owner, ["account.read"]);
    expect((await w.api("GET", "/v1/webhooks/endpoints", { token: key.key })).status).toBe(200);
    const refused = await w.api("POST", "/v1/webhooks/endpoints", { token: key.key, json: { url: "https://hooks.example.com/b", events: ["video.ready"] } });
    expect(refused.status).toBe(403);
  });

  test("a test event reaches a real receiver, signed as Standard Webhooks says, and is logged with the answer", async () => {
    const w = await webhookWorld();
    const user = await makeUser();
    const r = receiver([new Response("thanks", { status: 200 })]);
    const ep = await createEndpoint(w, user.jwt, r.url, ["video.ready"]);
    const queued = await w.api("POST", `/v1/webhooks/endpoints/${ep.id}/test`, { token: user.jwt });
    expect(queued.status).toBe(202);
    expect(queued.body.data).toMatchObject({ type: "webhook.test", status: "pending", attempts: 0 });
    expect(await w.deliver()).toEqual({ delivered: 1, retried: 0, failed: 0 });
    expect(r.got).toHaveLength(1);
    const sent = r.got[0]!;
    expect(sent.headers["content-type"]).toBe("application/json");
    expect(sent.headers["webhook-id"]).toBe(queued.body.data.eventId);
    // The spec's own library, verifying with the secret the owner was shown.
    const verified = new Webhook(ep.secret).verify(sent.body, sent.headers) as { type: string; timestamp: string; data: { endpointId: string } };
    expect(verified.type).toBe("webhook.test");
    expect(verified.data.endpointId).toBe(ep.id);
    expect(() => new Webhook(`whsec_${Buffer.alloc(32, 1).toString("base64")}`).verify(sent.body, sent.headers)).toThrow();

    const log = await w.api("GET", `/v1/webhooks/endpoints/${ep.id}/deliveries`, { token: user.jwt });
    expect(log.status).toBe(200);
    expect(log.body.data.items[0]).toMatchObject({ status: "delivered", attempts: 1, responseStatus: 200, responseBody: "thanks", error: null });
    expect(typeof log.body.data.items[0].durationMs).toBe("number");
  });
});
