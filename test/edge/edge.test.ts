// The media edge serving images: negotiation, validators, ranges, privacy and cache
// invalidation (bandwidth.test.ts: metering; extension.test.ts: a kind of one's own).
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { eq } from "drizzle-orm";
import { createApp } from "../../src/wiring/app.ts";
import type { Storage } from "../../src/infra/storage/index.ts";
import type { Kv } from "../../src/infra/kv/index.ts";
import { createEdgeCache } from "../../src/modules/edge/cache.ts";
import { acceptsWebp } from "../../src/modules/edge/http.ts";
import { EDGE_CHANNEL } from "../../src/modules/edge/invalidation.ts";
import { objectKey } from "../../src/modules/images/objects.ts";
import { images } from "../../src/modules/images/table.ts";
import { createServices } from "../../src/wiring/services.ts";
import { sharp } from "../../src/infra/sharp.ts";
import { CACHE_TTL_MS } from "../../src/infra/cache.ts";
import { stoppedClock } from "../helpers/clock.ts";
import { callJson, testContext } from "../helpers/context.ts";
import { inbox } from "../helpers/events.ts";
import { makeClient, makeKey } from "../helpers/factories.ts";
import { edgeGet, jpegWithExif, png, uploaded } from "../images/fixtures.ts";
import { TEST_TIMEOUT_MS } from "../helpers/timeout.ts";

setDefaultTimeout(TEST_TIMEOUT_MS);

const BROWSER = "image/avif,image/webp,image/apng,image/svg+xml,image/*,*/*;q=0.8";
const photo = await jpegWithExif({ width: 320, height: 240, orientation: 1 });

const bytesOf = async (res: Response) => new Uint8Array(await res.arrayBuffer());

describe("media edge: GET MEDIA_URL/<id>.<ext>", () => {
  test("a browser-like Accept gets WebP, a bare */* gets the original; both immutable, Vary: Accept, nosniff, x-request-id", async () => {
    const { key } = await makeClient();
    const d = await uploaded(key, photo);
    const webp = await edgeGet(d.url, { accept: BROWSER });
    expect(webp.status).toBe(200);
    expect(webp.headers.get("content-type")).toBe("image/webp");
    expect((await sharp(await bytesOf(webp)).metadata()).format).toBe("webp");
    const orig = await edgeGet(d.url, { accept: "*/*" });
    expect(orig.headers.get("content-type")).toBe("image/jpeg");
    const origBytes = await bytesOf(orig);
    expect(origBytes.length).toBe(d.size);
    for (const res of [webp, orig]) {
      expect(res.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
      expect(res.headers.get("vary")).toBe("Accept");
      expect(res.headers.get("x-content-type-options")).toBe("nosniff");
      expect(res.headers.get("x-request-id")).toBeTruthy();
      expect(res.headers.get("etag")).toMatch(/^"[A-Za-z0-9_-]{11}-[ow]1"$/);
    }
    expect(webp.headers.get("etag")).not.toBe(orig.headers.get("etag"));
    // No Accept at all, and image/* alone (old browsers without WebP), get the original.
    expect((await edgeGet(d.url)).headers.get("content-type")).toBe("image/jpeg");
    expect((await edgeGet(d.url, { accept: "image/png,image/*;q=0.8" })).headers.get("content-type")).toBe("image/jpeg");
    expect((await edgeGet(d.url, { accept: "image/webp;q=0, */*" })).headers.get("content-type")).toBe("image/jpeg");
  });

  test("If-None-Match with the strong ETag is 304 with no body; another tag is 200", async () => {
    const { key } = await makeClient();
    const d = await uploaded(key, photo);
    const first = await edgeGet(d.url, { accept: BROWSER });
    const etag = first.headers.get("etag")!;
    const again = await edgeGet(d.url, { accept: BROWSER, "if-none-match": etag });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe("");
    expect(again.headers.get("etag")).toBe(etag);
    expect((await edgeGet(d.url, { accept: BROWSER, "if-none-match": `"nope", W/${etag}` })).status).toBe(304);
    // The original has its own tag: the WebP's does not validate it.
    expect((await edgeGet(d.url, { accept: "*/*", "if-none-match": etag })).status).toBe(200);
  });

  test("byte ranges: 206 with Content-Range and the exact bytes; suffix ranges; 416 when unsatisfiable", async () => {
    const { key } = await makeClient();
    const d = await uploaded(key, photo);
    const whole = await bytesOf(await edgeGet(d.url, { accept: "*/*" }));
    const part = await edgeGet(d.url, { accept: "*/*", range: "bytes=10-99" });
    expect(part.status).toBe(206);
    expect(part.headers.get("content-range")).toBe(`bytes 10-99/${whole.length}`);
    expect(await bytesOf(part)).toEqual(whole.subarray(10, 100));
    const tail = await edgeGet(d.url, { accept: "*/*", range: "bytes=-20" });
    expect(await bytesOf(tail)).toEqual(whole.subarray(whole.length - 20));
    const bad = await edgeGet(d.url, { accept: "*/*", range: `bytes=${whole.length}-` });
    expect(bad.status).toBe(416);
    expect(bad.headers.get("content-range")).toBe(`bytes */${whole.length}`);
    // An If-Range that no longer matches gets the whole thing.
    expect((await edgeGet(d.url, { accept: "*/*", range: "bytes=0-9", "if-range": '"old"' })).status).toBe(200);
  });

  test("range edge cases: several ranges or a malformed header get the whole file; bytes=-0 and an inverted range are 416", async () => {
    const { key } = await makeClient();
    const d = await uploaded(key, photo);
    const whole = await bytesOf(await edgeGet(d.url, { accept: "*/*" }));
    for (const range of ["bytes=0-9,20-29", "bytes=0-9, 20-", "bytes=abc", "items=0-9", "bytes=-", "bytes 0-9"]) {
      const res = await edgeGet(d.url, { accept: "*/*", range });
      expect(res.status, range).toBe(200);
      expect(res.headers.get("content-range"), range).toBeNull();
      expect(await bytesOf(res)).toEqual(whole);
    }
    for (const range of ["bytes=-0", "bytes=5-2"]) {
      const res = await edgeGet(d.url, { accept: "*/*", range });
      expect(res.status, range).toBe(416);
      expect(res.headers.get("content-range"), range).toBe(`bytes */${whole.length}`);
    }
  });

  test("If-None-Match: * is 304; a 304 carries Vary, Cache-Control and the ETag", async () => {
    const { key } = await makeClient();
    const d = await uploaded(key, photo);
    for (const inm of ["*", ` * `]) {
      const res = await edgeGet(d.url, { accept: BROWSER, "if-none-match": inm });
      expect(res.status).toBe(304);
      expect(await res.text()).toBe("");
      expect(res.headers.get("vary")).toBe("Accept");
      expect(res.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
      expect(res.headers.get("etag")).toMatch(/-w1"$/);
    }
    // A Range with a matching If-None-Match is still 304: the client has the representation.
    const etag = (await edgeGet(d.url, { accept: "*/*" })).headers.get("etag")!;
    expect((await edgeGet(d.url, { accept: "*/*", "if-none-match": etag, range: "bytes=0-9" })).status).toBe(304);
  });

  test("an original over the in-memory size is streamed from storage, whole and by range", async () => {
    const { key } = await makeClient();
    const noisy = await sharp({ create: { width: 1024, height: 1024, channels: 3, background: "black", noise: { type: "gaussian", mean: 128, sigma: 80 } } })
      .png()
      .toBuffer();
    expect(noisy.length).toBeGreaterThan(1024 * 1024);
    const d = await uploaded(key, new Uint8Array(noisy));
    const whole = await bytesOf(await edgeGet(d.url, { accept: "*/*" }));
    expect(whole.length).toBe(d.size);
    expect(Buffer.compare(await sharp(whole).raw().toBuffer(), await sharp(noisy).raw().toBuffer())).toBe(0);
    const part = await edgeGet(d.url, { accept: "*/*", range: "bytes=1000000-1000999" });
    expect(part.status).toBe(206);
    expect(await bytesOf(part)).toEqual(whole.subarray(1_000_000, 1_001_000));
  });

  /** Runs `check` against an uploaded photo's edge URL on a listening server (HEAD needs a real connection). */
  async function onRealServer(check: (url: string, d: Awaited<ReturnType<typeof uploaded>>) => Promise<void>) {
    const { services } = await testContext();
    const { key } = await makeClient();
    const d = await uploaded(key, photo);
    const server = createApp(services).listen({ port: 0, hostname: "127.0.0.1" });
    try {
      await check(`${server.server!.url.origin}${new URL(d.url).pathname}`, d);
    } finally {
      await server.stop(true);
    }
  }

  test("HEAD over a real connection: the representation's Content-Length and headers, no body", async () => {
    await onRealServer(async (url, d) => {
      const head = await fetch(url, { method: "HEAD", headers: { accept: "*/*" } });
      expect(head.status).toBe(200);
      expect(head.headers.get("content-length")).toBe(String(d.size));
      expect(head.headers.get("etag")).toMatch(/^"[A-Za-z0-9_-]{11}-[ow]1"$/);
      expect(await head.text()).toBe("");
      const get = await fetch(url, { headers: { accept: BROWSER } });
      expect(get.headers.get("content-type")).toBe("image/webp");
      expect(get.headers.get("x-request-id")).toBeTruthy();
      expect(Number(get.headers.get("content-length"))).toBe((await get.arrayBuffer()).byteLength);
    });
  });

  test("HEAD with a Range over a real connection: 206, the range's Content-Range and Content-Length, no body", async () => {
    await onRealServer(async (url, d) => {
      const head = await fetch(url, { method: "HEAD", headers: { accept: "*/*", range: "bytes=10-19" } });
      expect(head.status).toBe(206);
      expect(head.headers.get("content-range")).toBe(`bytes 10-19/${d.size}`);
      expect(head.headers.get("content-length")).toBe("10");
      expect(await head.text()).toBe("");
    });
  });

  test("a listening server answers the edge's paths (Bun routes, no Elysia) exactly as app.handle does", async () => {
    const { app } = await testContext();
    const failing = await testContext().then(({ deps }) => {
      const storage: Storage = {
        ...deps.storage,
        read: () => Promise.reject(new Error("connect ECONNRESET 10.0.0.7:9000")),
        get: () => Promise.reject(new Error("down")),
      };
      return createServices({ ...deps, storage });
    });
    await onRealServer(async (url, d) => {
      const path = new URL(url).pathname;
      const cases: [string, RequestInit][] = [
        [path, { headers: { accept: BROWSER } }],
        [path, { headers: { accept: "*/*", range: "bytes=10-19" } }],
        [path, { headers: { accept: "*/*", range: "bytes=999999999-" } }],
        [`${path}?v=2`, { headers: { accept: "*/*", "if-none-match": `"${d.id}-o1"` } }],
        [path.replace(/\.jpg$/, ".png"), {}],
        ["/media/..%2Fetc.png", {}],
        ["/media/%E0%A4%A.png", {}],
        [path, { method: "POST" }],
        [path, { method: "DELETE" }],
      ];
      const origin = new URL(url).origin;
      for (const [p, init] of cases) {
        const [real, handled] = [await fetch(`${origin}${p}`, init), await app.handle(new Request(`http://shelf.test${p}`, init))];
        const label = `${init.method ?? "GET"} ${p} ${JSON.stringify(init.headers ?? {})}`;
        expect({ label, status: real.status }).toEqual({ label, status: handled.status });
        const headersOf = (r: Response) => Object.fromEntries([...r.headers].filter(([k]) => !["x-request-id", "date", "content-length"].includes(k)));
        expect({ label, ...headersOf(real) }).toEqual({ label, ...headersOf(handled) });
        expect(real.headers.get("x-request-id")).toBeTruthy();
        expect(await bytesOf(real)).toEqual(await bytesOf(handled));
      }
      // The client's own request id comes back.
      expect((await fetch(url, { headers: { "x-request-id": "trace-7" } })).headers.get("x-request-id")).toBe("trace-7");
    });
    // A storage failure behind the Bun route is the same 502 envelope, nothing leaked.
    const { key } = await makeClient();
    const d = await uploaded(key, await png());
    const server = createApp(failing).listen({ port: 0, hostname: "127.0.0.1" });
    try {
      const res = await fetch(`${server.server!.url.origin}${new URL(d.url).pathname}`);
      expect(res.status).toBe(502);
      expect(res.headers.get("x-request-id")).toBeTruthy();
      const text = await res.text();
      expect(JSON.parse(text)).toMatchObject({ success: false, code: "STORAGE_ERROR" });
      expect(text).not.toContain("10.0.0.7");
    } finally {
      await server.stop(true);
      await failing.close();
    }
  });

  test("unknown ids, a wrong extension and junk paths are 404 with the envelope and x-request-id", async () => {
    const { key } = await makeClient();
    const d = await uploaded(key, await png());
    for (const url of [
      d.url.replace(/\.png$/, ".jpg"),
      "http://shelf.test/media/AAAAAAAAAAA.png",
      "http://shelf.test/media/x.png",
      "http://shelf.test/media/..%2Fetc.png",
    ]) {
      const res = await edgeGet(url);
      expect(res.status).toBe(404);
      expect(res.headers.get("x-request-id")).toBeTruthy();
      expect(((await res.json()) as any).code).toBe("NOT_FOUND");
    }
  });

  test("an object deleted behind a cached record is the 404 of an unknown image, not a 500", async () => {
    const { deps } = await testContext();
    const { user, key } = await makeClient();
    const d = await uploaded(key, photo);
    expect((await edgeGet(d.url, { accept: "*/*" })).status).toBe(200); // record cached, WebP bytes not read yet
    // What a node sees between a delete's removal of the objects and its cache entry expiring.
    await deps.storage.delete(objectKey({ ownerId: user.id, id: d.id, format: "jpeg" }, "webp"));
    const res = await edgeGet(d.url, { accept: BROWSER });
    expect(res.status).toBe(404);
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(((await res.json()) as any).code).toBe("NOT_FOUND");
  });

  test("a storage failure other than a missing object is 502 STORAGE_ERROR", async () => {
    const { deps } = await testContext();
    const { key } = await makeClient();
    const d = await uploaded(key, photo);
    const failing: Storage = { ...deps.storage, read: () => Promise.reject(new Error("connect ECONNRESET 10.0.0.7:9000")) };
    const services = createServices({ ...deps, storage: failing });
    try {
      const res = await createApp(services).handle(new Request(d.url, { headers: { accept: "*/*" } }));
      expect(res.status).toBe(502);
      const text = await res.text();
      expect(JSON.parse(text)).toMatchObject({ success: false, code: "STORAGE_ERROR" });
      expect(text).not.toContain("10.0.0.7");
    } finally {
      await services.close();
    }
  });

  test("a private image is 404 to anonymous requests and other users, served to its owner's key as private", async () => {
    const { user, key } = await makeClient();
    const d = await uploaded(key, photo, { is_public: "false" });
    expect((await edgeGet(d.url)).status).toBe(404);
    const { key: stranger } = await makeClient();
    expect((await edgeGet(d.url, { authorization: `Bearer ${stranger}` })).status).toBe(404);
    const { key: noRead } = await makeKey(user, ["media.write"]);
    expect((await edgeGet(d.url, { authorization: `Bearer ${noRead}` })).status).toBe(404);
    const mine = await edgeGet(d.url, { authorization: `Bearer ${key}`, accept: BROWSER });
    expect(mine.status).toBe(200);
    expect(mine.headers.get("content-type")).toBe("image/webp");
    expect(mine.headers.get("cache-control")).toBe("private, no-cache");
  });

  test("making an image private stops the edge at once, though it was cached; making it public again serves it at once", async () => {
    const { key } = await makeClient();
    const d = await uploaded(key, photo);
    expect((await edgeGet(d.url, { accept: BROWSER })).status).toBe(200); // cached now
    await callJson("PATCH", `/v1/images/${d.id}`, { token: key, json: { is_public: false } });
    expect((await edgeGet(d.url, { accept: BROWSER })).status).toBe(404);
    await callJson("PATCH", `/v1/images/${d.id}`, { token: key, json: { is_public: true } });
    expect((await edgeGet(d.url, { accept: BROWSER })).status).toBe(200);
  });
});

describe("edge invalidation", () => {
  test("an invalidation from another node, through the kv, drops the cached record", async () => {
    const { deps } = await testContext();
    const { key } = await makeClient();
    const d = await uploaded(key, photo);
    // This node: its cache on a stopped clock, so its record cannot age out between two
    // steps of a slow run, and a kv that says when the edge has handled a message.
    const handled = inbox();
    const subscriptions: Promise<unknown>[] = [];
    const kv: Kv = {
      ...deps.kv,
      subscribe(channel, onMessage) {
        const sub = deps.kv.subscribe(channel, (m) => {
          onMessage(m);
          if (channel === EDGE_CHANNEL) handled.push(m);
        });
        subscriptions.push(sub);
        return sub;
      },
    };
    const services = createServices({ ...deps, kv, clock: stoppedClock() });
    const app = createApp(services);
    const get = () => app.handle(new Request(d.url, { headers: { accept: BROWSER } }));
    try {
      expect((await get()).status).toBe(200); // cached now
      // Made private by another node: its database write, then its message on the kv.
      await deps.db.update(images).set({ isPublic: false }).where(eq(images.id, d.id));
      expect((await get()).status).toBe(200); // still the cached record
      await Promise.all(subscriptions);
      await deps.kv.publish(EDGE_CHANNEL, `image:${d.id}`);
      await handled.has(`image:${d.id}`);
      expect((await get()).status).toBe(404);
    } finally {
      await services.close();
    }
  });

  test("closing the services ends every kv subscription they and their app's edge opened", async () => {
    const { deps } = await testContext();
    let open = 0;
    const opening: Promise<unknown>[] = [];
    const kv: Kv = {
      ...deps.kv,
      subscribe(channel, onMessage) {
        const sub = deps.kv.subscribe(channel, onMessage).then((off) => {
          open++;
          return async () => {
            open--;
            await off();
          };
        });
        opening.push(sub);
        return sub;
      },
    };
    const services = createServices({ ...deps, kv });
    createApp(services);
    await Promise.all(opening);
    expect(opening.length).toBeGreaterThanOrEqual(2); // key revocations and edge invalidations
    expect(open).toBe(opening.length);
    await services.close();
    expect(open).toBe(0);
  });
});

describe("edge rules in isolation", () => {
  test("Accept media types and q are case-insensitive", async () => {
    expect(acceptsWebp("IMAGE/WEBP,*/*")).toBe(true);
    expect(acceptsWebp("Image/WebP;Q=0.5")).toBe(true);
    expect(acceptsWebp("image/WEBP;Q=0, */*")).toBe(false);
    const { key } = await makeClient();
    const d = await uploaded(key, photo);
    expect((await edgeGet(d.url, { accept: "IMAGE/WEBP,*/*;q=0.8" })).headers.get("content-type")).toBe("image/webp");
  });

  test("dropping an object drops its record and the bytes of every variant, even once the record is stale, and nothing else", () => {
    const clock = stoppedClock();
    const cache = createEdgeCache(clock.nowMs);
    const variant = (key: string, size: number) => ({ key, contentType: "image/jpeg", size, etag: `"${key}"` });
    const served = (...variants: ReturnType<typeof variant>[]) =>
      ({ ownerId: "u", isPublic: true, dimension: "image_bandwidth", cache: "immutable", variants }) as const;
    cache.setRecord("image", "AAAAAAAAAAA", served(variant("a/o", 3), variant("a/w", 2)));
    cache.setRecord("image", "BBBBBBBBBBB", served(variant("b/o", 1)));
    cache.setRecord("other", "AAAAAAAAAAA", served(variant("c/o", 1)));
    for (const [key, n] of [
      ["a/o", 3],
      ["a/w", 2],
      ["b/o", 1],
      ["c/o", 1],
    ] as const)
      cache.setBytes(key, new Uint8Array(n));
    clock.advance(CACHE_TTL_MS); // stale: no longer served, still known to the drop
    expect(cache.record("image", "AAAAAAAAAAA")).toBeUndefined();
    cache.drop("image", "AAAAAAAAAAA");
    expect(cache.bytes("a/o")).toBeUndefined();
    expect(cache.bytes("a/w")).toBeUndefined();
    expect(cache.bytes("b/o")?.size).toBe(1);
    expect(cache.bytes("c/o")?.size).toBe(1); // the same id of another kind is another object
  });
});
