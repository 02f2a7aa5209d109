// POST /v1/images: the type comes from the bytes, decoding is bounded, metadata is
// stripped, the orientation applied, animations stay animated and SVG is sanitized.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { sharp } from "../../src/infra/sharp.ts";
import { MAX_PIXELS } from "../../src/modules/images/pipeline.ts";
import { SVG_MAX_BYTES } from "../../src/modules/images/svg.ts";
import { call, callJson } from "../helpers/context.ts";
import { makeClient } from "../helpers/factories.ts";
import { expectTenantIsolation } from "../helpers/tenancy.ts";
import { animated, avif, BILLION_LAUGHS, edgeGet, hasExif, HOSTILE_SVG, jpegWithExif, png, pngHeaderBomb, upload, uploaded, uploadForm } from "./fixtures.ts";
import { TEST_TIMEOUT_MS } from "../helpers/timeout.ts";

setDefaultTimeout(TEST_TIMEOUT_MS);

const MB = 1024 * 1024;

describe("POST /v1/images", () => {
  test("401 without credentials, 403 without media.write", async () => {
    const bytes = await png();
    await expectTenantIsolation({ method: "POST", path: () => "/v1/images", scope: "media.write", request: () => ({ body: uploadForm(bytes) }) });
  });

  test("201 with id (11 chars), url MEDIA_URL/<id>.<ext>, filename, size, width, height, created_at", async () => {
    const { key } = await makeClient();
    const res = await upload(key, await png(40, 30), { filename: "shot.png", type: "image/png" });
    expect(res.status).toBe(201);
    const d = res.body.data;
    expect(Object.keys(d).sort()).toEqual(["created_at", "filename", "height", "id", "size", "url", "width"]);
    expect(d.id).toMatch(/^[A-Za-z0-9_-]{11}$/);
    expect(d.url).toBe(`http://shelf.test/media/${d.id}.png`);
    expect(d).toMatchObject({ filename: "shot.png", width: 40, height: 30 });
    expect(d.size).toBeGreaterThan(0);
    expect(d.created_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
  });

  test("the bytes decide the type: a PNG declared as image/jpeg and named .jpg is a .png", async () => {
    const { key } = await makeClient();
    const d = await uploaded(key, await png(), { filename: "lies.jpg", type: "image/jpeg" });
    expect(d.url.endsWith(".png")).toBe(true);
    expect((await edgeGet(d.url, { accept: "*/*" })).headers.get("content-type")).toBe("image/png");
  });

  test("every supported format is accepted: JPEG, PNG, GIF, WebP, AVIF, SVG", async () => {
    const { key } = await makeClient();
    const cases: [Uint8Array | string, string][] = [
      [await jpegWithExif({ orientation: 1 }), "jpg"],
      [await png(), "png"],
      [await animated("gif", 2), "gif"],
      [await animated("webp", 2), "webp"],
      [await avif(), "avif"],
      [HOSTILE_SVG, "svg"],
    ];
    for (const [bytes, ext] of cases) {
      const d = await uploaded(key, bytes);
      expect(d.url.endsWith(`.${ext}`)).toBe(true);
    }
  });

  test("HTML bytes named .png are refused: 422 INVALID_FILE_TYPE", async () => {
    const { key } = await makeClient();
    const res = await upload(key, "<!DOCTYPE html><html><script>alert(1)</script></html>", { filename: "cat.png", type: "image/png" });
    expect(res.status).toBe(422);
    expect(res.body.code).toBe("INVALID_FILE_TYPE");
  });

  test("a HEIC-like ISO-BMFF file or a truncated JPEG is refused", async () => {
    const { key } = await makeClient();
    const heic = new Uint8Array([0, 0, 0, 24, ...new TextEncoder().encode("ftypheicmif1heic"), 0, 0, 0, 0]);
    expect((await upload(key, heic)).body.code).toBe("INVALID_FILE_TYPE");
    const jpeg = await jpegWithExif();
    const truncated = await upload(key, jpeg.subarray(0, 40));
    expect(truncated.status).toBe(422);
    expect(truncated.body.code).toBe("VALIDATION_ERROR");
  });

  test("EXIF and GPS are stripped from the original and the WebP, and the orientation is applied", async () => {
    const { key } = await makeClient();
    const jpeg = await jpegWithExif({ width: 64, height: 32, orientation: 6 });
    expect(hasExif(jpeg)).toBe(true);
    const d = await uploaded(key, jpeg);
    // Orientation 6 is a quarter turn: 64 x 32 as stored becomes 32 x 64 as seen.
    expect([d.width, d.height]).toEqual([32, 64]);
    for (const accept of ["*/*", "image/webp,*/*"]) {
      const bytes = new Uint8Array(await (await edgeGet(d.url, { accept })).arrayBuffer());
      expect(hasExif(bytes)).toBe(false);
      const m = await sharp(bytes).metadata();
      expect(m.exif).toBeUndefined();
      expect(m.orientation ?? 1).toBe(1);
      expect([m.width, m.height]).toEqual([32, 64]);
    }
  });

  test("a JPEG without rotation keeps its pixels: the original is stripped losslessly, not re-encoded", async () => {
    const { key } = await makeClient();
    const jpeg = await jpegWithExif({ width: 96, height: 64, orientation: 1 });
    const d = await uploaded(key, jpeg);
    const stored = new Uint8Array(await (await edgeGet(d.url, { accept: "*/*" })).arrayBuffer());
    expect(hasExif(stored)).toBe(false);
    expect(stored.length).toBeLessThan(jpeg.length);
    const [a, b] = await Promise.all([sharp(jpeg).raw().toBuffer(), sharp(stored).raw().toBuffer()]);
    expect(Buffer.compare(a, b)).toBe(0);
  });

  test("an animated GIF stays animated, as original and as WebP", async () => {
    const { key } = await makeClient();
    const d = await uploaded(key, await animated("gif", 4));
    expect([d.width, d.height]).toEqual([32, 32]);
    for (const [accept, type] of [
      ["*/*", "image/gif"],
      ["image/webp", "image/webp"],
    ]) {
      const res = await edgeGet(d.url, { accept: accept! });
      expect(res.headers.get("content-type")).toBe(type!);
      const m = await sharp(new Uint8Array(await res.arrayBuffer()), { animated: true }).metadata();
      expect(m.pages).toBe(4);
    }
  });

  test("an animated WebP stays animated", async () => {
    const { key } = await makeClient();
    const d = await uploaded(key, await animated("webp", 3));
    const res = await edgeGet(d.url, { accept: "image/webp" });
    expect((await sharp(new Uint8Array(await res.arrayBuffer()), { animated: true }).metadata()).pages).toBe(3);
  });

  test("a 100000 x 100000 header is refused from the header alone: 422, nothing decoded", async () => {
    const { key } = await makeClient();
    // The file holds no pixels at all: only its header can have been read.
    const res = await upload(key, pngHeaderBomb(100_000, 100_000));
    expect(res.status).toBe(422);
    expect(res.body.code).toBe("VALIDATION_ERROR");
    expect(res.body.error).toContain("100000 x 100000");
    expect(res.body.error).toContain(String(MAX_PIXELS));
    expect(res.body.meta.path).toBe("file");
  });

  test("an animation over the frame or pixel budget is refused: 422 VALIDATION_ERROR", async () => {
    const { key } = await makeClient();
    // 1001 frames of 32 x 32 is over the 1000-frame limit.
    const res = await upload(key, await animated("gif", 1001));
    expect(res.status).toBe(422);
    expect(res.body.code).toBe("VALIDATION_ERROR");
    expect(res.body.error).toContain("frames");
  });

  test("a hostile SVG is stored without script, handlers, foreignObject or external references", async () => {
    const { key } = await makeClient();
    const d = await uploaded(key, HOSTILE_SVG, { filename: "logo.svg" });
    expect([d.width, d.height]).toEqual([120, 80]);
    const res = await edgeGet(d.url, { accept: "image/webp,*/*" });
    expect(res.headers.get("content-type")).toBe("image/svg+xml");
    expect(res.headers.get("content-security-policy")).toContain("default-src 'none'");
    const svg = await res.text();
    for (const bad of ["<script", "onload", "onclick", "onerror", "foreignObject", "javascript:", "evil.example", "@import", "<set"]) {
      expect(svg).not.toContain(bad);
    }
    expect(svg).toContain("<circle");
    expect(svg).toContain('xlink:href="#dot"');
  });

  test("a billion-laughs SVG is refused before it is parsed", async () => {
    const { key } = await makeClient();
    const res = await upload(key, BILLION_LAUGHS);
    expect(res.status).toBe(422);
    expect(res.body.code).toBe("VALIDATION_ERROR");
    expect(res.body.error).toContain("entity");
  });

  test("tags and is_public are read from the form; bad tags are 422 with the path", async () => {
    const { key } = await makeClient();
    const d = await uploaded(key, await png(), { tags: '["cats","2024"]', is_public: "false" });
    const one = await callJson("GET", `/v1/images/${d.id}`, { token: key });
    expect(one.body.data).toMatchObject({ tags: ["cats", "2024"], is_public: false });
    for (const tags of ["not json", '["a",1]', JSON.stringify(Array.from({ length: 11 }, (_, i) => `t${i}`)), JSON.stringify(["x".repeat(33)]), '[""]']) {
      const res = await upload(key, await png(), { tags });
      expect(res.status).toBe(422);
      expect(res.body.code).toBe("VALIDATION_ERROR");
      expect(res.body.meta.path).toStartWith("body.tags");
    }
    const badPublic = await upload(key, await png(), { is_public: "maybe" });
    expect(badPublic.body.meta.path).toBe("body.is_public");
    // At the limits: 10 tags of 32 characters are taken.
    const most = Array.from({ length: 10 }, (_, i) => `${i}`.padEnd(32, "x"));
    const full = await uploaded(key, await png(), { tags: JSON.stringify(most) });
    expect((await callJson("GET", `/v1/images/${full.id}`, { token: key })).body.data.tags).toEqual(most);
  });

  test("an SVG over its 10 MB limit is 413 FILE_TOO_LARGE with the limit", async () => {
    const { key } = await makeClient({ plan: "pro" });
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><!--${"x".repeat(SVG_MAX_BYTES)}--></svg>`;
    const res = await upload(key, svg, { filename: "big.svg" });
    expect(res.status).toBe(413);
    expect(res.body.code).toBe("FILE_TOO_LARGE");
    expect(res.body.meta.limit).toBe(SVG_MAX_BYTES);
  });

  test("a long file name is cut to 255 characters, never inside an emoji", async () => {
    const { key } = await makeClient();
    const name = `${"a".repeat(254)}😀😀.png`;
    const d = await uploaded(key, await png(), { filename: name });
    expect(d.filename).toBe(`${"a".repeat(254)}😀`);
  });

  test("missing file is 422; malformed multipart and a non-multipart body are 400", async () => {
    const { key } = await makeClient();
    const form = new FormData();
    form.append("tags", "[]");
    const missing = await callJson("POST", "/v1/images", { token: key, body: form });
    expect(missing.status).toBe(422);
    expect(missing.body.code).toBe("VALIDATION_ERROR");
    expect(missing.body.meta.path).toBe("body.file");

    const malformed = await callJson("POST", "/v1/images", {
      token: key,
      headers: { "content-type": "multipart/form-data; boundary=XYZ" },
      body: '--XYZ\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\n\r\nunterminated',
    });
    expect(malformed.status).toBe(400);
    expect(malformed.body.code).toBe("BAD_REQUEST");

    const json = await callJson("POST", "/v1/images", { token: key, json: { file: "x" } });
    expect(json.status).toBe(400);
  });
});

/** A multipart body of `total` bytes, produced 1 MB at a time, counting what was read. */
function countingBody(total: number) {
  const boundary = "----shelfTestBoundary";
  const head = new TextEncoder().encode(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.png"\r\nContent-Type: image/png\r\n\r\n`);
  let sent = 0;
  const stream = new ReadableStream<Uint8Array>({
    pull(c) {
      if (sent >= total) return c.close();
      const chunk = sent === 0 ? head : new Uint8Array(Math.min(MB, total - sent));
      sent += chunk.length;
      c.enqueue(chunk);
    },
  });
  return { stream, boundary, read: () => sent };
}

describe("POST /v1/images: the 50 MB limit", () => {
  test("a 51 MB file with its Content-Length is refused with 413 before the body is read", async () => {
    const { key } = await makeClient();
    const body = countingBody(51 * MB);
    const res = await call("POST", "/v1/images", {
      token: key,
      headers: { "content-type": `multipart/form-data; boundary=${body.boundary}`, "content-length": String(51 * MB + 200) },
      body: body.stream,
    });
    expect(res.status).toBe(413);
    expect(((await res.json()) as any).code).toBe("FILE_TOO_LARGE");
    expect(body.read()).toBeLessThan(4 * MB);
  });

  test("a file sent without Content-Length (chunked) is stopped at the limit, not read to its end", async () => {
    const { key } = await makeClient();
    const body = countingBody(200 * MB);
    const res = await call("POST", "/v1/images", {
      token: key,
      headers: { "content-type": `multipart/form-data; boundary=${body.boundary}` },
      body: body.stream,
    });
    expect(res.status).toBe(413);
    expect(((await res.json()) as any).code).toBe("FILE_TOO_LARGE");
    // 50 MB of file, the chunk that crossed the limit and one the stream read ahead.
    expect(body.read()).toBeLessThanOrEqual(52 * MB + 1024);
  });

  test("a client claiming a small Content-Length but sending more is stopped at the limit", async () => {
    const { key } = await makeClient();
    const body = countingBody(200 * MB);
    const res = await call("POST", "/v1/images", {
      token: key,
      headers: { "content-type": `multipart/form-data; boundary=${body.boundary}`, "content-length": "1000" },
      body: body.stream,
    });
    expect(res.status).toBe(413);
    expect(body.read()).toBeLessThanOrEqual(52 * MB + 1024);
  });
});
