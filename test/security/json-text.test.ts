// JSON bodies are read strictly (http/json-body.ts): nesting is bounded (a body nested
// 100,000 deep was a 500 with a stack trace per request: the validation error ran out of
// stack while it was reported), and a string that is not well-formed Unicode (an escaped
// lone surrogate) is refused naming its field, never stored as U+FFFD.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { Elysia, t } from "elysia";
import { httpCore } from "../../src/http/core.ts";
import { JSON_MAX_DEPTH } from "../../src/core/json-text.ts";
import type { Log } from "../../src/infra/log.ts";
import { callJson } from "../helpers/context.ts";
import { makeUser } from "../helpers/factories.ts";
import { png, upload } from "../images/fixtures.ts";
import { TEST_TIMEOUT_MS } from "../helpers/timeout.ts";

setDefaultTimeout(TEST_TIMEOUT_MS);

const JSON_TYPE = { "content-type": "application/json" };
/** `{"<field>": {"a": {"a": ... 1}}}`, `depth` objects deep in all. */
const nested = (field: string, depth: number) => `{"${field}":${'{"a":'.repeat(depth - 1)}1${"}".repeat(depth - 1)}}`;

describe("nesting is bounded", () => {
  test("100,000 levels (10,000 where no credential comes first) is 400 BAD_REQUEST on sign-up, sign-in, KBs and documents; never a 500", async () => {
    const user = await makeUser();
    // Sign-up and sign-in take bodies of 64 KiB at most (body-limit.ts): nested as deep as fits.
    const cases: [string, string, string | undefined, number][] = [
      ["POST", "/v1/auth/login", undefined, 10_000],
      ["POST", "/v1/auth/signup", undefined, 10_000],
      ["POST", "/v1/kbs", user.jwt, 100_000],
      ["POST", "/v1/docs", user.jwt, 100_000],
      ["PATCH", "/v1/user/me", user.jwt, 100_000],
    ];
    for (const [method, path, token, depth] of cases) {
      for (const body of [nested("email", depth / 2), `[${"[".repeat(depth)}${"]".repeat(depth)}]`]) {
        const res = await callJson(method, path, { token, body, headers: JSON_TYPE });
        expect({ path, status: res.status, code: res.body.code }).toEqual({ path, status: 400, code: "BAD_REQUEST" });
        expect(res.body.meta).toEqual({ limit: JSON_MAX_DEPTH });
      }
    }
    // The credential is still checked first: an anonymous caller of a guarded route is told that.
    expect((await callJson("POST", "/v1/kbs", { body: nested("name", 100_000), headers: JSON_TYPE })).status).toBe(401);
  });

  test(`${JSON_MAX_DEPTH} levels are read; one more is refused`, async () => {
    const user = await makeUser();
    const at = await callJson("POST", "/v1/kbs", { token: user.jwt, body: nested("name", JSON_MAX_DEPTH), headers: JSON_TYPE });
    expect(at.status).toBe(422);
    expect(at.body.meta.path).toBe("body.name");
    const over = await callJson("POST", "/v1/kbs", { token: user.jwt, body: nested("name", JSON_MAX_DEPTH + 1), headers: JSON_TYPE });
    expect(over.status).toBe(400);
    expect(over.body.code).toBe("BAD_REQUEST");
  });

  test("a refusal is one log line at info, with no stack and no error", async () => {
    const lines: { level: string; msg: string; fields?: Record<string, unknown> }[] = [];
    const record = (level: string) => (msg: string, fields?: Record<string, unknown>) => void lines.push({ level, msg, fields });
    const log: Log = { debug: record("debug"), info: record("info"), warn: record("warn"), error: record("error"), child: () => log };
    const app = new Elysia().use(httpCore(log)).post("/typed", ({ body }) => body, { body: t.Object({ n: t.Integer() }) });
    const res = await app.handle(new Request("http://localhost/typed", { method: "POST", headers: JSON_TYPE, body: nested("n", 100_000) }));
    expect(res.status).toBe(400);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ level: "info", fields: { limit: JSON_MAX_DEPTH, route: "/typed" } });
    expect(JSON.stringify(lines)).not.toContain("stack");
  });
});

describe("text that is not well-formed Unicode is refused naming its field", () => {
  test("document content, title and tags: 422 naming the field, and nothing is stored", async () => {
    const user = await makeUser();
    const good = { filename: "note.md", content: "# Note\n\nhello", title: "Note", tags: ["a"] };
    const cases: [Record<string, unknown>, string][] = [
      [{ ...good, content: "a\ud800b" }, "body.content"],
      [{ ...good, title: "\udc00" }, "body.title"],
      [{ ...good, tags: ["ok", "x\ud83d"] }, "body.tags.1"],
      [{ ...good, filename: "\ud800.md" }, "body.filename"],
    ];
    for (const [json, path] of cases) {
      const res = await callJson("POST", "/v1/docs", { token: user.jwt, json });
      expect({ path, status: res.status, code: res.body.code }).toEqual({ path, status: 422, code: "VALIDATION_ERROR" });
      expect(res.body.meta.path).toBe(path);
    }
    const list = await callJson("GET", "/v1/docs", { token: user.jwt });
    expect(list.body.data.items).toEqual([]);
    expect((await callJson("GET", "/v1/user/me/usage", { token: user.jwt })).body.data.doc.count.used).toBe(0);
  });

  test("a nickname, a KB's name and description, a key's name, and a lone surrogate in a key are refused; the account is unchanged", async () => {
    const user = await makeUser();
    const before = (await callJson("GET", "/v1/user/me", { token: user.jwt })).body.data;
    const me = await callJson("PATCH", "/v1/user/me", { token: user.jwt, json: { nickname: "me\udbff" } });
    expect(me.status).toBe(422);
    expect(me.body.meta.path).toBe("body.nickname");
    expect((await callJson("GET", "/v1/user/me", { token: user.jwt })).body.data).toEqual(before);
    const kb = await callJson("POST", "/v1/kbs", { token: user.jwt, json: { name: "Notes", description: "\udfff" } });
    expect(kb.status).toBe(422);
    expect(kb.body.meta.path).toBe("body.description");
    const key = await callJson("POST", "/v1/api-keys", { token: user.jwt, json: { name: "\ud800", scopes: ["media.read"] } });
    expect(key.status).toBe(422);
    expect(key.body.meta.path).toBe("body.name");
    const oddKey = await callJson("POST", "/v1/kbs", { token: user.jwt, body: '{"name":"Notes","\\ud800":1}', headers: JSON_TYPE });
    expect(oddKey.status).toBe(422);
    expect(oddKey.body.meta.path).toBe("body.\ufffd");
    expect((await callJson("GET", "/v1/kbs", { token: user.jwt })).body.data.items).toEqual([]);
  });

  test("an upload's tags, JSON text in a form field, are read by the same rule: 422 at body.tags.1, nothing stored", async () => {
    const user = await makeUser();
    const res = await upload(user.jwt, await png(), { filename: "a.png", tags: '["ok","x\\ud800"]' });
    expect(res.status).toBe(422);
    expect(res.body.meta.path).toBe("body.tags.1");
    expect((await callJson("GET", "/v1/images", { token: user.jwt })).body.data.total).toBe(0);
  });
});
