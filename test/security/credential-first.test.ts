// The credential before the body (http/body-limit.ts): a request to a guarded route without
// a valid credential is refused before its body is read or any of the node's upload memory
// is reserved, so anonymous traffic cannot hold what signed-in users need. Routes that take
// no credential before their body take small bodies only.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { OPEN_JSON_MAX_BYTES } from "../../src/http/body-limit.ts";
import { createBudget } from "../../src/infra/budget.ts";
import { createApp } from "../../src/wiring/app.ts";
import { createServices } from "../../src/wiring/services.ts";
import { call, callJson, testContext } from "../helpers/context.ts";
import { makeClient, makeKey, makeUser } from "../helpers/factories.ts";
import { type Operation, operations } from "./no-500-sweep.ts";
import { TEST_TIMEOUT_MS } from "../helpers/timeout.ts";

setDefaultTimeout(TEST_TIMEOUT_MS);

const MB = 1024 * 1024;
/** What the lingering read may take of a refused body (body-limit.ts), and a chunk of slack. */
const LINGER_MAX = 8 * MB + 64 * 1024;

/** A body of `total` bytes that counts what was read of it; with `stall`, it sends 100 bytes and then nothing more. */
function countingBody(total: number, stall = false) {
  let sent = 0;
  const chunk = new Uint8Array(64 * 1024).fill(0x20);
  const stream = new ReadableStream<Uint8Array>({
    pull(c) {
      if (stall) {
        if (sent === 0) {
          sent = 100;
          c.enqueue(chunk.subarray(0, 100));
        }
        return new Promise(() => {});
      }
      if (sent >= total) return c.close();
      sent += chunk.length;
      c.enqueue(chunk);
    },
  });
  return { stream, read: () => sent };
}

const jsonHeaders = (bytes: number) => ({ "content-type": "application/json", "content-length": String(bytes) });

/**
 * Every operation a credential guards that may carry a body: JSON routes (the body parser
 * reads them), uploads (they read their own) and routes that take no body at all (a body
 * sent to one is read by the parser all the same). The MCP endpoint has its own (test/mcp).
 */
const guarded = operations.filter(
  (o: Operation) =>
    o.method !== "GET" && o.method !== "HEAD" && o.op.security?.length && !o.op.security.some((s: object) => Object.keys(s).length === 0) && !o.op["x-jsonrpc"],
);
const pathOf = (o: Operation) => o.path.replace(/\{\w+\}/g, "abcdefghijk");

describe("the credential is checked before the body is read", () => {
  test("every guarded route answers 401 to a 64 MB body without a credential, reading no more than the lingering read", async () => {
    expect(guarded.length).toBeGreaterThan(30);
    const faults: string[] = [];
    for (const o of guarded) {
      for (const token of [undefined, "shelf_not-a-key"]) {
        const body = countingBody(64 * MB);
        const res = await call(o.method, pathOf(o), { token, headers: jsonHeaders(64 * MB), body: body.stream });
        const text = await res.text();
        if (res.status !== 401) faults.push(`${o.method} ${o.path}: ${res.status} ${text.slice(0, 120)}`);
        else if (res.headers.get("connection") !== "close") faults.push(`${o.method} ${o.path}: 401 without Connection: close`);
        if (body.read() > LINGER_MAX) faults.push(`${o.method} ${o.path}: read ${body.read()} bytes of a refused body`);
      }
    }
    expect(faults).toEqual([]);
  });

  test("a credential without the route's scope is refused (403) before the body is read", async () => {
    const { key } = await makeKey(await makeUser(), ["media.read"]);
    const body = countingBody(64 * MB);
    const res = await callJson("POST", "/v1/docs", { token: key, headers: jsonHeaders(64 * MB), body: body.stream });
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ success: false, code: "FORBIDDEN", meta: { required: "kb.write" } });
    expect(body.read()).toBeLessThanOrEqual(LINGER_MAX);
  });

  test("unauthenticated bodies that stall hold none of the node's upload memory; a signed-in document still goes in", async () => {
    const shared = await testContext();
    // Room for one 64 MB document body, and no waiting: a reservation that does not fit is refused at once.
    const uploadMemory = createBudget({ name: "upload memory", capacity: 64 * MB, maxWaitMs: 0 });
    const services = createServices({ ...shared.deps, budgets: { ...shared.deps.budgets, uploadMemory } });
    const app = createApp(services);
    const stalled = Array.from({ length: 8 }, () => countingBody(64 * MB, true));
    const answers = await Promise.all(
      stalled.map((b, i) => call("POST", i % 2 ? "/v1/kbs/abcdefghijk/sync" : "/v1/docs", { app, headers: jsonHeaders(64 * MB), body: b.stream })),
    );
    for (const res of answers) {
      expect(res.status).toBe(401);
      expect(res.headers.get("connection")).toBe("close");
    }
    expect(uploadMemory.usage()).toEqual({ used: 0, holders: 0, queued: 0 });

    const { key } = await makeClient({ plan: "pro" });
    const content = `# A note\n\n${"words ".repeat(MB / 6)}`;
    const doc = await callJson("POST", "/v1/docs", { app, token: key, json: { filename: "note.md", content } });
    expect(doc.status).toBe(201);
    await services.close();
  });
});

describe("routes that take no credential before their body take small bodies", () => {
  test(`sign-in, sign-up and client registration refuse a body over ${OPEN_JSON_MAX_BYTES} bytes with 413`, async () => {
    for (const path of ["/v1/auth/login", "/v1/auth/signup", "/oauth/register"]) {
      // Declared far over the limit: refused without reading it.
      const declared = countingBody(64 * MB);
      const res = await callJson("POST", path, { headers: jsonHeaders(64 * MB), body: declared.stream });
      expect(res.status).toBe(413);
      expect(res.body).toMatchObject({ code: "FILE_TOO_LARGE", meta: { limit: OPEN_JSON_MAX_BYTES } });
      // (one chunk of the stream is pulled before any reader asks for it)
      expect(declared.read()).toBeLessThanOrEqual(64 * 1024);
      // Sent chunked: refused once it passes the limit.
      const chunked = countingBody(MB);
      const cut = await call("POST", path, { headers: { "content-type": "application/json" }, body: chunked.stream });
      expect(cut.status).toBe(413);
    }
  });
});
