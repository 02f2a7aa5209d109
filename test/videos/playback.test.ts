// The playback edge: a ready video's playlists, segments and thumbnail at
// MEDIA_URL/v/<id>/, with their content types, ranges and caching; a player (ffprobe)
// plays it over HTTP; a private video plays only through a valid signed URL of its own.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { createApp } from "../../src/wiring/app.ts";
import { createPlaybackSigner } from "../../src/modules/videos/sign.ts";
import { call, callJson, testContext } from "../helpers/context.ts";
import { makeUser } from "../helpers/factories.ts";
import { storedVideo } from "./playback-fixtures.ts";
import { TEST_TIMEOUT_MS } from "../helpers/timeout.ts";

setDefaultTimeout(TEST_TIMEOUT_MS);

const MEDIA = "http://shelf.test/media";
const get = async (url: string, headers: Record<string, string> = {}, method = "GET") => {
  const { app } = await testContext();
  return app.handle(new Request(url, { method, headers }));
};
const bytesOf = async (res: Response) => new Uint8Array(await res.arrayBuffer());

let server: { stop(force?: boolean): Promise<void> | void; origin: string };
beforeAll(async () => {
  const { services } = await testContext();
  const app = createApp(services).listen({ port: 0, hostname: "127.0.0.1" });
  server = {
    origin: app.server!.url.origin,
    stop: async (f) => {
      await app.stop(f);
    },
  };
});
afterAll(() => {
  void server.stop(true);
});

/** The same path on the listening server. */
const real = (url: string) => `${server.origin}${new URL(url).pathname}`;

/** What ffprobe finds playing `url` over HTTP: its streams' codec types, or the error it printed. */
async function probe(url: string): Promise<{ ok: boolean; streams: string[]; err: string }> {
  const out = await Bun.$`ffprobe -v error -show_entries stream=codec_type -of csv=p=0 ${url}`.quiet().nothrow();
  return { ok: out.exitCode === 0, streams: out.stdout.toString().split("\n").filter(Boolean).sort(), err: out.stderr.toString() };
}

const sign = (token: string, id: string, json?: unknown) => callJson("POST", `/v1/videos/${id}/sign`, { token, ...(json === undefined ? {} : { json }) });

describe("public playback", () => {
  test("master and variant playlists, segments and thumbnail: content types, caching, ranges; ffprobe plays it", async () => {
    const owner = await makeUser({ plan: "pro" });
    const v = await storedVideo(owner.id);
    const base = `${MEDIA}/v/${v.id}`;

    const master = await get(`${base}/master.m3u8`);
    expect(master.status).toBe(200);
    expect(master.headers.get("content-type")).toBe("application/vnd.apple.mpegurl");
    expect(master.headers.get("cache-control")).toBe("public, max-age=30");
    expect(master.headers.get("x-content-type-options")).toBe("nosniff");
    const text = await master.text();
    expect(text).toBe(Buffer.from(v.files.get("master.m3u8")!).toString());
    expect(text).toContain("360p/index.m3u8");
    expect(text).toContain("720p/index.m3u8");

    const variant = await get(`${base}/720p/index.m3u8`);
    expect(variant.status).toBe(200);
    expect(variant.headers.get("content-type")).toBe("application/vnd.apple.mpegurl");
    expect(await variant.text()).toContain("seg_00000.ts");

    const seg = v.files.get("720p/seg_00001.ts")!;
    const whole = await get(`${base}/720p/seg_00001.ts`);
    expect(whole.status).toBe(200);
    expect(whole.headers.get("content-type")).toBe("video/mp2t");
    expect(whole.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect(whole.headers.get("accept-ranges")).toBe("bytes");
    expect(await bytesOf(whole)).toEqual(seg);
    const etag = whole.headers.get("etag")!;
    expect((await get(`${base}/720p/seg_00001.ts`, { "if-none-match": etag })).status).toBe(304);

    const part = await get(`${base}/720p/seg_00001.ts`, { range: "bytes=188-375" });
    expect(part.status).toBe(206);
    expect(part.headers.get("content-range")).toBe(`bytes 188-375/${seg.length}`);
    expect(await bytesOf(part)).toEqual(seg.subarray(188, 376));
    expect((await get(`${base}/720p/seg_00001.ts`, { range: `bytes=${seg.length}-` })).status).toBe(416);

    const mp4 = await get(`${base}/direct.mp4`, { range: "bytes=0-99" });
    expect(mp4.status).toBe(206);
    expect(mp4.headers.get("content-type")).toBe("video/mp4");
    expect(mp4.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect(await bytesOf(mp4)).toEqual(v.files.get("720p/seg_00000.ts")!.subarray(0, 100));

    const thumb = await get(`${base}/thumb.jpg`);
    expect(thumb.status).toBe(200);
    expect(thumb.headers.get("content-type")).toBe("image/jpeg");

    const played = await probe(real(`${base}/master.m3u8`));
    expect(played).toMatchObject({ ok: true });
    expect(played.streams).toContain("video");
    expect(played.streams).toContain("audio");
  });

  test("what a video does not have is 404: an unknown file, a rendition it lacks, the stored original, another id", async () => {
    const owner = await makeUser({ plan: "pro" });
    const v = await storedVideo(owner.id);
    for (const file of ["1080p/index.m3u8", "720p/seg_99999.ts", "original", "hls/master.m3u8", "720p%2F..%2Fmaster.m3u8", "thumb-custom-x.jpg"]) {
      const res = await get(`${MEDIA}/v/${v.id}/${file}`);
      expect({ file, status: res.status }).toEqual({ file, status: 404 });
    }
    const none = await callJson("GET", `/media/v/${"x".repeat(21)}/master.m3u8`);
    expect(none.status).toBe(404);
    expect(none.body).toMatchObject({ success: false, code: "NOT_FOUND", meta: { entity: "video" } });
  });

  test("a video still processing has nothing to play", async () => {
    const owner = await makeUser({ plan: "pro" });
    const v = await storedVideo(owner.id, { status: "processing" });
    expect((await get(`${MEDIA}/v/${v.id}/master.m3u8`)).status).toBe(404);
  });
});

describe("private playback", () => {
  test("no signature: 403 on the master, variants, segments and thumbnail, even with the owner's bearer", async () => {
    const owner = await makeUser({ plan: "pro" });
    const v = await storedVideo(owner.id, { isPublic: false });
    for (const file of ["master.m3u8", "360p/index.m3u8", "360p/seg_00000.ts", "direct.mp4", "thumb.jpg"]) {
      const res = await call("GET", `/media/v/${v.id}/${file}`, { token: owner.jwt });
      expect({ file, status: res.status }).toEqual({ file, status: 403 });
      expect(res.headers.get("cache-control")).toBe("no-store");
      expect(await res.json()).toMatchObject({ success: false, code: "FORBIDDEN" });
    }
    expect((await probe(real(`${MEDIA}/v/${v.id}/master.m3u8`))).ok).toBe(false);
  });

  test("a private video's thumbnail_url, in its detail and in the list, is signed and opens without a credential", async () => {
    const owner = await makeUser({ plan: "pro" });
    const v = await storedVideo(owner.id, { isPublic: false });
    const detail = await callJson("GET", `/v1/videos/${v.id}`, { token: owner.jwt });
    const listed = await callJson("GET", "/v1/videos", { token: owner.jwt });
    const urls = [detail.body.data.thumbnail_url, listed.body.data.items.find((i: { id: string }) => i.id === v.id).thumbnail_url];
    for (const url of urls) {
      expect(url).toMatch(new RegExp(`/v/${v.id}/s\\.\\d+\\.[A-Za-z0-9_-]{43}/thumb\\.jpg$`));
      const res = await get(url);
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toBe("image/jpeg");
    }
    // The signature opens that video's files only.
    const other = await storedVideo(owner.id, { isPublic: false });
    expect((await get(urls[0].replace(v.id, other.id))).status).toBe(403);
  });

  test("a signed URL plays: its variants and segments keep the signature by their relative URIs; ffprobe plays it", async () => {
    const owner = await makeUser({ plan: "pro" });
    const v = await storedVideo(owner.id, { isPublic: false });
    const { deps } = await testContext();
    const signed = await sign(owner.jwt, v.id, {});
    expect(signed.status).toBe(200);
    const { url, expiresAt } = signed.body.data;
    expect(url).toMatch(new RegExp(`^${MEDIA}/v/${v.id}/s\\.\\d+\\.[A-Za-z0-9_-]{43}/master\\.m3u8$`));
    expect(Date.parse(expiresAt) - deps.clock.nowMs()).toBeGreaterThan(3590_000);
    expect(Date.parse(expiresAt) - deps.clock.nowMs()).toBeLessThanOrEqual(3600_000);

    const master = await get(url);
    expect(master.status).toBe(200);
    expect(master.headers.get("cache-control")).toBe("private, no-cache");
    const dir = url.slice(0, url.lastIndexOf("/") + 1);
    const variant = await get(`${dir}360p/index.m3u8`);
    expect(variant.status).toBe(200);
    const seg = await get(`${dir}360p/seg_00000.ts`);
    expect(seg.status).toBe(200);
    expect(seg.headers.get("cache-control")).toBe("private, no-cache");
    expect(await bytesOf(seg)).toEqual(v.files.get("360p/seg_00000.ts")!);
    expect((await get(`${dir}thumb.jpg`)).status).toBe(200);
    expect((await get(`${dir}direct.mp4`)).status).toBe(200);

    const played = await probe(real(url));
    expect(played).toMatchObject({ ok: true });
    expect(played.streams).toContain("video");
  });

  test("another video's signature, a tampered one and an expired one: 403", async () => {
    const owner = await makeUser({ plan: "pro" });
    const [v, other] = [await storedVideo(owner.id, { isPublic: false }), await storedVideo(owner.id, { isPublic: false })];
    const { deps, config } = await testContext();
    const theirs = (await sign(owner.jwt, other.id, { ttlSeconds: 600 })).body.data.url as string;
    const token = theirs.split("/").at(-2)!;
    const denied = async (t: string, file = "master.m3u8") => {
      const res = await get(`${MEDIA}/v/${v.id}/${t}/${file}`);
      expect({ t, status: res.status }).toEqual({ t, status: 403 });
      expect((await res.json()).code).toBe("FORBIDDEN");
    };
    await denied(token);
    await denied(token, "360p/seg_00000.ts");
    expect((await get(theirs)).status).toBe(200);

    const ours = ((await sign(owner.jwt, v.id, { ttlSeconds: 600 })).body.data.url as string).split("/").at(-2)!;
    const [, exp, mac] = ours.split(".") as [string, string, string];
    const flip = (c: string) => (c === "A" ? "B" : "A");
    await denied(`s.${exp}.${mac.slice(0, -1)}${flip(mac.at(-1)!)}`); // the last character's spare bits too
    await denied(`s.${exp}.${flip(mac[0]!)}${mac.slice(1)}`);
    await denied(`s.${Number(exp) + 1}.${mac}`);
    await denied(`s.${exp}.${mac.slice(1)}`);
    await denied("s.");
    expect((await get(`${MEDIA}/v/${v.id}/${ours}/master.m3u8`)).status).toBe(200);

    const signer = createPlaybackSigner(config.JWT_SECRET);
    await denied(signer.token(v.id, Math.floor(deps.clock.nowMs() / 1000) - 1));
    // One that runs out while the video plays: the next segment is refused.
    const short = ((await sign(owner.jwt, v.id, { ttlSeconds: 1 })).body.data.url as string).split("/").at(-2)!;
    expect((await get(`${MEDIA}/v/${v.id}/${short}/360p/seg_00000.ts`)).status).toBe(200);
    deps.clock.advance(2_000);
    await denied(short, "360p/seg_00001.ts");
  });

  test("a public video plays without a signature, and with a valid one, but never with a wrong one", async () => {
    const owner = await makeUser({ plan: "pro" });
    const [v, other] = [await storedVideo(owner.id), await storedVideo(owner.id)];
    const own = ((await sign(owner.jwt, v.id)).body.data.url as string).split("/").at(-2)!;
    const theirs = ((await sign(owner.jwt, other.id)).body.data.url as string).split("/").at(-2)!;
    expect((await get(`${MEDIA}/v/${v.id}/${own}/master.m3u8`)).status).toBe(200);
    expect((await get(`${MEDIA}/v/${v.id}/${theirs}/master.m3u8`)).status).toBe(403);
  });
});

describe("POST /v1/videos/:id/sign", () => {
  test("ttlSeconds: default 3600, at most 86400; other values 422", async () => {
    const owner = await makeUser({ plan: "pro" });
    const v = await storedVideo(owner.id, { isPublic: false });
    const { deps } = await testContext();
    const day = await sign(owner.jwt, v.id, { ttlSeconds: 86_400 });
    expect(day.status).toBe(200);
    expect(Date.parse(day.body.data.expiresAt) - deps.clock.nowMs()).toBeGreaterThan(86_390_000);
    expect((await sign(owner.jwt, v.id)).status).toBe(200);
    for (const ttlSeconds of [86_401, 0, -5, 1.5, null]) {
      const res = await sign(owner.jwt, v.id, { ttlSeconds });
      expect({ ttlSeconds, status: res.status, code: res.body.code }).toEqual({ ttlSeconds, status: 422, code: "VALIDATION_ERROR" });
    }
  });

  test("another user's video is 404 and signs nothing; no credential is 401", async () => {
    const owner = await makeUser({ plan: "pro" });
    const stranger = await makeUser({ plan: "pro" });
    const v = await storedVideo(owner.id, { isPublic: false });
    const res = await sign(stranger.jwt, v.id, {});
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ success: false, code: "NOT_FOUND", meta: { entity: "video" } });
    expect((await callJson("POST", `/v1/videos/${v.id}/sign`, { json: {} })).status).toBe(401);
    expect((await sign(owner.jwt, "bad-id", {})).status).toBe(422);
  });
});
