import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { Elysia, t } from "elysia";
import { httpCore } from "../../src/http/core.ts";
import { AppError } from "../../src/core/errors.ts";
import { decodeCursor, encodeCursor, toPage } from "../../src/core/cursor.ts";
import { createLog } from "../../src/infra/log.ts";
import { call, callJson } from "../helpers/context.ts";
import { makeUser } from "../helpers/factories.ts";
import { uploadedDoc } from "../documents/fixtures.ts";
import { TEST_TIMEOUT_MS } from "../helpers/timeout.ts";

setDefaultTimeout(TEST_TIMEOUT_MS);

// A tiny app on the same core, for failures the real routes do not produce on purpose.
const probe = new Elysia()
  .use(httpCore(createLog("silent")))
  .get("/boom", () => {
    throw new Error("select * from secrets where path = '/etc/passwd'");
  })
  .get("/expected", () => {
    throw new AppError("QUOTA_EXCEEDED", "over quota", { type: "img_storage", used: 2, limit: 1 });
  })
  .post("/typed", ({ body }) => body, { body: t.Object({ n: t.Integer({ minimum: 1 }), s: t.String() }) })
  .get("/nul", () => {
    // What drizzle throws when Postgres refuses a NUL in text.
    throw Object.assign(new Error("Failed query"), { cause: Object.assign(new Error('invalid byte sequence for encoding "UTF8": 0x00'), { code: "22021" }) });
  });
const probeCall = (path: string, init?: RequestInit) => probe.handle(new Request(`http://localhost${path}`, init));

describe("HTTP core", () => {
  test("an unknown route is the 404 envelope with x-request-id", async () => {
    const { status, headers, body } = await callJson("GET", "/v1/no-such-thing");
    expect(status).toBe(404);
    expect(body).toEqual({ success: false, error: expect.any(String), code: "NOT_FOUND", meta: { entity: "route" } });
    expect(headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
  });

  test("every API answer is no-store and nosniff, successes and errors alike; a route that may be cached keeps its own header", async () => {
    const user = await makeUser();
    const pub = await uploadedDoc(user.jwt, { isPublic: true });
    const answers = [
      await call("GET", "/v1/user/me", { token: user.jwt }),
      await call("GET", "/v1/user/me"),
      await call("GET", "/v1/no-such-thing"),
      await call("POST", "/v1/kbs", { token: user.jwt, json: { name: 7 } }),
      await call("GET", `/v1/docs/${pub.id}`, { token: user.jwt }),
      await call("DELETE", "/media/abcdefghijk.png"),
    ];
    for (const res of answers) {
      expect({ status: res.status, cache: res.headers.get("cache-control"), sniff: res.headers.get("x-content-type-options") }).toEqual({
        status: res.status,
        cache: "no-store",
        sniff: "nosniff",
      });
    }
    expect(answers.map((r) => r.status)).toEqual([200, 401, 404, 422, 200, 404]);
    expect((await call("GET", `/v1/docs/${pub.id}/raw`)).headers.get("cache-control")).toBe("public, max-age=300");
  });

  test("a sane incoming x-request-id is echoed, a hostile one replaced", async () => {
    expect((await call("GET", "/health", { headers: { "x-request-id": "abc-123" } })).headers.get("x-request-id")).toBe("abc-123");
    const res = await call("GET", "/health", { headers: { "x-request-id": "a b\u00e9<script>" } });
    expect(res.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
  });

  test("malformed JSON is a 400 envelope", async () => {
    const res = await probeCall("/typed", { method: "POST", headers: { "content-type": "application/json" }, body: '{"n": 1,' });
    expect(res.status).toBe(400);
    const body = await res.json();
    expect(body).toMatchObject({ success: false, code: "BAD_REQUEST" });
    expect(res.headers.get("x-request-id")).toBeTruthy();
  });

  test("a schema failure is 422 VALIDATION_ERROR with meta.path and meta.issues", async () => {
    const res = await probeCall("/typed", { method: "POST", headers: { "content-type": "application/json" }, body: '{"n": 0}' });
    expect(res.status).toBe(422);
    const body = (await res.json()) as any;
    expect(body.code).toBe("VALIDATION_ERROR");
    expect(body.meta.path).toMatch(/^body\./);
    expect(body.meta.issues.length).toBeGreaterThanOrEqual(1);
    expect(body.meta.issues[0]).toEqual({ path: expect.any(String), message: expect.any(String) });
  });

  test("an AppError keeps its code, status and meta", async () => {
    const res = await probeCall("/expected");
    expect(res.status).toBe(403);
    expect(await res.json()).toEqual({ success: false, error: "over quota", code: "QUOTA_EXCEEDED", meta: { type: "img_storage", used: 2, limit: 1 } });
  });

  test("text the database cannot store is 422 VALIDATION_ERROR, not a 500", async () => {
    const res = await probeCall("/nul");
    expect(res.status).toBe(422);
    expect(((await res.json()) as any).code).toBe("VALIDATION_ERROR");
  });

  test("an unexpected error is 500 INTERNAL without stack, SQL or path", async () => {
    const res = await probeCall("/boom");
    expect(res.status).toBe(500);
    const text = await res.text();
    expect(JSON.parse(text)).toEqual({ success: false, error: "internal error", code: "INTERNAL", meta: {} });
    expect(text).not.toContain("select");
    expect(text).not.toContain("/etc/passwd");
    expect(text).not.toContain(" at ");
  });
});

describe("cursor codec", () => {
  test("round-trips its parts", () => {
    const c = encodeCursor(["2026-01-02T03:04:05.678Z", "abc"]);
    const [d, id] = decodeCursor(c, ["d", "s"]);
    expect(d.toISOString()).toBe("2026-01-02T03:04:05.678Z");
    expect(id).toBe("abc");
  });

  test("a bad cursor is 400 INVALID_CURSOR", () => {
    for (const bad of [
      "%%%",
      "bm90IGpzb24",
      encodeCursor(["x"]),
      encodeCursor([1, "a"]),
      encodeCursor(["not a date", "a"]),
      encodeCursor(["-271821-04-20T00:00:00.000Z", "a"]),
      encodeCursor(["2026-02-31T00:00:00.000Z", "a"]),
      "A".repeat(600),
    ]) {
      let err: unknown;
      try {
        decodeCursor(bad, ["d", "s"]);
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(AppError);
      expect((err as AppError).code).toBe("INVALID_CURSOR");
      expect((err as AppError).status).toBe(400);
    }
  });

  test("toPage uses the extra row only to say another page exists", () => {
    const rows = [1, 2, 3].map((n) => ({ n, id: `id${n}` }));
    const page = toPage(
      rows,
      2,
      (r) => [r.n, r.id],
      (r) => r.id,
    );
    expect(page.items).toEqual(["id1", "id2"]);
    expect(decodeCursor(page.nextCursor!, ["n", "s"])).toEqual([2, "id2"]);
    expect(
      toPage(
        rows,
        3,
        (r) => [r.n, r.id],
        (r) => r.id,
      ).nextCursor,
    ).toBeNull();
  });
});
