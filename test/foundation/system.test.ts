import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { Validator } from "@seriousme/openapi-schema-validator";
import { createApp } from "../../src/wiring/app.ts";
import type { Deps } from "../../src/wiring/deps.ts";
import type { Clock } from "../../src/infra/clock.ts";
import { TimeoutError, withTimeout } from "../../src/infra/timeout.ts";
import { READINESS_TTL_MS } from "../../src/modules/system/readiness.ts";
import { call, callJson, expectDocumented, testContext } from "../helpers/context.ts";
import { TEST_TIMEOUT_MS } from "../helpers/timeout.ts";

setDefaultTimeout(TEST_TIMEOUT_MS);

/** Counts every call made on the database, kv and storage the app is given. */
function counting<T extends object>(part: T, calls: string[], name: string): T {
  return new Proxy(part, {
    get(target, key, receiver) {
      const v = Reflect.get(target, key, receiver);
      if (typeof v !== "function") return v;
      return (...args: unknown[]) => {
        calls.push(`${name}.${String(key)}`);
        return v.apply(target, args);
      };
    },
  });
}

async function countedApp(overrides: Partial<Pick<Deps, "database" | "kv" | "storage">> = {}) {
  const { services, deps } = await testContext();
  const calls: string[] = [];
  // Stands still unless moved: the cache interval passes only when the test says so.
  let now = Date.parse("2026-01-01T00:00:00Z");
  const clock: Clock = { now: () => new Date(now), nowMs: () => now, advance: (ms) => void (now += ms) };
  const app = createApp({
    ...services,
    deps: {
      ...deps,
      clock,
      database: counting(overrides.database ?? deps.database, calls, "database"),
      kv: counting(overrides.kv ?? deps.kv, calls, "kv"),
      storage: counting(overrides.storage ?? deps.storage, calls, "storage"),
    },
  });
  const get = (path: string) => call("GET", path, { app });
  return { app, calls, clock, get };
}

describe("GET /health (liveness)", () => {
  test("answers 200 with the version and x-request-id, and no store", async () => {
    const { status, headers, body } = await callJson("GET", "/health");
    expect(status).toBe(200);
    expect(body).toMatchObject({ success: true, data: { status: "ok" } });
    expect(typeof body.data.version).toBe("string");
    expect(headers.get("x-request-id")).toBeTruthy();
    expect(headers.get("cache-control")).toBe("no-store");
  });

  test("100 concurrent and then 100 sequential requests touch no part", async () => {
    const { calls, get } = await countedApp();
    const concurrent = await Promise.all(Array.from({ length: 100 }, () => get("/health")));
    expect(concurrent.map((r) => r.status)).toEqual(Array(100).fill(200));
    for (let i = 0; i < 100; i++) expect((await get("/health")).status).toBe(200);
    expect(calls).toEqual([]);
  });

  test("carries the last readiness checks without making one, and stays 200 when a part is down", async () => {
    const { deps } = await testContext();
    const down = async () => Promise.reject(new Error("connect ECONNREFUSED 10.0.0.7:9000"));
    const { calls, get } = await countedApp({ storage: { ...deps.storage, ping: down } });
    expect(((await (await get("/health")).json()) as any).data.checks).toBeUndefined();
    expect((await get("/ready")).status).toBe(503);
    const seen = calls.length;
    const res = await get("/health");
    expect(res.status).toBe(200);
    const body = (await res.json()) as any;
    expect(body.data.status).toBe("ok");
    expect(body.data.checks.storage).toMatchObject({ ok: false, error: "unreachable" });
    expect(body.data.checks.database.ok).toBe(true);
    expect(calls.length).toBe(seen);
  });
});

describe("GET /ready (readiness)", () => {
  test("reports database, kv and storage and answers 200", async () => {
    const { status, headers, body } = await callJson("GET", "/ready");
    expect(status).toBe(200);
    expect(body.success).toBe(true);
    expect(body.data.status).toBe("ok");
    for (const part of ["database", "kv", "storage"]) expect(body.data.checks[part].ok).toBe(true);
    expect(headers.get("x-request-id")).toBeTruthy();
    expect(headers.get("cache-control")).toBe("no-store");
  });

  test("100 concurrent requests make one set of part checks; the next interval checks again", async () => {
    const { calls, clock, get } = await countedApp();
    const answers = await Promise.all(Array.from({ length: 100 }, () => get("/ready")));
    expect(answers.map((r) => r.status)).toEqual(Array(100).fill(200));
    const oneSet = ["database.ping", "kv.ping", "storage.ping"];
    expect([...calls].sort()).toEqual(oneSet);
    for (let i = 0; i < 100; i++) expect((await get("/ready")).status).toBe(200);
    expect(calls.length).toBe(3);
    clock.advance(READINESS_TTL_MS - 1);
    await get("/ready");
    expect(calls.length).toBe(3);
    clock.advance(1);
    await Promise.all(Array.from({ length: 100 }, () => get("/ready")));
    expect([...calls.slice(3)].sort()).toEqual(oneSet);
  });

  test("answers 503 naming the part that fails, without its address", async () => {
    const { deps } = await testContext();
    const { app } = await countedApp({
      storage: { ...deps.storage, ping: async () => Promise.reject(new Error("connect ECONNREFUSED 10.0.0.7:9000")) },
    });
    const res = await app.handle(new Request("http://localhost/ready"));
    expect(res.status).toBe(503);
    const text = await res.text();
    const body = JSON.parse(text);
    expect(body).toMatchObject({ success: false, code: "SERVICE_UNAVAILABLE" });
    expect(body.meta.checks.storage.ok).toBe(false);
    expect(body.meta.checks.database.ok).toBe(true);
    expect(text).not.toContain("10.0.0.7");
    await expectDocumented("GET", "/ready", await app.handle(new Request("http://localhost/ready")));
  });

  test("a part that comes back is seen after the interval, not before", async () => {
    const { deps } = await testContext();
    let up = false;
    const { clock, get } = await countedApp({
      kv: { ...deps.kv, ping: () => (up ? deps.kv.ping() : Promise.reject(new Error("down"))) },
    });
    expect((await get("/ready")).status).toBe(503);
    up = true;
    expect((await get("/ready")).status).toBe(503);
    clock.advance(READINESS_TTL_MS);
    expect((await get("/ready")).status).toBe(200);
  });
});

describe("withTimeout", () => {
  test("passes a value or an error through; a hang becomes a TimeoutError naming what hung", async () => {
    expect(await withTimeout(Promise.resolve(7), 50, "x")).toBe(7);
    await expect(withTimeout(Promise.reject(new Error("refused")), 50, "x")).rejects.toThrow("refused");
    const hung = withTimeout(new Promise(() => {}), 20, "storage");
    await expect(hung).rejects.toBeInstanceOf(TimeoutError);
    await expect(hung).rejects.toThrow("storage did not answer within 0.02 s");
  });

  test("/ready reports a part that hangs as timed out, and one that fails as unreachable", async () => {
    const { services, deps } = await testContext();
    const app = createApp({
      ...services,
      deps: {
        ...deps,
        storage: { ...deps.storage, ping: () => new Promise<void>(() => {}) },
        kv: { ...deps.kv, ping: () => Promise.reject(new Error("timed out")) }, // its own words do not count
      },
    });
    const body = (await (await app.handle(new Request("http://localhost/ready"))).json()) as any;
    expect(body.meta.checks.storage).toMatchObject({ ok: false, error: "timed out" });
    expect(body.meta.checks.kv).toMatchObject({ ok: false, error: "unreachable" });
  });
});

describe("OpenAPI", () => {
  test("/swagger/json is a valid OpenAPI 3 document with the shared error responses", async () => {
    const res = await call("GET", "/swagger/json");
    expect(res.status).toBe(200);
    const doc = (await res.json()) as any;
    expect(doc.openapi).toMatch(/^3\./);
    const result = await new Validator().validate(doc);
    if (!result.valid) console.error(JSON.stringify(result.errors, null, 2).slice(0, 3000));
    expect(result.valid).toBe(true);
    expect(doc.paths["/health"]).toBeDefined();
    expect(Object.keys(doc.paths["/ready"].get.responses)).toEqual(expect.arrayContaining(["200", "503"]));
    expect(doc.components.schemas.Error).toBeDefined();
    expect(Object.keys(doc.components.responses)).toEqual(
      expect.arrayContaining(["Unauthorized", "Forbidden", "NotFound", "ValidationError", "RateLimited", "Internal"]),
    );
  });

  test("/swagger serves the UI", async () => {
    const res = await call("GET", "/swagger");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("text/html");
  });
});
