import { describe, expect, test } from "bun:test";
import { Validator } from "@seriousme/openapi-schema-validator";
import { createApp } from "../../src/app.ts";
import { TimeoutError, withTimeout } from "../../src/infra/timeout.ts";
import { call, callJson, testContext } from "../helpers/context.ts";

describe("GET /health", () => {
  test("reports database, kv and storage and answers 200", async () => {
    const { status, headers, body } = await callJson("GET", "/health");
    expect(status).toBe(200);
    expect(body.success).toBe(true);
    expect(body.data.status).toBe("ok");
    for (const part of ["database", "kv", "storage"]) expect(body.data.checks[part].ok).toBe(true);
    expect(headers.get("x-request-id")).toBeTruthy();
  });

  test("answers 503 naming the part that fails, without its address", async () => {
    const { services, deps } = await testContext();
    const broken = createApp({
      ...services,
      deps: { ...deps, storage: { ...deps.storage, ping: async () => Promise.reject(new Error("connect ECONNREFUSED 10.0.0.7:9000")) } },
    });
    const res = await broken.handle(new Request("http://localhost/health"));
    expect(res.status).toBe(503);
    const text = await res.text();
    const body = JSON.parse(text);
    expect(body).toMatchObject({ success: false, code: "SERVICE_UNAVAILABLE" });
    expect(body.meta.checks.storage.ok).toBe(false);
    expect(body.meta.checks.database.ok).toBe(true);
    expect(text).not.toContain("10.0.0.7");
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

  test("/health reports a part that hangs as timed out, and one that fails as unreachable", async () => {
    const { services, deps } = await testContext();
    const app = createApp({
      ...services,
      deps: {
        ...deps,
        storage: { ...deps.storage, ping: () => new Promise<void>(() => {}) },
        kv: { ...deps.kv, ping: () => Promise.reject(new Error("timed out")) }, // its own words do not count
      },
    });
    const body = (await (await app.handle(new Request("http://localhost/health"))).json()) as any;
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
