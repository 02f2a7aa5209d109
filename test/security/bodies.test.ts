// Request bodies are JSON only, and strictly so: any other declared type is 415, and a
// JSON body that is not valid UTF-8 is 400, never decoded with replacement characters.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { REFRESH_COOKIE } from "../../src/modules/identity/index.ts";
import { call, callJson } from "../helpers/context.ts";
import { audioObjects, fixture } from "../audio/fixtures.ts";
import { makeClient, makeUser, PASSWORD } from "../helpers/factories.ts";
import { clip, videoObjects } from "../videos/fixtures.ts";
import { png, upload } from "../images/fixtures.ts";
import { TEST_TIMEOUT_MS } from "../helpers/timeout.ts";

setDefaultTimeout(TEST_TIMEOUT_MS);

const utf8 = (s: string) => new TextEncoder().encode(s);
/** `before`, the bytes 0xC3 0x28 (a lead byte without its continuation), then `after`. */
const invalidUtf8 = (before: string, after: string) => new Uint8Array([...utf8(before), 0xc3, 0x28, ...utf8(after)]);

async function keyNames(jwt: string): Promise<string[]> {
  const res = await callJson("GET", "/v1/api-keys", { token: jwt });
  expect(res.status).toBe(200);
  return res.body.data.items.map((k: { name: string }) => k.name);
}

describe("a JSON route refuses other body types with 415", () => {
  test("a form body to POST /v1/api-keys is 415 UNSUPPORTED_MEDIA_TYPE and creates no key", async () => {
    const u = await makeUser();
    for (const [type, body] of [
      ["application/x-www-form-urlencoded", "name=from-a-form"],
      ["text/plain", JSON.stringify({ name: "from-a-form" })],
    ] as const) {
      const res = await callJson("POST", "/v1/api-keys", { token: u.jwt, headers: { "content-type": type }, body });
      expect(res.status).toBe(415);
      expect(res.body).toMatchObject({ success: false, code: "UNSUPPORTED_MEDIA_TYPE", meta: { accepted: ["application/json"], received: type } });
    }
    const form = new FormData();
    form.append("name", "from-a-form");
    const multipart = await callJson("POST", "/v1/api-keys", { token: u.jwt, body: form });
    expect(multipart.status).toBe(415);
    expect(multipart.body.code).toBe("UNSUPPORTED_MEDIA_TYPE");
    expect(await keyNames(u.jwt)).toEqual([]);
  });

  test("JSON sent as text/plain to login is 415, and the same body as application/json signs in", async () => {
    const u = await makeUser();
    const body = JSON.stringify({ email: u.email, password: PASSWORD });
    const res = await callJson("POST", "/v1/auth/login", { headers: { "content-type": "text/plain;charset=UTF-8" }, body });
    expect(res.status).toBe(415);
    expect(res.body.code).toBe("UNSUPPORTED_MEDIA_TYPE");
    expect(res.headers.getSetCookie()).toEqual([]);
    expect((await call("POST", "/v1/auth/login", { headers: { "content-type": "application/json; charset=utf-8" }, body })).status).toBe(200);
  });

  test("a non-empty body without Content-Type is 415", async () => {
    const u = await makeUser();
    const res = await callJson("PATCH", "/v1/user/me", { token: u.jwt, body: new Blob([utf8(JSON.stringify({ nickname: "untyped" }))]) });
    expect(res.status).toBe(415);
    expect(res.body.code).toBe("UNSUPPORTED_MEDIA_TYPE");
    expect((await callJson("GET", "/v1/user/me", { token: u.jwt })).body.data.nickname).toBeNull();
  });

  test("JSON declared in another charset is 415; an application/*+json type is JSON", async () => {
    const u = await makeUser();
    const body = JSON.stringify({ nickname: "Zoë" });
    const latin1 = await callJson("PATCH", "/v1/user/me", { token: u.jwt, headers: { "content-type": "application/json; charset=iso-8859-1" }, body });
    expect(latin1.status).toBe(415);
    const merge = await callJson("PATCH", "/v1/user/me", { token: u.jwt, headers: { "content-type": "application/merge-patch+json" }, body });
    expect(merge.status).toBe(200);
    expect(merge.body.data.nickname).toBe("Zoë");
  });

  test("bodiless POSTs still work, whatever Content-Type the client adds", async () => {
    const u = await makeUser();
    const refreshed = await call("POST", "/v1/auth/refresh", {
      headers: { cookie: `${REFRESH_COOKIE}=${u.refreshToken}`, "content-type": "application/json" },
    });
    expect(refreshed.status).toBe(200);
    const next = refreshed.headers.getSetCookie()[0]!.split(";")[0]!.split("=")[1]!;
    const out = await call("POST", "/v1/auth/logout", {
      headers: { cookie: `${REFRESH_COOKIE}=${next}`, "content-type": "application/x-www-form-urlencoded" },
    });
    expect(out.status).toBe(204);
    expect((await call("GET", "/v1/user/me", { token: u.jwt })).status).toBe(401);
  });

  test("a JSON route without a body is 422 as before, not 415", async () => {
    const u = await makeUser();
    const res = await callJson("POST", "/v1/api-keys", { token: u.jwt });
    expect(res.status).toBe(422);
    expect(res.body.code).toBe("VALIDATION_ERROR");
  });

  test("the streaming upload route still reads its own multipart body", async () => {
    const u = await makeUser();
    const res = await upload(u.jwt, await png(), { filename: "still.png" });
    expect(res.status).toBe(201);
    expect(res.body.data.filename).toBe("still.png");
  });
});

describe("multipart text fields are read strictly", () => {
  const enc = new TextEncoder();
  /** A form of one text field (by default holding the bytes 0xC3 0x28), and a file. */
  const form = (field: string, file: Uint8Array, filename: string, value = invalidUtf8('["a', 'b"]')) => {
    const b = "strictfieldboundary";
    const parts = [
      enc.encode(`--${b}\r\nContent-Disposition: form-data; name="${field}"\r\n\r\n`),
      value,
      enc.encode(`\r\n--${b}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: application/octet-stream\r\n\r\n`),
      file,
      enc.encode(`\r\n--${b}--\r\n`),
    ];
    return { headers: { "content-type": `multipart/form-data; boundary=${b}` }, body: new Blob(parts as BlobPart[]) };
  };

  test("invalid UTF-8 in a streamed upload's title is 400 BAD_REQUEST and stores nothing", async () => {
    const { user, key } = await makeClient({ plan: "pro" });
    // The field and the file's first bytes arrive in one chunk: the refusal comes while the
    // parser is still in that chunk, and the file it then starts is not stored (it used to
    // be, and its stream never ended: the request hung).
    for (const [path, file, name] of [
      ["/v1/audio", await fixture("mp3"), "a.mp3"],
      ["/v1/videos", await clip({ seconds: 1 }), "c.mp4"],
    ] as const) {
      const res = await callJson("POST", path, { token: key, ...form("title", file, name) });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ success: false, code: "BAD_REQUEST", meta: { field: "body.title" } });
    }
    // The same for a field over its 8 KB (it used to hang the same way).
    const long = await callJson("POST", "/v1/videos", { token: key, ...form("title", await clip({ seconds: 1 }), "c.mp4", enc.encode("x".repeat(9000))) });
    expect(long.status).toBe(422);
    expect(long.body).toMatchObject({ code: "VALIDATION_ERROR", meta: { path: "body.title" } });
    expect(await audioObjects(user.id)).toEqual([]);
    expect(await videoObjects(user.id)).toEqual([]);
    expect((await callJson("GET", "/v1/media", { token: key })).body.data.items).toEqual([]);
  });

  test("invalid UTF-8 in an image upload's tags is 400 BAD_REQUEST and stores nothing", async () => {
    const { key } = await makeClient({ plan: "pro" });
    const res = await callJson("POST", "/v1/images", { token: key, ...form("tags", await png(), "a.png") });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ success: false, code: "BAD_REQUEST", meta: { field: "body.tags" } });
    expect((await callJson("GET", "/v1/images", { token: key })).body.data.items).toEqual([]);
  });
});

describe("JSON bodies are read strictly", () => {
  test("invalid UTF-8 in PATCH /v1/user/me is 400 BAD_REQUEST and the nickname is unchanged", async () => {
    const u = await makeUser();
    expect((await call("PATCH", "/v1/user/me", { token: u.jwt, json: { nickname: "Before" } })).status).toBe(200);
    const res = await callJson("PATCH", "/v1/user/me", {
      token: u.jwt,
      headers: { "content-type": "application/json" },
      body: invalidUtf8('{"nickname":"a', 'b"}'),
    });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ success: false, code: "BAD_REQUEST" });
    expect((await callJson("GET", "/v1/user/me", { token: u.jwt })).body.data.nickname).toBe("Before");
  });

  test("invalid UTF-8 in a key name is 400 and creates no key", async () => {
    const u = await makeUser();
    const res = await callJson("POST", "/v1/api-keys", {
      token: u.jwt,
      headers: { "content-type": "application/json" },
      body: invalidUtf8('{"name":"k', '"}'),
    });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe("BAD_REQUEST");
    expect(await keyNames(u.jwt)).toEqual([]);
  });

  test("malformed JSON is 400 BAD_REQUEST; valid UTF-8 beyond ASCII is kept as sent", async () => {
    const u = await makeUser();
    const bad = await callJson("PATCH", "/v1/user/me", { token: u.jwt, headers: { "content-type": "application/json" }, body: '{"nickname":' });
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe("BAD_REQUEST");
    const ok = await callJson("PATCH", "/v1/user/me", { token: u.jwt, json: { nickname: "Zoë 😀 日本" } });
    expect(ok.status).toBe(200);
    expect(ok.body.data.nickname).toBe("Zoë 😀 日本");
  });

  test("schema failures are still 422 VALIDATION_ERROR with meta.path", async () => {
    const u = await makeUser();
    const res = await callJson("PATCH", "/v1/user/me", { token: u.jwt, json: { docVersioningMax: 0 } });
    expect(res.status).toBe(422);
    expect(res.body.code).toBe("VALIDATION_ERROR");
    expect(res.body.meta.path).toBe("body.docVersioningMax");
  });

  test("a body that is JSON but not an object is 422 VALIDATION_ERROR at body, never read as an empty patch", async () => {
    const u = await makeUser();
    for (const body of ["5", '"x"', "[]", '[{"nickname":"array"}]', "null", "true"]) {
      const res = await callJson("PATCH", "/v1/user/me", { token: u.jwt, headers: { "content-type": "application/json" }, body });
      expect({ body, status: res.status, code: res.body.code, path: res.body.meta?.path }).toEqual({
        body,
        status: 422,
        code: "VALIDATION_ERROR",
        path: "body",
      });
    }
    const res = await callJson("POST", "/v1/api-keys", { token: u.jwt, headers: { "content-type": "application/json" }, body: '["k"]' });
    expect(res.status).toBe(422);
    expect(await keyNames(u.jwt)).toEqual([]);
  });

  test("the OpenAPI document lists application/json as the body type of JSON routes", async () => {
    const doc = (await callJson("GET", "/swagger/json")).body;
    for (const [path, method] of [
      ["/v1/api-keys", "post"],
      ["/v1/auth/login", "post"],
      ["/v1/user/me", "patch"],
      ["/v1/images/{id}", "patch"],
    ] as const) {
      const content = doc.paths[path][method].requestBody.content;
      expect(Object.keys(content)).toEqual(["application/json"]);
      expect(content["application/json"].schema).toBeDefined();
    }
    expect(Object.keys(doc.paths["/v1/images"].post.requestBody.content)).toEqual(["multipart/form-data"]);
  });
});

describe("JSON bodies are bounded", () => {
  /** A body stream of `total` bytes that counts how much of it was pulled. */
  function countingJson(total: number) {
    let sent = 0;
    const chunk = utf8(`{"name":"${"x".repeat(64 * 1024 - 10)}`);
    const stream = new ReadableStream<Uint8Array>({
      pull(c) {
        if (sent >= total) return c.close();
        sent += chunk.length;
        c.enqueue(chunk);
      },
    });
    return { stream, read: () => sent };
  }

  test("a JSON body over 1 MiB by its Content-Length is 413 FILE_TOO_LARGE without being read, even on a route that takes no body", async () => {
    for (const path of ["/v1/auth/login", "/v1/images"]) {
      const body = countingJson(64 * 1024 * 1024);
      const res = await call("POST", path, { headers: { "content-type": "application/json", "content-length": String(64 * 1024 * 1024) }, body: body.stream });
      expect(res.status).toBeOneOf(path === "/v1/auth/login" ? [413] : [400, 401, 413]);
      expect(body.read()).toBeLessThan(1024 * 1024);
    }
  });

  test("a chunked JSON body is kept only up to 1 MiB, then 413 and the connection closed after a lingering read of at most 8 MiB more", async () => {
    const u = await makeUser();
    const body = countingJson(64 * 1024 * 1024);
    const res = await callJson("POST", "/v1/api-keys", { token: u.jwt, headers: { "content-type": "application/json" }, body: body.stream });
    expect(res.status).toBe(413);
    expect(res.body.code).toBe("FILE_TOO_LARGE");
    expect(res.headers.get("connection")).toBe("close");
    // What is read past the limit is dropped as it comes (body-limit.ts lingerBytes), so
    // that a client still sending reads the answer before the connection goes.
    expect(body.read()).toBeLessThanOrEqual(9 * 1024 * 1024 + 3 * 64 * 1024);
    expect(await keyNames(u.jwt)).toEqual([]);
  });
});
