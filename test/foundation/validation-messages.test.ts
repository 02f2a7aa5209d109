// A schema failure says which field and what is wrong with it in words a person reads
// (src/http/validation.ts): `error` is the first issue's message, and meta.path and
// meta.issues keep their shape. Checked on query, body and path parameters of several routes.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { callJson } from "../helpers/context.ts";
import { makeClient } from "../helpers/factories.ts";
import { TEST_TIMEOUT_MS } from "../helpers/timeout.ts";

setDefaultTimeout(TEST_TIMEOUT_MS);

/** The 422 of one request: its message, meta.path and meta.issues. */
async function refused(method: string, path: string, opts: { token?: string; json?: unknown } = {}) {
  const res = await callJson(method, path, opts);
  expect(res.status).toBe(422);
  expect(res.body).toMatchObject({ success: false, code: "VALIDATION_ERROR" });
  const { error, meta } = res.body as { error: string; meta: { path: string; issues: { path: string; message: string }[] } };
  expect(meta.issues[0]).toEqual({ path: meta.path, message: error });
  return { error, path: meta.path, issues: meta.issues };
}

describe("validation messages name the parameter", () => {
  test("a query number out of bounds: `limit must be at most 50` at query.limit, on three lists", async () => {
    const { key } = await makeClient();
    for (const [list, max] of [
      ["/v1/docs", 50],
      ["/v1/media", 50],
      ["/v1/images", 100],
    ] as const) {
      expect(await refused("GET", `${list}?limit=${max + 1}`, { token: key })).toMatchObject({ error: `limit must be at most ${max}`, path: "query.limit" });
      expect(await refused("GET", `${list}?limit=0`, { token: key })).toMatchObject({ error: "limit must be at least 1", path: "query.limit" });
      expect(await refused("GET", `${list}?limit=ten`, { token: key })).toMatchObject({ error: "limit must be an integer", path: "query.limit" });
    }
    // Another parameter with the same value does not take the name.
    expect(await refused("GET", "/v1/docs?q=51&limit=51", { token: key })).toMatchObject({ error: "limit must be at most 50", path: "query.limit" });
  });

  test("query enums and booleans list what they take", async () => {
    const { key } = await makeClient();
    expect(await refused("GET", "/v1/docs?sort=newest", { token: key })).toMatchObject({
      error: 'sort must be one of "created_desc", "created_asc", "updated_desc", "updated_asc"',
      path: "query.sort",
    });
    expect(await refused("GET", "/v1/docs?isPublic=maybe", { token: key })).toMatchObject({ error: "isPublic must be true or false", path: "query.isPublic" });
  });

  test("body fields: required (with what the field is), type, length, blank, characters, repeats, format", async () => {
    const { key } = await makeClient();
    const doc = (extra: Record<string, unknown>) => refused("POST", "/v1/docs", { token: key, json: { filename: "a.md", content: "x", ...extra } });
    const missing = await refused("POST", "/v1/docs", { token: key, json: { content: "# Notes" } });
    expect(missing).toMatchObject({ error: "filename is required (the document's name, such as notes.md)", path: "body.filename" });
    const empty = await refused("POST", "/v1/docs", { token: key, json: {} });
    expect(empty.issues).toEqual([
      { path: "body.filename", message: "filename is required (the document's name, such as notes.md)" },
      { path: "body.content", message: "content is required (the document's text)" },
    ]);
    expect(await doc({ filename: 5 })).toMatchObject({ error: "filename must be a string", path: "body.filename" });
    expect(await doc({ filename: "" })).toMatchObject({ error: "filename must not be empty", path: "body.filename" });
    expect(await doc({ filename: "a/b.md" })).toMatchObject({ error: "filename must not contain / or \\", path: "body.filename" });
    expect(await doc({ title: "x".repeat(256) })).toMatchObject({ error: "title must be at most 255 characters long", path: "body.title" });
    expect(await doc({ title: "  " })).toMatchObject({ error: "title must not be blank", path: "body.title" });
    expect(await doc({ title: "a\u202eb" })).toMatchObject({ error: "title must not contain bidi control characters (such as U+202E)" });
    expect(await doc({ isPublic: "yes" })).toMatchObject({ error: "isPublic must be true or false", path: "body.isPublic" });
    expect(await doc({ tags: ["a", "a"] })).toMatchObject({ error: "tags must not hold the same value twice", path: "body.tags" });
    expect(await doc({ tags: Array.from({ length: 11 }, (_, i) => `t${i}`) })).toMatchObject({ error: "tags may hold at most 10 items", path: "body.tags" });
    expect(await doc({ tags: ["x".repeat(33)] })).toMatchObject({ error: "tags.0 must be at most 32 characters long", path: "body.tags.0" });
    const signup = await refused("POST", "/v1/auth/signup", { json: { email: "not-an-address", password: "correct horse battery staple" } });
    expect(signup).toMatchObject({ error: "email must be an e-mail address", path: "body.email" });
  });

  test("path parameters and whole bodies", async () => {
    const { key } = await makeClient();
    expect(await refused("GET", "/v1/docs/short", { token: key })).toMatchObject({
      error: "id must be 21 characters of A-Z, a-z, 0-9, _ and - (an id)",
      path: "path.id",
    });
    expect(await refused("PATCH", `/v1/docs/${"a".repeat(21)}`, { token: key, json: {} })).toMatchObject({
      error: "body must have at least 1 field",
      path: "body",
    });
  });
});
