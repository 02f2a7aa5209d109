// A new media kind is one resolver registered with the edge, and no edit to it. The kind
// here ("clip") serves parts it put in storage at paths of several segments, as HLS
// segments will be, and counts against media bandwidth; everything else (validators,
// ranges, HEAD, privacy, caching, metering) is the edge's.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { createApp } from "../../src/wiring/app.ts";
import { CACHE_TTL_MS } from "../../src/infra/cache.ts";
import { dayKey } from "../../src/infra/clock.ts";
import { newId } from "../../src/infra/ids.ts";
import type { Kv } from "../../src/infra/kv/index.ts";
import { BANDWIDTH_HASHES } from "../../src/modules/edge/meter.ts";
import { invalidate, type EdgeVariant, type MediaResolver, type ServedObject } from "../../src/modules/edge/public.ts";
import { createServices } from "../../src/wiring/services.ts";
import { stoppedClock } from "../helpers/clock.ts";
import { callJson, testContext } from "../helpers/context.ts";
import { makeClient, makeKey } from "../helpers/factories.ts";
import { TEST_TIMEOUT_MS } from "../helpers/timeout.ts";

setDefaultTimeout(TEST_TIMEOUT_MS);

/** `c/<clip id>/<part>.bin` */
const PATH = /^c\/([A-Za-z0-9_-]{21})\/([a-z0-9-]+)\.bin$/;
const TYPE = "application/x-clip";

interface Clip extends ServedObject {
  parts: Record<string, EdgeVariant>;
}

/** The clip kind: its records live in a map (its "table"), its lookups are counted. */
function clipKind() {
  const clips = new Map<string, Clip>();
  const lookups: string[] = [];
  const resolver: MediaResolver<Clip> = {
    kind: "clip",
    match: (file) => PATH.exec(file)?.[1] ?? null,
    async lookup(id) {
      lookups.push(id);
      return clips.get(id) ?? null;
    },
    select: (clip, file) => clip.parts[PATH.exec(file)![2]!] ?? null,
  };
  return { resolver, clips, lookups };
}

const bytesOf = async (res: Response) => new Uint8Array(await res.arrayBuffer());
const pattern = (n: number, seed: number) => Uint8Array.from({ length: n }, (_, i) => (i * 7 + seed) & 0xff);

/**
 * An app on the shared parts with the clip kind registered, its edge cache on a stopped
 * clock. Its meter's kv writes are recorded, and made only when `tallyInKv` (the shared
 * kv's bandwidth hashes are what the attribution job reads).
 */
async function clipEdge({ tallyInKv = false } = {}) {
  const { deps } = await testContext();
  const clock = stoppedClock(deps.clock.nowMs());
  const tallied: { hash: string; field: string; by: number }[] = [];
  const kv: Kv = {
    ...deps.kv,
    hincrby: async (hash, field, by) => {
      tallied.push({ hash, field, by });
      if (tallyInKv) await deps.kv.hincrby(hash, field, by);
    },
  };
  const services = createServices({ ...deps, clock, kv });
  const kind = clipKind();
  services.edgeResolvers.register(kind.resolver);
  const app = createApp(services);

  /** Puts a clip's parts in storage and its record in the kind's table; returns its URLs by part. */
  async function addClip(ownerId: string, parts: Record<string, Uint8Array>, { isPublic = true, cache = "immutable" as Clip["cache"] } = {}) {
    const id = newId();
    const variants: Record<string, EdgeVariant> = {};
    for (const [name, bytes] of Object.entries(parts)) {
      const key = `clips/${ownerId}/${id}/${name}.bin`;
      await deps.storage.put(key, bytes);
      variants[name] = { key, contentType: TYPE, size: bytes.length, etag: `"${id}-${name}"` };
    }
    kind.clips.set(id, {
      ownerId,
      isPublic,
      dimension: "media_bandwidth",
      cache,
      variants: Object.values(variants),
      headers: { "timing-allow-origin": "*" },
      parts: variants,
    });
    return { id, url: (part: string) => `/media/c/${id}/${part}.bin` };
  }
  const get = (path: string, headers: Record<string, string> = {}, method = "GET") => app.handle(new Request(`http://shelf.test${path}`, { method, headers }));
  return { deps, services, kv, clock, kind, tallied, addClip, get };
}

describe("a media kind registered with the edge, with no edit to the edge", () => {
  test("served: 200 with its content type, strong ETag, nosniff, its cache policy and its own headers; HEAD has the length and no body", async () => {
    const { user } = await makeClient();
    const edge = await clipEdge();
    try {
      const part = pattern(3000, 1);
      const clip = await edge.addClip(user.id, { "seg-1": part });
      const res = await edge.get(clip.url("seg-1"));
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toBe(TYPE);
      expect(res.headers.get("etag")).toBe(`"${clip.id}-seg-1"`);
      expect(res.headers.get("x-content-type-options")).toBe("nosniff");
      expect(res.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
      expect(res.headers.get("accept-ranges")).toBe("bytes");
      expect(res.headers.get("timing-allow-origin")).toBe("*");
      expect(res.headers.get("x-request-id")).toBeTruthy();
      expect(await bytesOf(res)).toEqual(part);
      const head = await edge.get(clip.url("seg-1"), {}, "HEAD");
      expect(head.status).toBe(200);
      expect(head.headers.get("content-length")).toBe("3000");
      expect(await head.text()).toBe("");
      // A URL whose representation may change (a playlist) is cached only with revalidation.
      const live = await edge.addClip(user.id, { index: pattern(100, 12) }, { cache: "revalidate" });
      expect((await edge.get(live.url("index"))).headers.get("cache-control")).toBe("public, no-cache");
    } finally {
      await edge.services.close();
    }
  });

  test("ranged: 206 with the exact bytes, from memory and streamed from storage; 416 when unsatisfiable", async () => {
    const { user } = await makeClient();
    const edge = await clipEdge();
    try {
      const small = pattern(3000, 2);
      const large = pattern(1024 * 1024 + 4096, 3); // over the edge's in-memory size
      const clip = await edge.addClip(user.id, { small, large });
      for (const [name, bytes] of [
        ["small", small],
        ["large", large],
      ] as const) {
        const part = await edge.get(clip.url(name), { range: "bytes=100-1099" });
        expect(part.status).toBe(206);
        expect(part.headers.get("content-range")).toBe(`bytes 100-1099/${bytes.length}`);
        expect(part.headers.get("content-length")).toBe("1000");
        expect(await bytesOf(part)).toEqual(bytes.subarray(100, 1100));
        const tail = await edge.get(clip.url(name), { range: "bytes=-10" });
        expect(await bytesOf(tail)).toEqual(bytes.subarray(bytes.length - 10));
        const bad = await edge.get(clip.url(name), { range: `bytes=${bytes.length}-` });
        expect(bad.status).toBe(416);
        expect(bad.headers.get("content-range")).toBe(`bytes */${bytes.length}`);
      }
    } finally {
      await edge.services.close();
    }
  });

  test("conditional: If-None-Match with its ETag is 304 with no body; another part's tag is not its own", async () => {
    const { user } = await makeClient();
    const edge = await clipEdge();
    try {
      const clip = await edge.addClip(user.id, { a: pattern(500, 4), b: pattern(600, 5) });
      const etag = (await edge.get(clip.url("a"))).headers.get("etag")!;
      const again = await edge.get(clip.url("a"), { "if-none-match": etag });
      expect(again.status).toBe(304);
      expect(again.headers.get("etag")).toBe(etag);
      expect(again.headers.get("timing-allow-origin")).toBe("*");
      expect(await again.text()).toBe("");
      expect((await edge.get(clip.url("b"), { "if-none-match": etag })).status).toBe(200);
    } finally {
      await edge.services.close();
    }
  });

  test("cached: the kind's lookup runs once per id within the TTL (unknown ids too), again once the TTL is over or the kind invalidates it", async () => {
    const { user } = await makeClient();
    const edge = await clipEdge();
    try {
      const clip = await edge.addClip(user.id, { a: pattern(500, 6), b: pattern(700, 7) });
      const lookupsOf = (id: string) => edge.kind.lookups.filter((l) => l === id).length;
      expect((await edge.get(clip.url("a"))).status).toBe(200);
      expect((await edge.get(clip.url("b"))).status).toBe(200);
      expect((await edge.get(clip.url("a"), { range: "bytes=0-9" })).status).toBe(206);
      expect(lookupsOf(clip.id)).toBe(1);

      edge.clock.advance(CACHE_TTL_MS - 1);
      expect((await edge.get(clip.url("a"))).status).toBe(200);
      expect(lookupsOf(clip.id)).toBe(1);
      edge.clock.advance(1);
      expect((await edge.get(clip.url("a"))).status).toBe(200);
      expect(lookupsOf(clip.id)).toBe(2);

      // Deleted by its kind: dropped at once on this node (and on others through the kv).
      edge.kind.clips.delete(clip.id);
      expect((await edge.get(clip.url("a"))).status).toBe(200); // still the cached record
      await invalidate({ kv: edge.kv, log: edge.deps.log }, "clip", clip.id);
      const gone = await edge.get(clip.url("a"));
      expect(gone.status).toBe(404);
      expect(lookupsOf(clip.id)).toBe(3);
      // An unknown id is cached as unknown: a flood of misses does not reach the kind's table.
      expect((await edge.get(clip.url("b"))).status).toBe(404);
      expect(lookupsOf(clip.id)).toBe(3);
    } finally {
      await edge.services.close();
    }
  });

  test("not found: an unknown clip, a part it does not have, and a path no kind claims are 404 with the envelope and no-store; other methods are the router's 404", async () => {
    const { user } = await makeClient();
    const edge = await clipEdge();
    try {
      const clip = await edge.addClip(user.id, { a: pattern(10, 8) });
      for (const [path, entity] of [
        [`/media/c/${newId()}/a.bin`, "clip"],
        [clip.url("nope"), "clip"],
        [`/media/c/${clip.id}/a.txt`, "media"],
        [`/media/x/${clip.id}/a.bin`, "media"],
      ] as const) {
        const res = await edge.get(path);
        expect(res.status, path).toBe(404);
        expect(res.headers.get("cache-control"), path).toBe("no-store");
        expect(await res.json(), path).toMatchObject({ success: false, code: "NOT_FOUND", meta: { entity } });
      }
      // Only GET and HEAD are the edge's: other methods get the router's 404.
      const post = await edge.get(clip.url("a"), {}, "POST");
      expect(post.status).toBe(404);
      expect(await post.json()).toMatchObject({ code: "NOT_FOUND", meta: { entity: "route" } });
    } finally {
      await edge.services.close();
    }
  });

  test("private: 404 to anonymous requests and to other users, served to its owner's key as private", async () => {
    const { user, key } = await makeClient();
    const { key: stranger } = await makeClient();
    const edge = await clipEdge();
    try {
      const part = pattern(800, 9);
      const clip = await edge.addClip(user.id, { a: part }, { isPublic: false });
      for (const headers of [{}, { authorization: `Bearer ${stranger}` }, { authorization: "Bearer nonsense" }] as Record<string, string>[]) {
        const res = await edge.get(clip.url("a"), headers);
        expect(res.status).toBe(404);
        expect(((await res.json()) as { meta: { entity: string } }).meta.entity).toBe("clip");
      }
      const mine = await edge.get(clip.url("a"), { authorization: `Bearer ${key}` });
      expect(mine.status).toBe(200);
      expect(mine.headers.get("cache-control")).toBe("private, no-cache");
      expect(await bytesOf(mine)).toEqual(part);
    } finally {
      await edge.services.close();
    }
  });

  test("metered under its own dimension: body bytes per owner and day go to the media bandwidth tally, none to images'", async () => {
    const { user } = await makeClient();
    const edge = await clipEdge();
    try {
      const clip = await edge.addClip(user.id, { a: pattern(2000, 10) });
      const etag = (await edge.get(clip.url("a"))).headers.get("etag")!; // 2000
      await bytesOf(await edge.get(clip.url("a"), { range: "bytes=0-99" })); // 100
      await edge.get(clip.url("a"), { "if-none-match": etag }); // 304: 0
      await edge.get(clip.url("a"), {}, "HEAD"); // 0
      await edge.get(clip.url("a"), { range: "bytes=5000-" }); // 416: 0
      await edge.services.meter.flush();
      const mine = edge.tallied.filter((t) => t.field.endsWith(`:${user.id}`));
      expect(mine).toEqual([{ hash: BANDWIDTH_HASHES.media_bandwidth, field: `${dayKey(edge.clock.now())}:${user.id}`, by: 2100 }]);
      expect(edge.tallied.some((t) => t.hash === BANDWIDTH_HASHES.image_bandwidth)).toBe(false);
    } finally {
      await edge.services.close();
    }
  });

  test("attributed by the hourly job to the owner's media bandwidth in the usage resource, once; image bandwidth is untouched", async () => {
    const { user } = await makeClient();
    const { key: usageKey } = await makeKey(user, ["usage.read"]);
    const { runner } = await testContext();
    const edge = await clipEdge({ tallyInKv: true });
    try {
      const clip = await edge.addClip(user.id, { a: pattern(2000, 11) });
      await bytesOf(await edge.get(clip.url("a")));
      await bytesOf(await edge.get(clip.url("a"), { range: "bytes=0-99" }));
      await edge.services.meter.flush();
      const bandwidth = async () => {
        const { data } = (await callJson("GET", "/v1/user/me/usage", { token: usageKey })).body;
        return { media: data.video.bandwidth.used, image: data.image.bandwidth.used };
      };
      expect(await bandwidth()).toEqual({ media: 0, image: 0 });
      expect((await runner.runNow("attribute-image-bandwidth")).outcome).toBe("ok");
      expect(await bandwidth()).toEqual({ media: 2100, image: 0 });
      await runner.runNow("attribute-image-bandwidth");
      expect(await bandwidth()).toEqual({ media: 2100, image: 0 });
    } finally {
      await edge.services.close();
    }
  });
});
