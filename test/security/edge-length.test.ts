// The edge sends exactly the bytes it advertises and meters, whatever the store returns:
// a store that ignores a range is cut to the range, one that delivers too little ends the
// transfer with an error instead of a short 206.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { createApp } from "../../src/wiring/app.ts";
import type { Storage } from "../../src/infra/storage/index.ts";
import type { Log } from "../../src/infra/log.ts";
import { createEdgeCache, HOT_OBJECT_MAX } from "../../src/modules/edge/cache.ts";
import { exactLength } from "../../src/modules/edge/exact-length.ts";
import { sharp } from "../../src/infra/sharp.ts";
import { testContext } from "../helpers/context.ts";
import { makeClient } from "../helpers/factories.ts";
import { edgeGet, uploaded } from "../images/fixtures.ts";
import { TEST_TIMEOUT_MS } from "../helpers/timeout.ts";

setDefaultTimeout(TEST_TIMEOUT_MS);

const bytesOf = async (res: Response) => new Uint8Array(await res.arrayBuffer());

/** A PNG of noise: over the edge's in-memory limit, so it is streamed from the store. */
const large = new Uint8Array(
  await sharp({ create: { width: 1024, height: 1024, channels: 3, background: "black", noise: { type: "gaussian", mean: 128, sigma: 80 } } })
    .png()
    .toBuffer(),
);

type Served = { dimension: string; day: string; ownerId: string; bytes: number };

/** An app on the shared parts whose store answers `get` through `get`, with its log and meter recorded. */
async function appWithStore(get: (storage: Storage, key: string, range?: { start: number; end: number }) => Promise<ReadableStream<Uint8Array> | null>) {
  const { deps, services } = await testContext();
  const warnings: { msg: string; fields?: Record<string, unknown> }[] = [];
  const log: Log = { ...deps.log, warn: (msg, fields) => warnings.push({ msg, fields }), child: () => log };
  const metered: Served[] = [];
  // A store of remote objects (no local file for the edge to send): every large body comes through `get`.
  const storage: Storage = { ...deps.storage, file: undefined, get: (key, range) => get(deps.storage, key, range) };
  const app = createApp({
    ...services,
    deps: { ...deps, storage, log },
    edgeCache: createEdgeCache(),
    meter: { add: (dimension, day, ownerId, bytes) => metered.push({ dimension, day, ownerId, bytes }), flush: async () => {}, close: async () => {} },
  });
  return { app, warnings, metered };
}

describe("edge: exactly the advertised bytes", () => {
  test("a 1-byte range of a large object delivers 1 byte and meters 1, on the store in use", async () => {
    const { key } = await makeClient();
    const d = await uploaded(key, large);
    expect(d.size).toBeGreaterThan(HOT_OBJECT_MAX);
    const res = await edgeGet(d.url, { accept: "*/*", range: "bytes=0-0" });
    expect(res.status).toBe(206);
    expect(res.headers.get("content-range")).toBe(`bytes 0-0/${d.size}`);
    expect(res.headers.get("content-length")).toBe("1");
    expect((await bytesOf(res)).length).toBe(1);
  });

  test("a store that ignores ranges: the body is cut to the range, the meter counts the range, the excess is logged", async () => {
    const { user, key } = await makeClient();
    const d = await uploaded(key, large);
    const { app, warnings, metered } = await appWithStore((storage, k) => storage.get(k));
    const server = app.listen({ port: 0, hostname: "127.0.0.1" });
    try {
      const url = `${server.server!.url.origin}${new URL(d.url).pathname}`;
      const res = await fetch(url, { headers: { accept: "*/*", range: "bytes=0-0" } });
      expect(res.status).toBe(206);
      expect(res.headers.get("content-length")).toBe("1");
      const body = await bytesOf(res);
      expect(body.length).toBe(1);
      expect(body[0]).toBe(0x89); // the PNG signature's first byte
      expect(metered).toEqual([expect.objectContaining({ dimension: "image_bandwidth", ownerId: user.id, bytes: 1 })]);
      expect(warnings.some((w) => w.msg.includes("wrong length") && (w.fields?.expected as number) === 1)).toBe(true);
    } finally {
      await server.stop(true);
    }
  });

  test("a store that delivers fewer bytes than the range: the transfer fails, never a short 206 taken for whole", async () => {
    const { key } = await makeClient();
    const d = await uploaded(key, large);
    const { app, warnings } = await appWithStore(async (storage, k, range) => {
      const whole = await storage.get(k, range);
      return whole && exactLength(whole, 100, () => {}); // the store stops after 100 bytes
    });
    const server = app.listen({ port: 0, hostname: "127.0.0.1" });
    try {
      const url = `${server.server!.url.origin}${new URL(d.url).pathname}`;
      // The connection drops: before the headers when the short body is known at once,
      // else mid-body. Either way no complete response reaches the client.
      const outcome = await fetch(url, { headers: { accept: "*/*", range: "bytes=1000-1999" } })
        .then(async (res) => `complete: ${res.status} with ${(await bytesOf(res)).length} bytes`)
        .catch(() => "failed");
      expect(outcome).toBe("failed");
      expect(warnings.some((w) => w.msg.includes("wrong length") && w.fields?.got === 100)).toBe(true);
    } finally {
      await server.stop(true);
    }
  });
});

describe("exactLength", () => {
  const streamOf = (...chunks: number[]) =>
    new ReadableStream<Uint8Array>({
      start(c) {
        for (const n of chunks) c.enqueue(new Uint8Array(n).fill(7));
        c.close();
      },
    });

  test("passes exactly the length through, across chunk boundaries, and reports nothing", async () => {
    const seen: unknown[] = [];
    const out = await new Response(exactLength(streamOf(3, 4, 5), 12, (m) => seen.push(m))).arrayBuffer();
    expect(out.byteLength).toBe(12);
    expect(seen).toEqual([]);
  });

  test("cuts a longer source at the length and reports it", async () => {
    const seen: unknown[] = [];
    const out = await new Response(exactLength(streamOf(3, 4, 5), 5, (m) => seen.push(m))).arrayBuffer();
    expect(out.byteLength).toBe(5);
    expect(seen).toEqual([{ expected: 5, got: 7 }]);
  });

  test("errors on a shorter source and reports it", async () => {
    const seen: unknown[] = [];
    await expect(new Response(exactLength(streamOf(3, 4), 10, (m) => seen.push(m))).arrayBuffer()).rejects.toThrow(/7 of 10/);
    expect(seen).toEqual([{ expected: 10, got: 7 }]);
  });
});
