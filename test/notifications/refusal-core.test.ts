// The HTTP core's onRefusal: run for every LimitRefusal before the answer goes out, never
// for other errors; when it fails, the client still gets the same 403 or 429.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { Elysia } from "elysia";
import { httpCore } from "../../src/http/core.ts";
import { AppError } from "../../src/core/errors.ts";
import { createLog } from "../../src/infra/log.ts";
import { LimitRefusal } from "../../src/core/refusal.ts";
import { TEST_TIMEOUT_MS } from "../helpers/timeout.ts";

setDefaultTimeout(TEST_TIMEOUT_MS);

const at = new Date("2026-11-23T12:00:00Z");

function probe(onRefusal: (r: LimitRefusal) => Promise<void>) {
  const app = new Elysia()
    .use(httpCore(createLog("silent"), { onRefusal }))
    .get("/full", () => {
      throw new LimitRefusal("u1", "img_storage", 950, 1000, at);
    })
    .get("/rate", () => {
      throw new LimitRefusal("u1", "uploads_per_day", 200, 200, at, new Date(at.getTime() + 3_600_000));
    })
    .get("/other", () => {
      throw new AppError("QUOTA_EXCEEDED", "API key limit of the plan reached", { type: "api_keys", used: 5, limit: 5 });
    });
  return async (path: string) => {
    const res = await app.handle(new Request(`http://localhost${path}`));
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };
}

describe("HTTP core onRefusal", () => {
  test("gets each LimitRefusal (the 403 and the 429 alike; which ones tell is the callee's rule) before the answer; not an AppError", async () => {
    const seen: LimitRefusal[] = [];
    const call = probe(async (r) => {
      seen.push(r);
    });
    expect(await call("/full")).toEqual({
      status: 403,
      body: { success: false, code: "QUOTA_EXCEEDED", error: "quota exceeded: img_storage", meta: { type: "img_storage", used: 950, limit: 1000 } },
    });
    expect((await call("/rate")).status).toBe(429);
    expect((await call("/other")).status).toBe(403);
    expect(seen.map((r) => [r.userId, r.dimension])).toEqual([
      ["u1", "img_storage"],
      ["u1", "uploads_per_day"],
    ]);
  });

  test("a failing onRefusal leaves the answer as it was", async () => {
    const call = probe(() => Promise.reject(new Error("database gone")));
    const res = await call("/full");
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ code: "QUOTA_EXCEEDED", meta: { type: "img_storage", used: 950, limit: 1000 } });
  });
});
