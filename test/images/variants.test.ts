// Image sizes on the URL: MEDIA_URL/<id>.<ext>?w=&h=&fit=&q=&format= (docs/api.md, "Image
// sizes"): the variant's dimensions, format and headers, negotiation, the 400s, made once
// under concurrent first requests, metering, privacy, and the purge with the original.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { eq } from "drizzle-orm";
import { sharp } from "../../src/infra/sharp.ts";
import { images, imageVariants } from "../../src/modules/images/table.ts";
import { allowedSizes, readAsk } from "../../src/modules/images/variants/params.ts";
import { call, callJson, testContext } from "../helpers/context.ts";
import { makeClient, makeKey, makeUser } from "../helpers/factories.ts";
import { TEST_TIMEOUT_MS } from "../helpers/timeout.ts";
import { animated, jpegWithExif, png, uploaded } from "./fixtures.ts";

setDefaultTimeout(TEST_TIMEOUT_MS);

const BROWSER = "image/avif,image/webp,image/apng,image/svg+xml,image/*,*/*;q=0.8";
const WEBP_ONLY = "image/webp,image/*,*/*;q=0.8";
const photo = await jpegWithExif({ width: 640, height: 480, orientation: 1 });

/** GET (or HEAD) of a media URL with its query. */
function edge(url: string, query: string, headers: Record<string, string> = {}, method = "GET") {
  const u = new URL(url);
  return call(method, `${u.pathname}?${query}`, { headers });
}
const bytesOf = async (res: Response) => new Uint8Array(await res.arrayBuffer());
const meta = async (res: Response) => await sharp(await bytesOf(res)).metadata();

const variantRows = async (imageId: string) => {
  const { deps } = await testContext();
  return await deps.db.select().from(imageVariants).where(eq(imageVariants.imageId, imageId));
};

describe("image variants at the edge", () => {
  test("?w= gives that width, the shape kept, AVIF to a browser that takes it; immutable, Vary: Accept, its own strong ETag, exact Content-Length", async () => {
    const { key } = await makeClient();
    const d = await uploaded(key, photo);
    const res = await edge(d.url, "w=320", { accept: BROWSER });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("image/avif");
    expect(res.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect(res.headers.get("vary")).toBe("Accept");
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(res.headers.get("etag")).toMatch(/^"[A-Za-z0-9_-]{11}-v-w320-h0-inside-q75\.avif"$/);
    const body = await bytesOf(res);
    expect(Number(res.headers.get("content-length"))).toBe(body.length);
    const m = await sharp(body).metadata();
    expect([m.format, m.compression, m.width, m.height]).toEqual(["heif", "av1", 320, 240]);
    // WebP without AVIF; the original's type without either.
    const webp = await edge(d.url, "w=320", { accept: WEBP_ONLY });
    expect(webp.headers.get("content-type")).toBe("image/webp");
    expect((await meta(webp)).width).toBe(320);
    const jpeg = await edge(d.url, "w=320", { accept: "*/*" });
    expect(jpeg.headers.get("content-type")).toBe("image/jpeg");
    expect((await meta(jpeg)).width).toBe(320);
  });

  test("w and h with each fit: cover fills the box, contain pads it, inside fits in it; never enlarged", async () => {
    const { key } = await makeClient();
    const d = await uploaded(key, photo);
    const dims = async (q: string) => {
      const m = await meta(await edge(d.url, `${q}&format=png`));
      return [m.width, m.height];
    };
    expect(await dims("w=256&h=256")).toEqual([256, 256]); // cover is the default
    expect(await dims("w=256&h=256&fit=cover")).toEqual([256, 256]);
    expect(await dims("w=256&h=256&fit=contain")).toEqual([256, 256]);
    expect(await dims("w=256&h=256&fit=inside")).toEqual([256, 192]);
    expect(await dims("h=96")).toEqual([128, 96]);
    expect(await dims("w=1920")).toEqual([640, 480]);
    const contained = await sharp(await bytesOf(await edge(d.url, "w=256&h=256&fit=contain&format=png")))
      .raw()
      .toBuffer({ resolveWithObject: true });
    expect(contained.info.channels).toBe(4);
    expect(contained.data[3]).toBe(0); // the bar above the picture is transparent
  });

  test("format= wins over Accept, and q changes the bytes", async () => {
    const { key } = await makeClient();
    const d = await uploaded(key, photo);
    for (const [format, mime] of [
      ["avif", "image/avif"],
      ["webp", "image/webp"],
      ["jpeg", "image/jpeg"],
      ["png", "image/png"],
    ]) {
      const res = await edge(d.url, `w=128&format=${format}`, { accept: BROWSER });
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toBe(mime!);
      expect((await meta(res)).width).toBe(128);
    }
    const low = await bytesOf(await edge(d.url, "w=320&format=jpeg&q=20"));
    const high = await bytesOf(await edge(d.url, "w=320&format=jpeg&q=95"));
    expect(low.length).toBeLessThan(high.length);
  });

  test("a size, fit, quality or format not offered is 400 BAD_REQUEST naming the parameter, before any lookup or work", async () => {
    const { key } = await makeClient();
    const d = await uploaded(key, photo);
    for (const [query, param] of [
      ["w=300", "w"],
      ["w=-1", "w"],
      ["w=abc", "w"],
      ["w=", "w"],
      ["w=1e3", "w"],
      ["h=99999999999999999999", "h"],
      ["w=320&fit=fill", "fit"],
      ["w=320&q=0", "q"],
      ["w=320&q=73", "q"],
      ["w=320&q=101", "q"],
      ["w=320&format=gif", "format"],
      ["format=tiff", "format"],
    ]) {
      const res = await edge(d.url, query!);
      expect(res.status).toBe(400);
      expect(res.headers.get("cache-control")).toBe("no-store");
      const body = await res.json();
      expect(body).toMatchObject({ success: false, code: "BAD_REQUEST", meta: { param } });
    }
    expect(await variantRows(d.id)).toEqual([]);
    // Before any lookup: the same 400 for an image that does not exist.
    const none = await edge(d.url.replace(d.id, "AAAAAAAAAAA"), "w=300");
    expect([none.status, (await none.json()).meta.param]).toEqual([400, "w"]);
    // Another parameter alone is no size query: the original.
    const plain = await edge(d.url, "v=2", { accept: "*/*" });
    expect(plain.headers.get("etag")).toBe(`"${d.id}-o1"`);
  });

  test("If-None-Match is 304 and a Range is 206 on a variant, as on an original", async () => {
    const { key } = await makeClient();
    const d = await uploaded(key, photo);
    const first = await edge(d.url, "w=256", { accept: WEBP_ONLY });
    const whole = await bytesOf(first);
    const etag = first.headers.get("etag")!;
    const again = await edge(d.url, "w=256", { accept: WEBP_ONLY, "if-none-match": etag });
    expect(again.status).toBe(304);
    expect(again.headers.get("etag")).toBe(etag);
    const part = await edge(d.url, "w=256", { accept: WEBP_ONLY, range: "bytes=0-9" });
    expect(part.status).toBe(206);
    expect(part.headers.get("content-range")).toBe(`bytes 0-9/${whole.length}`);
    expect(await bytesOf(part)).toEqual(whole.subarray(0, 10));
    const head = await edge(d.url, "w=256", { accept: WEBP_ONLY }, "HEAD");
    expect(head.status).toBe(200);
    expect(head.headers.get("content-length")).toBe(String(whole.length));
  });

  test("concurrent first requests make the variant once: one object write, one record", async () => {
    const { key } = await makeClient();
    const d = await uploaded(key, photo);
    const { deps } = await testContext();
    const put = deps.storage.put.bind(deps.storage);
    const writes: string[] = [];
    deps.storage.put = (k, body, opts) => {
      if (k.includes(`/${d.id}/v/`)) writes.push(k);
      return put(k, body, opts);
    };
    try {
      const answers = await Promise.all(Array.from({ length: 8 }, () => edge(d.url, "w=480", { accept: WEBP_ONLY })));
      const bodies = await Promise.all(answers.map(bytesOf));
      for (const b of bodies) expect(b).toEqual(bodies[0]!);
      expect(writes).toHaveLength(1);
      expect(await variantRows(d.id)).toHaveLength(1);
      // Later asks serve what was made.
      await bytesOf(await edge(d.url, "w=480", { accept: WEBP_ONLY }));
      expect(writes).toHaveLength(1);
    } finally {
      deps.storage.put = put;
    }
  });

  test("a private image's variant is served to its owner only: 404 to anyone else, as its original; made for no stranger", async () => {
    const owner = await makeClient();
    const stranger = await makeClient();
    const d = await uploaded(owner.key, photo, { is_public: "false" });
    for (const headers of [{}, { authorization: `Bearer ${stranger.key}` }] as Record<string, string>[]) {
      const res = await edge(d.url, "w=128", headers);
      expect(res.status).toBe(404);
      expect((await res.json()).meta).toEqual({ entity: "image" });
    }
    expect(await variantRows(d.id)).toEqual([]);
    const mine = await edge(d.url, "w=128", { authorization: `Bearer ${owner.key}`, accept: WEBP_ONLY });
    expect(mine.status).toBe(200);
    expect(mine.headers.get("cache-control")).toBe("private, no-cache");
    expect((await meta(mine)).width).toBe(128);
  });

  test("purging the deleted image removes its variants' objects and records", async () => {
    const { user, key } = await makeClient();
    const { key: deleter } = await makeKey(user, ["media.delete"]);
    const d = await uploaded(key, photo);
    await bytesOf(await edge(d.url, "w=128", { accept: BROWSER }));
    await bytesOf(await edge(d.url, "w=256&h=256", { accept: WEBP_ONLY }));
    const { deps } = await testContext();
    const listed = async () => {
      const keys: string[] = [];
      for await (const o of deps.storage.list(`images/${user.id}/${d.id}/`)) keys.push(o.key);
      return keys;
    };
    expect((await listed()).filter((k) => k.includes("/v/"))).toHaveLength(2);
    expect((await call("DELETE", `/v1/images/${d.id}`, { token: deleter })).status).toBe(204);
    // To the trash first; its purge removes the objects.
    expect((await call("DELETE", `/v1/trash/${d.id}`, { token: deleter })).status).toBe(204);
    expect(await listed()).toEqual([]);
    expect(await variantRows(d.id)).toEqual([]);
    expect((await edge(d.url, "w=128")).status).toBe(404);
  });

  test("an animation stays one in WebP and GIF, and is its first frame in PNG; an SVG is served as it is", async () => {
    const { key } = await makeClient();
    const gif = await uploaded(key, await animated("gif", 4));
    const webp = await edge(gif.url, "w=16", { accept: WEBP_ONLY });
    expect(webp.headers.get("content-type")).toBe("image/webp");
    const wm = await sharp(await bytesOf(webp), { animated: true }).metadata();
    expect([wm.pages, wm.width, wm.pageHeight]).toEqual([4, 16, 16]);
    const still = await edge(gif.url, "w=16", { accept: "*/*" });
    expect(still.headers.get("content-type")).toBe("image/gif");
    expect((await sharp(await bytesOf(still), { animated: true }).metadata()).pages).toBe(4);
    const first = await sharp(await bytesOf(await edge(gif.url, "w=16&format=png")), { animated: true }).metadata();
    expect([first.pages ?? 1, first.height]).toEqual([1, 16]);

    const svg = await uploaded(key, '<svg xmlns="http://www.w3.org/2000/svg" width="40" height="20"><rect width="40" height="20" fill="red"/></svg>');
    const res = await edge(svg.url, "w=128", { accept: BROWSER });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("image/svg+xml");
    expect(res.headers.get("etag")).toBe(`"${svg.id}-o1"`);
    expect((await edge(svg.url, "w=127")).status).toBe(400);
  });

  test("a variant's bytes are metered to the owner as image bandwidth", async () => {
    const { user, key } = await makeClient();
    const { key: usageKey } = await makeKey(user, ["usage.read"]);
    const { runner, services } = await testContext();
    const d = await uploaded(key, await png(400, 300));
    const a = (await bytesOf(await edge(d.url, "w=64", { accept: BROWSER }))).length;
    const b = (await bytesOf(await edge(d.url, "w=64", { accept: BROWSER }))).length;
    await services.meter.flush();
    await runner.runNow("attribute-image-bandwidth");
    const usage = await callJson("GET", "/v1/user/me/usage", { token: usageKey });
    expect(usage.body.data.image.bandwidth.used).toBe(a + b);
  });
});

describe("image variants: the stranger's view", () => {
  test("a stranger's size query on another user's private image learns nothing: the same 404 as for no image", async () => {
    const owner = await makeUser();
    const { key } = await makeClient();
    const d = await uploaded(owner.jwt, await png(), { is_public: "false" });
    const gone = await edge(d.url.replace(d.id, "AAAAAAAAAAA"), "w=64", { authorization: `Bearer ${key}` });
    const theirs = await edge(d.url, "w=64", { authorization: `Bearer ${key}` });
    expect([gone.status, theirs.status]).toEqual([404, 404]);
    expect(await theirs.json()).toMatchObject({ code: "NOT_FOUND", meta: { entity: "image" } });
  });
});

describe("thumbnails and placeholders in image items", () => {
  test("a list item carries thumbnail_url (a 256-wide variant) and a ThumbHash placeholder made at upload", async () => {
    const { key } = await makeClient();
    const d = await uploaded(key, photo);
    const list = await callJson("GET", "/v1/images", { token: key });
    const item = list.body.data.items.find((i: { id: string }) => i.id === d.id);
    expect(item.thumbnail_url).toBe(`${d.url}?w=256`);
    expect(item.placeholder).toMatch(/^[A-Za-z0-9+/]{20,60}={0,2}$/);
    const hash = Uint8Array.from(Buffer.from(item.placeholder, "base64"));
    const { thumbHashToApproximateAspectRatio } = await import("thumbhash");
    expect(thumbHashToApproximateAspectRatio(hash)).toBeCloseTo(640 / 480, 0);
    const one = await callJson("GET", `/v1/images/${d.id}`, { token: key });
    expect(one.body.data).toMatchObject({ thumbnail_url: item.thumbnail_url, placeholder: item.placeholder });
    const thumb = await call("GET", new URL(item.thumbnail_url).pathname + new URL(item.thumbnail_url).search, { headers: { accept: WEBP_ONLY } });
    expect((await meta(thumb)).width).toBe(256);
  });

  test("an image without a placeholder (uploaded before them) gets one from the backfill job; a second run finds nothing", async () => {
    const { key } = await makeClient();
    const d = await uploaded(key, await png(120, 60));
    const { deps, runner } = await testContext();
    await deps.db.update(images).set({ placeholder: null }).where(eq(images.id, d.id));
    expect((await callJson("GET", `/v1/images/${d.id}`, { token: key })).body.data.placeholder).toBeNull();
    const run = await runner.runNow("image-placeholders");
    expect(run.outcome).toBe("ok");
    const after = (await callJson("GET", `/v1/images/${d.id}`, { token: key })).body.data.placeholder;
    expect(after).toMatch(/^[A-Za-z0-9+/]+={0,2}$/);
    const again = await runner.runNow("image-placeholders");
    expect(again.counts?.made ?? 0).toBe(0);
  });
});

describe("the allowed sizes", () => {
  test("IMAGE_SIZES adds sizes to the built-in set; the rest stay refused", () => {
    const widened = allowedSizes(" 100, 4000 ");
    expect(readAsk("http://x/media/a.jpg?w=100&h=4000", widened)).toMatchObject({ w: 100, h: 4000, fit: "cover", q: 75, format: null });
    expect(readAsk("http://x/media/a.jpg?w=256", widened)).toMatchObject({ w: 256, h: null });
    expect(() => readAsk("http://x/media/a.jpg?w=100", allowedSizes(""))).toThrow("allowed sizes");
    expect(() => readAsk("http://x/media/a.jpg?w=101", widened)).toThrow("allowed sizes");
    expect(readAsk("http://x/media/a.jpg?v=2", widened)).toBeNull();
  });

  test("an SVG's list item has its own url as thumbnail and a placeholder rendered from it", async () => {
    const { key } = await makeClient();
    const svg = await uploaded(key, '<svg xmlns="http://www.w3.org/2000/svg" width="40" height="20"><rect width="40" height="20" fill="red"/></svg>');
    const item = (await callJson("GET", `/v1/images/${svg.id}`, { token: key })).body.data;
    expect(item.thumbnail_url).toBe(svg.url);
    const { thumbHashToAverageRGBA } = await import("thumbhash");
    const avg = thumbHashToAverageRGBA(Uint8Array.from(Buffer.from(item.placeholder, "base64")));
    expect(avg.r).toBeGreaterThan(0.8);
    expect(avg.g).toBeLessThan(0.2);
  });
});
