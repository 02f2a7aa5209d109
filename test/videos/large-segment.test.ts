// Segments over the edge's in-memory limit (a 720p or 1080p segment is 1.5-4 MB). On
// embedded storage the edge sends the file itself (sendfile), on S3 it streams the object:
// either way the same status, headers and bytes, ranges exact, the length metered, a
// private video's signature checked, and a file deleted or cut behind the edge's cached
// record never answered with a short body.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { createApp } from "../../src/wiring/app.ts";
import type { Log } from "../../src/infra/log.ts";
import { newId } from "../../src/infra/ids.ts";
import { createEdgeCache, HOT_OBJECT_MAX } from "../../src/modules/edge/cache.ts";
import { hlsPrefix } from "../../src/modules/videos/layout.ts";
import { createPlaybackSigner } from "../../src/modules/videos/sign.ts";
import { videos } from "../../src/modules/videos/table.ts";
import { testContext } from "../helpers/context.ts";
import { makeUser } from "../helpers/factories.ts";
import { TEST_TIMEOUT_MS } from "../helpers/timeout.ts";

setDefaultTimeout(TEST_TIMEOUT_MS);

const SIZE = HOT_OBJECT_MAX + 512 * 1024 + 7;
const bytesOf = async (res: Response) => new Uint8Array(await res.arrayBuffer());

type Served = { dimension: string; ownerId: string; bytes: number };
const metered: Served[] = [];
const warnings: string[] = [];
let origin = "";
let stop: () => Promise<void>;

beforeAll(async () => {
  const { deps, services } = await testContext();
  const log: Log = { ...deps.log, warn: (msg) => void warnings.push(msg), child: () => log };
  const app = createApp({
    ...services,
    deps: { ...deps, log },
    edgeCache: createEdgeCache(),
    meter: { add: (dimension, _day, ownerId, bytes) => void metered.push({ dimension, ownerId, bytes }), flush: async () => {}, close: async () => {} },
  }).listen({ port: 0, hostname: "127.0.0.1" });
  origin = app.server!.url.origin;
  stop = async () => {
    void app.stop(true);
  };
});
afterAll(() => stop());

/** A ready video of a new pro user with one large 720p segment; its segment's key, bytes and URL path. */
async function videoWithLargeSegment(isPublic = true) {
  const { deps } = await testContext();
  const owner = await makeUser({ plan: "pro" });
  const id = newId();
  const prefix = hlsPrefix({ id, ownerId: owner.id });
  const segment = crypto.getRandomValues(new Uint8Array(SIZE));
  const key = `${prefix}720p/seg_00000.ts`;
  await deps.storage.put(`${prefix}master.m3u8`, new TextEncoder().encode("#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=2800000\n720p/index.m3u8\n"));
  await deps.storage.put(`${prefix}720p/index.m3u8`, new TextEncoder().encode("#EXTM3U\n#EXTINF:6.0,\nseg_00000.ts\n#EXT-X-ENDLIST\n"));
  await deps.storage.put(key, segment);
  const now = deps.clock.now();
  await deps.db.insert(videos).values({
    id,
    ownerId: owner.id,
    title: "large",
    filename: "large.mp4",
    isPublic,
    status: "ready",
    sizeBytes: SIZE,
    container: "mp4",
    durationSeconds: 6,
    renditions: ["720p"],
    provider: "local",
    createdAt: now,
    updatedAt: now,
    readyAt: now,
  });
  return { owner, id, key, segment, path: `/media/v/${id}/720p/seg_00000.ts` };
}

describe("large segments", () => {
  test("whole, ranged and HEAD: the segment's headers and exactly its bytes; the meter counts what was sent", async () => {
    const { deps } = await testContext();
    const v = await videoWithLargeSegment();
    metered.length = 0;
    const whole = await fetch(`${origin}${v.path}`);
    expect(whole.status).toBe(200);
    expect(whole.headers.get("content-type")).toBe("video/mp2t");
    expect(whole.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect(whole.headers.get("accept-ranges")).toBe("bytes");
    expect(whole.headers.get("x-content-type-options")).toBe("nosniff");
    // Bun sends a streamed body chunked, whatever Content-Length the edge set: only a file body has one.
    if (deps.storage.file) expect(whole.headers.get("content-length")).toBe(String(SIZE));
    expect(whole.headers.get("content-disposition")).toBeNull();
    const etag = whole.headers.get("etag")!;
    expect(etag).toBeTruthy();
    expect(await bytesOf(whole)).toEqual(v.segment);

    const part = await fetch(`${origin}${v.path}`, { headers: { range: "bytes=1048000-1048999" } });
    expect(part.status).toBe(206);
    expect(part.headers.get("content-range")).toBe(`bytes 1048000-1048999/${SIZE}`);
    if (deps.storage.file) expect(part.headers.get("content-length")).toBe("1000");
    expect(await bytesOf(part)).toEqual(v.segment.subarray(1048000, 1049000));

    const tail = await fetch(`${origin}${v.path}`, { headers: { range: "bytes=-10" } });
    expect(tail.status).toBe(206);
    expect(await bytesOf(tail)).toEqual(v.segment.subarray(SIZE - 10));

    const head = await fetch(`${origin}${v.path}`, { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(head.headers.get("content-length")).toBe(String(SIZE));
    expect(await head.text()).toBe("");
    expect((await fetch(`${origin}${v.path}`, { headers: { "if-none-match": etag } })).status).toBe(304);
    expect((await fetch(`${origin}${v.path}`, { headers: { range: `bytes=${SIZE}-` } })).status).toBe(416);

    expect(metered.filter((m) => m.ownerId === v.owner.id)).toEqual([
      { dimension: "media_bandwidth", ownerId: v.owner.id, bytes: SIZE },
      { dimension: "media_bandwidth", ownerId: v.owner.id, bytes: 1000 },
      { dimension: "media_bandwidth", ownerId: v.owner.id, bytes: 10 },
    ]);
  });

  test("the shared app (app.handle) answers the same bytes", async () => {
    const v = await videoWithLargeSegment();
    const { app } = await testContext();
    const res = await app.handle(new Request(`http://shelf.test${v.path}`, { headers: { range: "bytes=5-1500000" } }));
    expect(res.status).toBe(206);
    expect(await bytesOf(res)).toEqual(v.segment.subarray(5, 1500001));
  });

  test("a private video's large segment: 403 without a signature, another video's signature or an expired one; 200 with its own", async () => {
    const { deps, config } = await testContext();
    const v = await videoWithLargeSegment(false);
    const other = await videoWithLargeSegment(false);
    const signer = createPlaybackSigner(config.JWT_SECRET);
    const nowS = Math.floor(deps.clock.nowMs() / 1000);
    const signed = (token: string) => `${origin}/media/v/${v.id}/${token}/720p/seg_00000.ts`;
    metered.length = 0;
    for (const url of [`${origin}${v.path}`, signed(signer.token(other.id, nowS + 600)), signed(signer.token(v.id, nowS - 1))]) {
      const res = await fetch(url);
      expect(res.status).toBe(403);
      expect(((await res.json()) as { code: string }).code).toBe("FORBIDDEN");
    }
    const ok = await fetch(signed(signer.token(v.id, nowS + 600)));
    expect(ok.status).toBe(200);
    expect(ok.headers.get("cache-control")).toBe("private, no-cache");
    expect(await bytesOf(ok)).toEqual(v.segment);
    expect(metered).toEqual([{ dimension: "media_bandwidth", ownerId: v.owner.id, bytes: SIZE }]);
  });

  test("deleted behind the cached record: 404 NOT_FOUND, nothing metered", async () => {
    const { deps } = await testContext();
    const v = await videoWithLargeSegment();
    expect(await bytesOf(await fetch(`${origin}${v.path}`))).toEqual(v.segment); // record cached
    await deps.storage.delete(v.key);
    metered.length = 0;
    const res = await fetch(`${origin}${v.path}`);
    expect(res.status).toBe(404);
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(((await res.json()) as { code: string }).code).toBe("NOT_FOUND");
    expect(metered).toEqual([]);
    expect(warnings).toContain("edge object missing");
  });

  test("cut short behind the cached record: never a complete response with fewer bytes than promised", async () => {
    const { deps } = await testContext();
    const v = await videoWithLargeSegment();
    expect((await fetch(`${origin}${v.path}`, { method: "HEAD" })).status).toBe(200); // record cached
    const shorter = v.segment.subarray(0, HOT_OBJECT_MAX + 10);
    await deps.storage.put(v.key, shorter);
    // Embedded storage knows the size before answering: 502. A stream finds out mid-body: the connection drops.
    const outcome = await fetch(`${origin}${v.path}`)
      .then(async (res) => (res.status === 502 ? "502" : `complete: ${res.status} with ${(await bytesOf(res)).length} bytes`))
      .catch(() => "failed");
    expect(["502", "failed"]).toContain(outcome);
  });
});
