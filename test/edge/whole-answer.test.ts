// A cached hit's whole GET (no range, no validator) is answered from headers built once per
// variant, from memory up to HOT_OBJECT_MAX and from its file past it where the store keeps
// files (serve.ts, "wholeAnswer"): the same answer as the general path, its own request
// id every time, metered each time.
import { expect, setDefaultTimeout, test } from "bun:test";
import { createApp } from "../../src/wiring/app.ts";
import { createEdgeCache, HOT_OBJECT_MAX } from "../../src/modules/edge/cache.ts";
import { sharp } from "../../src/infra/sharp.ts";
import { objectKey } from "../../src/modules/images/objects.ts";
import { testContext } from "../helpers/context.ts";
import { makeClient } from "../helpers/factories.ts";
import { uploaded } from "../images/fixtures.ts";
import { TEST_TIMEOUT_MS } from "../helpers/timeout.ts";

setDefaultTimeout(TEST_TIMEOUT_MS);

type Served = { dimension: string; ownerId: string; bytes: number };

/** The shared parts, a fresh edge cache and a recording meter, on a listening server (the Bun routes). */
async function listening() {
  const { services } = await testContext();
  const metered: Served[] = [];
  const app = createApp({
    ...services,
    edgeCache: createEdgeCache(),
    meter: { add: (dimension, _day, ownerId, bytes) => metered.push({ dimension, ownerId, bytes }), flush: async () => {}, close: async () => {} },
  });
  const server = app.listen({ port: 0, hostname: "127.0.0.1" }).server!;
  return { server, metered, origin: `http://127.0.0.1:${server.port}` };
}

const noise = async (side: number) =>
  new Uint8Array(
    await sharp({ create: { width: side, height: side, channels: 3, background: "black", noise: { type: "gaussian", mean: 128, sigma: 60 } } })
      .png()
      .toBuffer(),
  );

for (const [label, side] of [
  ["a small object (from memory)", 24],
  ["an object of 145 KB (from memory)", 220],
  ["an object over HOT_OBJECT_MAX (from its file where the store has files, else streamed)", 700],
] as const) {
  test(`${label}: whole GETs of a cached hit carry the full headers, a request id each, and are metered each`, async () => {
    const { user, key } = await makeClient();
    const original = await noise(side);
    const d = await uploaded(key, original);
    expect(d.size > HOT_OBJECT_MAX).toBe(side > 500);
    const { server, metered, origin } = await listening();
    try {
      const url = `${origin}${new URL(d.url).pathname}`;
      const answers: Response[] = [];
      const bodies: Uint8Array[] = [];
      for (let i = 0; i < 3; i++) {
        const res = await fetch(url, { headers: { accept: "*/*", ...(i === 2 && { "x-request-id": "given-id-1" }) } });
        answers.push(res);
        bodies.push(new Uint8Array(await res.arrayBuffer()));
      }
      // Past HOT_OBJECT_MAX an S3 store's object is streamed, and Bun sends a stream chunked.
      const { deps } = await testContext();
      const lengthSent = d.size <= HOT_OBJECT_MAX || !!deps.storage.file;
      for (const [i, res] of answers.entries()) {
        expect(res.status).toBe(200);
        expect(res.headers.get("content-length")).toBe(lengthSent ? String(d.size) : null);
        expect(res.headers.get("content-type")).toBe("image/png");
        expect(res.headers.get("etag")).toBe(answers[0]!.headers.get("etag"));
        expect(res.headers.get("cache-control")).toBe(answers[0]!.headers.get("cache-control"));
        expect(res.headers.get("accept-ranges")).toBe("bytes");
        expect(res.headers.get("x-content-type-options")).toBe("nosniff");
        expect(bodies[i]).toEqual(original);
      }
      const ids = answers.map((r) => r.headers.get("x-request-id"));
      expect(ids[2]).toBe("given-id-1");
      expect(new Set(ids).size).toBe(3);
      expect(metered).toEqual(Array(3).fill({ dimension: "image_bandwidth", ownerId: user.id, bytes: d.size }));

      // The same cached record still answers ranges, validators and HEAD by the general path.
      const etag = answers[0]!.headers.get("etag")!;
      const ranged = await fetch(url, { headers: { accept: "*/*", range: "bytes=0-9" } });
      expect(ranged.status).toBe(206);
      expect(new Uint8Array(await ranged.arrayBuffer())).toEqual(original.slice(0, 10));
      const revalidated = await fetch(url, { headers: { accept: "*/*", "if-none-match": etag } });
      expect(revalidated.status).toBe(304);
      const head = await fetch(url, { method: "HEAD", headers: { accept: "*/*" } });
      expect(head.status).toBe(200);
      expect(head.headers.get("content-length")).toBe(String(d.size));
      expect(metered.length).toBe(4);
    } finally {
      server.stop(true);
    }
  });
}

/**
 * A PNG of `side` pixels uploaded and served once from a listening server, then removed from
 * storage behind the edge's cached record (not through a delete, which would drop the record
 * on every node): the answer to the next GET, with the original bytes and their size.
 */
async function servedThenRemoved(side: number) {
  const { deps } = await testContext();
  const { user, key } = await makeClient();
  const original = await noise(side);
  const d = await uploaded(key, original);
  const { server, origin } = await listening();
  try {
    const url = `${origin}${new URL(d.url).pathname}`;
    const first = await fetch(url, { headers: { accept: "*/*" } });
    expect(first.status).toBe(200);
    await first.arrayBuffer();
    await deps.storage.delete(objectKey({ ownerId: user.id, id: d.id, format: "png" }, "original"));
    const second = await fetch(url, { headers: { accept: "*/*" } });
    return { size: d.size, original, second: { status: second.status, body: new Uint8Array(await second.arrayBuffer()) } };
  } finally {
    server.stop(true);
  }
}

test("an object over HOT_OBJECT_MAX on a store with files is read from its file on every GET, not kept in memory", async () => {
  const { deps } = await testContext();
  if (!deps.storage.file) return; // an S3 store has no files: such objects are streamed from the bucket there
  const { size, second } = await servedThenRemoved(700);
  expect(size).toBeGreaterThan(HOT_OBJECT_MAX);
  // The next GET finds the file gone (a copy in memory would still answer 200).
  expect(second.status).toBe(404);
  expect((JSON.parse(new TextDecoder().decode(second.body)) as { code: string }).code).toBe("NOT_FOUND");
});

test("an object up to HOT_OBJECT_MAX is answered from memory once served, not read from storage again", async () => {
  const { size, original, second } = await servedThenRemoved(220);
  expect(size).toBeLessThanOrEqual(HOT_OBJECT_MAX);
  expect(second.status).toBe(200);
  expect(second.body).toEqual(original);
});
