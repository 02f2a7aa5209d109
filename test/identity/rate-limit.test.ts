import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { loadConfig } from "../../src/config.ts";
import { createRateLimiter } from "../../src/http/rate-limit.ts";
import { createLog } from "../../src/infra/log.ts";
import type { Kv } from "../../src/infra/kv/index.ts";
import { DEFAULT_RATE_LIMITS as TIER_LIMITS } from "../../src/http/rate-tiers.ts";
import { stoppedClock } from "../helpers/clock.ts";
import { call, callJson, tempDir, testContext } from "../helpers/context.ts";
import { makeClient, makeKey } from "../helpers/factories.ts";
import { TEST_TIMEOUT_MS } from "../helpers/timeout.ts";

setDefaultTimeout(TEST_TIMEOUT_MS);

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
    // The burst starts a minute of the app's clock. Across a minute boundary the counter
    // takes the earlier minute's calls as spread over it, so a few of them would already
    // count as gone by the 601st call (within the 2% the kv tests bound), and it could pass.
    const { deps } = await testContext();
    deps.clock.advance(60_000 - (deps.clock.nowMs() % 60_000));
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

  test("RATE_LIMITS changes a tier's limit; anything but known tiers with positive integers stops the start", () => {
    const c = loadConfig({ DATA_DIR: tempDir(), RATE_LIMITS: '{"upload":5}' });
    expect(c.rateLimits).toEqual({ read: 600, mutation: 120, upload: 5, file: 600 });
    expect(loadConfig({ DATA_DIR: tempDir() }).rateLimits).toEqual(TIER_LIMITS);
    for (const bad of ['{"uploads":5}', '{"read":0}', '{"read":1.5}', '{"read":"600"}', "{"]) {
      expect(() => loadConfig({ DATA_DIR: tempDir(), RATE_LIMITS: bad })).toThrow(/RATE_LIMITS/);
    }
  });

  test("the configured limits are the ones enforced and reported, on windows cut from the app's clock", async () => {
    const { deps } = await testContext();
    const clock = stoppedClock();
    const limiter = createRateLimiter(deps.kv, createLog("silent"), { limits: { read: 600, mutation: 120, upload: 3, file: 600 }, clock });
    const user = crypto.randomUUID();
    const remaining = [];
    for (let i = 0; i < 3; i++) remaining.push((await limiter.hit(user, "upload"))["ratelimit-remaining"]);
    expect(remaining).toEqual(["2", "1", "0"]);
    const refused = await limiter.hit(user, "upload").catch((e: { headers: Record<string, string> }) => e.headers);
    expect(refused).toMatchObject({ "ratelimit-limit": "3", "ratelimit-remaining": "0" });
    const retry = Number(refused["retry-after"]);
    expect(retry).toBeGreaterThanOrEqual(1);
    expect(retry).toBeLessThanOrEqual(60);
    // Two minutes on, the tier is free again: nothing waited for them to pass.
    clock.advance(120_000);
    expect((await limiter.hit(user, "upload"))["ratelimit-remaining"]).toBe("2");
  });
});
