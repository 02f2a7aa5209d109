// The body of POST /v1/docs: larger than other JSON bodies (a document with its images
// still inline), read within the node's upload memory like an upload's.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { createApp } from "../../src/wiring/app.ts";
import { createBudget } from "../../src/infra/budget.ts";
import { call, callJson, testContext } from "../helpers/context.ts";
import { makeClient } from "../helpers/factories.ts";
import { TEST_TIMEOUT_MS } from "../helpers/timeout.ts";

setDefaultTimeout(TEST_TIMEOUT_MS);

describe("POST /v1/docs body", () => {
  test("a 3 MB body is read (other JSON routes stop at 1 MiB); over 64 MiB is 413 before it is read", async () => {
    const { key } = await makeClient({ plan: "pro" });
    const content = "word ".repeat(600_000);
    const res = await callJson("POST", "/v1/docs", { token: key, json: { filename: "a.typ", content } });
    expect(res.status).toBe(201);
    expect(res.body.data.sizeBytes).toBe(3_000_000);
    const patch = await callJson("PATCH", `/v1/docs/${res.body.data.id}`, { token: key, json: { title: "x".repeat(2_000_000) } });
    expect(patch.status).toBe(413);
    const huge = await call("POST", "/v1/docs", {
      token: key,
      headers: { "content-type": "application/json", "content-length": String(64 * 1024 * 1024 + 1) },
      body: "{}",
    });
    expect(huge.status).toBe(413);
  }, 60_000);

  test("past the node's upload memory the body is not read: 503 SERVICE_UNAVAILABLE with Retry-After; the memory comes back", async () => {
    const { deps, services } = await testContext();
    const uploadMemory = createBudget({ name: "upload memory", capacity: 1024 * 1024 * 1024, maxWaitMs: 0 });
    const app = createApp({ ...services, deps: { ...deps, budgets: { ...deps.budgets, uploadMemory } } });
    const { key } = await makeClient();
    const held = await uploadMemory.acquire(1024 * 1024 * 1024);
    const refused = await callJson("POST", "/v1/docs", { app, token: key, json: { filename: "a.md", content: "hello" } });
    expect(refused.status).toBe(503);
    expect(refused.headers.get("retry-after")).toBe("1");
    expect(refused.body).toMatchObject({ code: "SERVICE_UNAVAILABLE", meta: { budget: "upload memory" } });
    held();
    expect((await callJson("POST", "/v1/docs", { app, token: key, json: { filename: "a.md", content: "hello" } })).status).toBe(201);
    expect(uploadMemory.usage()).toEqual({ used: 0, holders: 0, queued: 0 });
  });
});
