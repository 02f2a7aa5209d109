// The object store away (an S3 store nobody answers for, as when it is stopped or
// restarting): every route answers 503 STORAGE_ERROR with Retry-After where it needs the
// store, or its own answer where it does not; never a 500 or a 502, and a refused upload
// keeps no counted bytes. The resources each route aims at were made while the store was
// up (the suite's own parts); the app under test shares their database and kv, and reaches
// the store through a loopback port nothing listens on.
import { afterAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { withOutages } from "../../src/infra/storage/outages.ts";
import { createS3Storage } from "../../src/infra/storage/s3.ts";
import type { Storage } from "../../src/infra/storage/types.ts";
import { createApp } from "../../src/wiring/app.ts";
import { createServices, type Services } from "../../src/wiring/services.ts";
import { fixture, audioForm } from "../audio/fixtures.ts";
import { callJson, testContext } from "../helpers/context.ts";
import { makeClient } from "../helpers/factories.ts";
import { png, uploadForm } from "../images/fixtures.ts";
import { sha256 } from "../kbs/fixtures.ts";
import { jsonBytes, manifestOf, rawZip } from "../migration/fixtures.ts";
import { clip, videoForm } from "../videos/fixtures.ts";
import { fillPath, judge, newCaller, type Operation, operations } from "./no-500-sweep.ts";
import { TEST_TIMEOUT_MS } from "../helpers/timeout.ts";

setDefaultTimeout(TEST_TIMEOUT_MS);

function closedPort(): number {
  const s = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { data() {} } });
  const port = s.port;
  s.stop(true);
  return port;
}

let away: { services: Services; app: ReturnType<typeof createApp> } | undefined;
async function awayApp() {
  if (!away) {
    const shared = await testContext();
    const storage = createS3Storage({
      bucket: "away",
      endpoint: `http://127.0.0.1:${closedPort()}`,
      region: "us-east-1",
      accessKeyId: "x",
      secretAccessKey: "y",
    });
    const services = createServices({ ...shared.deps, storage });
    away = { services, app: createApp(services) };
  }
  return away;
}
afterAll(() => away?.services.close());

/** More than 256 KB of text: a document's content then lives in the object store. */
const BIG_TEXT = `# Away\n\n${"a line of words that fills the document\n".repeat(8000)}`;

/** A valid body for the operations that store bytes; the rest are sent none (or `{}`), and answer as they do without the store. */
async function bodyOf(o: Operation): Promise<{ body?: BodyInit; headers?: Record<string, string> }> {
  const json = (v: unknown) => ({ body: JSON.stringify(v), headers: { "content-type": "application/json" } });
  switch (`${o.method} ${o.path}`) {
    case "POST /v1/images":
    case "POST /v1/videos/{id}/thumbnail":
      return { body: uploadForm(await png(16, 16), { filename: "a.png" }) };
    case "POST /v1/audio":
      return { body: audioForm(await fixture("mp3")) };
    case "POST /v1/videos":
      return { body: videoForm(await clip({ seconds: 1 })) };
    case "POST /v1/docs":
      return json({ filename: "away.md", content: BIG_TEXT });
    case "POST /v1/migration": {
      const form = new FormData();
      form.append("file", new Blob([rawZip([{ name: "manifest.json", bytes: jsonBytes(manifestOf([])) }]) as BlobPart]), "export.zip");
      return { body: form };
    }
    case "POST /v1/kbs/{id}/sync":
      return json({ ops: [{ op: "upsert", relativePath: "away.md", content: BIG_TEXT, sourceHash: sha256(BIG_TEXT) }] });
    case "POST /v1/uploads":
      return { headers: { "tus-resumable": "1.0.0", "upload-length": "6000000", "upload-metadata": `kind ${btoa("video")},filename ${btoa("v.mp4")}` } };
  }
  return o.method === "GET" || o.method === "HEAD" || o.method === "DELETE" ? {} : json({});
}

/**
 * The suite's store with the operations named in `failing` failing as an S3 store that
 * stopped answering fails them (Bun's client: code ConnectionRefused), through the same
 * outage wrapper every store is made with.
 */
function flaky(store: Storage, failing: Set<string>): Storage {
  return withOutages(
    new Proxy(store, {
      get(target, name, receiver) {
        const value = Reflect.get(target, name, receiver);
        if (typeof value !== "function" || !failing.has(String(name))) return value;
        return async () => {
          throw Object.assign(new Error("Unable to connect. Is the computer able to access the url?"), { code: "ConnectionRefused" });
        };
      },
    }),
  );
}

const tus = (
  app: { handle(r: Request): Promise<Response> },
  method: string,
  path: string,
  key: string,
  headers: Record<string, string>,
  body?: Uint8Array<ArrayBuffer>,
) =>
  app.handle(
    new Request(`http://shelf.test${path}`, { method, headers: { authorization: `Bearer ${key}`, "tus-resumable": "1.0.0", ...headers }, body: body ?? null }),
  );

const swept = operations.filter((o) => o.path.startsWith("/v1/") || o.path.startsWith("/media/"));

describe("the object store away", () => {
  test("every route answers 503 STORAGE_ERROR with Retry-After where it needs the store, and never a 500 or 502", async () => {
    const { app } = await awayApp();
    const failures: string[] = [];
    const refused: string[] = [];
    for (const o of swept) {
      const caller = await newCaller(o);
      const { body, headers } = await bodyOf(o);
      const h = new Headers(headers);
      h.set("authorization", `Bearer ${caller.user.jwt}`);
      if (o.path.startsWith("/v1/kbs/{id}")) h.set("service-sync-version", "2");
      const res = await app.handle(new Request(`http://shelf.test${fillPath(o, caller)}`, { method: o.method, headers: h, body: body ?? null }));
      const status = res.status;
      const retryAfter = res.headers.get("retry-after");
      const text = o.method === "HEAD" ? "" : await res.clone().text();
      if (status === 503) {
        refused.push(`${o.method} ${o.path}`);
        if (!retryAfter) failures.push(`${o.method} ${o.path}: 503 without Retry-After`);
        if (o.method !== "HEAD" && !o.path.startsWith("/media/") && JSON.parse(text).code !== "STORAGE_ERROR")
          failures.push(`${o.method} ${o.path}: 503 ${text.slice(0, 160)}`);
        continue;
      }
      const problem = await judge(o, res);
      if (problem) failures.push(`${o.method} ${o.path}: ${problem}`);
    }
    expect(failures).toEqual([]);
    // The sweep reached the store: every upload, a document's content, the edge's files.
    expect(refused).toEqual(
      expect.arrayContaining([
        "POST /v1/images",
        "POST /v1/audio",
        "POST /v1/videos",
        "POST /v1/videos/{id}/thumbnail",
        "POST /v1/docs",
        "POST /v1/migration",
        "GET /media/{file}",
        "GET /media/a/{file}",
        "GET /media/v/{id}/{file}",
      ]),
    );
  }, 120_000);

  test("a refused image, audio and document upload keeps nothing and counts no bytes", async () => {
    const { app } = await awayApp();
    const caller = await newCaller({ method: "POST", path: "/v1/images", op: {} });
    const token = caller.user.jwt;
    const usage = async () => (await callJson("GET", "/v1/user/me/usage", { token })).body.data;
    const before = await usage();
    for (const [path, body] of [
      ["/v1/images", uploadForm(await png(16, 16), { filename: "a.png" })],
      ["/v1/audio", audioForm(await fixture("mp3"))],
    ] as const) {
      const res = await callJson("POST", path, { app, token, body });
      expect(res.status).toBe(503);
      expect(res.headers.get("retry-after")).toBe("5");
      expect(res.body).toMatchObject({ success: false, code: "STORAGE_ERROR", meta: { dependency: "storage", retryAfter: 5 } });
    }
    const doc = await callJson("POST", "/v1/docs", { app, token, json: { filename: "away.md", content: BIG_TEXT } });
    expect(doc.status).toBe(503);
    expect(await usage()).toEqual(before);
    expect((await callJson("GET", "/v1/media", { token })).body.data.items).toEqual([]);
    expect((await callJson("GET", "/v1/docs", { token })).body.data.items).toEqual([]);
  });

  test("a document whose text lives in the store (over 256 KB) is 503 to read while the store is away", async () => {
    const { app } = await awayApp();
    const caller = await newCaller({ method: "POST", path: "/v1/docs", op: {} });
    const made = await callJson("POST", "/v1/docs", { token: caller.user.jwt, json: { filename: "big.md", content: BIG_TEXT } });
    expect(made.status).toBe(201);
    const res = await callJson("GET", `/v1/docs/${made.body.data.id}/raw`, { app, token: caller.user.jwt });
    expect(res.status).toBe(503);
    expect(res.headers.get("retry-after")).toBe("5");
    expect(res.body).toMatchObject({ success: false, code: "STORAGE_ERROR", meta: { dependency: "storage" } });
  });

  test("a resumable upload finished while the store is away answers 503; its last PATCH sent again once it is back finishes it", async () => {
    const shared = await testContext();
    const failing = new Set<string>();
    const services = createServices({ ...shared.deps, storage: flaky(shared.deps.storage, failing) });
    const app = createApp(services);
    const { key } = await makeClient({ plan: "pro" });
    const bytes = new Uint8Array(await png(24, 24));
    const meta = `filename ${Buffer.from("a.png").toString("base64")},kind ${Buffer.from("image").toString("base64")}`;
    const created = await tus(app, "POST", "/v1/uploads", key, { "upload-length": String(bytes.length), "upload-metadata": meta });
    expect(created.status).toBe(201);
    const path = new URL(created.headers.get("location")!, "http://shelf.test").pathname;
    const octets = { "content-type": "application/offset+octet-stream" };

    // Every byte goes in, but the store is gone when the file is read back to be made an image.
    failing.add("get").add("read");
    const last = await tus(app, "PATCH", path, key, { ...octets, "upload-offset": "0" }, bytes);
    expect(last.status).toBe(503);
    expect(last.headers.get("retry-after")).toBe("5");
    expect(await last.json()).toMatchObject({ success: false, code: "STORAGE_ERROR", meta: { dependency: "storage" } });

    failing.clear();
    const head = await tus(app, "HEAD", path, key, {});
    expect(head.headers.get("upload-offset")).toBe(String(bytes.length));
    const again = await tus(app, "PATCH", path, key, { ...octets, "upload-offset": String(bytes.length) });
    expect(again.status).toBe(204);
    expect(again.headers.get("x-resource-id")).toBeTruthy();
    await services.close();
  });
});
