import { describe, expect, test } from "bun:test";
import { createRateLimiter, TIER_LIMITS } from "../../src/http/rate-limit.ts";
import { createLog } from "../../src/infra/log.ts";
import type { Kv } from "../../src/infra/kv/index.ts";
import { call, callJson, testContext } from "../helpers/context.ts";
import { makeClient, makeKey } from "../helpers/factories.ts";

describe("rate limits", () => {
  test("limited routes carry RateLimit headers", async () => {
    const { key } = await makeClient();
    const res = await call("GET", "/v1/user/me", { token: key });
    expect(res.status).toBe(200);
    expect(res.headers.get("ratelimit-limit")).toBe("600");
    expect(res.headers.get("ratelimit-remaining")).toBe("599");
    expect(Number(res.headers.get("ratelimit-reset"))).toBeGreaterThan(0);
    expect(Number(res.headers.get("ratelimit-reset"))).toBeLessThanOrEqual(60);
  });

  test("the 601st read in a minute is 429 RATE_LIMITED with Retry-After and RateLimit headers", async () => {
    const { user, key } = await makeClient();
    const responses = await Promise.all(Array.from({ length: TIER_LIMITS.read }, () => call("GET", "/v1/user/me", { token: key })));
    expect(responses.every((r) => r.status === 200)).toBe(true);
    const remaining = responses.map((r) => Number(r.headers.get("ratelimit-remaining"))).sort((a, b) => a - b);
    expect(remaining[0]).toBe(0);
    const over = await callJson("GET", "/v1/user/me", { token: key });
    expect(over.status).toBe(429);
    expect(over.body.code).toBe("RATE_LIMITED");
    expect(over.body.meta).toEqual({ tier: "read", limit: 600 });
    expect(over.headers.get("ratelimit-limit")).toBe("600");
    expect(over.headers.get("ratelimit-remaining")).toBe("0");
    const retry = Number(over.headers.get("retry-after"));
    expect(retry).toBeGreaterThanOrEqual(1);
    expect(retry).toBeLessThanOrEqual(60);
    // The limit is per user: another key of the same user shares it, and the mutation tier is separate.
    const { key: second } = await makeKey(user);
    expect((await call("GET", "/v1/user/me", { token: second })).status).toBe(429);
  });

  test("tiers are independent and per user", async () => {
    const a = await makeClient();
    const b = await makeClient();
    const ra = await call("GET", "/v1/user/me", { token: a.key });
    const rb = await call("GET", "/v1/user/me", { token: b.key });
    expect(ra.headers.get("ratelimit-remaining")).toBe("599");
    expect(rb.headers.get("ratelimit-remaining")).toBe("599");
    const m = await call("PATCH", "/v1/user/me", { token: a.user.jwt, json: { nickname: "n" } });
    expect(m.headers.get("ratelimit-limit")).toBe("120");
  });

  test("when the kv is unreachable the limit is kept per process, never a 500", async () => {
    const { deps } = await testContext();
    const down: Kv = { ...deps.kv, slidingWindow: async () => Promise.reject(new Error("ECONNREFUSED")) };
    const limiter = createRateLimiter(down, createLog("silent"));
    const user = crypto.randomUUID();
    for (let i = 0; i < TIER_LIMITS.upload; i++) expect((await limiter.hit(user, "upload"))["ratelimit-limit"]).toBe("60");
    await expect(limiter.hit(user, "upload")).rejects.toMatchObject({ code: "RATE_LIMITED", status: 429 });
  });
});
