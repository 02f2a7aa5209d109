import { describe, expect, test } from "bun:test";
import { Validator } from "@seriousme/openapi-schema-validator";
import { createApp } from "../../src/app.ts";
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
