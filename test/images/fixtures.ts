// Image fixtures, generated with sharp in the tests (nothing binary is committed), and
// the multipart upload helper the image and edge tests share.
import { crc32, deflateSync } from "node:zlib";
import { sharp } from "../../src/infra/sharp.ts";
import { call, callJson } from "../helpers/context.ts";

/** A photo-like JPEG (smooth noise, so it compresses like a photo) carrying EXIF orientation and GPS. */
export async function jpegWithExif(opts: { width?: number; height?: number; orientation?: number } = {}): Promise<Uint8Array> {
  const width = opts.width ?? 64;
  const height = opts.height ?? 32;
  const buf = await sharp({
    create: { width: Math.ceil(width / 8), height: Math.ceil(height / 8), channels: 3, background: "black", noise: { type: "gaussian", mean: 128, sigma: 50 } },
  })
    .resize(width, height)
    .jpeg({ quality: 92 })
    .withMetadata({ orientation: opts.orientation ?? 6 })
    .withExif({
      IFD0: { Make: "FixtureCam", Model: "Secret Model" },
      IFD3: { GPSLatitudeRef: "N", GPSLatitude: "48/1 51/1 24/1", GPSLongitudeRef: "E", GPSLongitude: "2/1 21/1 3/1" },
    } as never)
    .toBuffer();
  return buf;
}

/**
 * A photo-like JPEG: detail at every scale, as a photo has (noise at four scales, the
 * coarser the stronger), with no metadata.
 */
export async function photoLike(width: number, height: number): Promise<Uint8Array> {
  const layers = await Promise.all(
    [
      [64, 50],
      [16, 30],
      [4, 16],
      [1, 8],
    ].map(([div, sigma]) =>
      sharp({
        create: {
          width: Math.ceil(width / div!),
          height: Math.ceil(height / div!),
          channels: 3,
          background: "black",
          noise: { type: "gaussian", mean: 128, sigma: sigma! },
        },
      })
        .resize(width, height, { kernel: "cubic" })
        .raw()
        .toBuffer(),
    ),
  );
  const out = Buffer.alloc(width * height * 3);
  for (let i = 0; i < out.length; i++) out[i] = Math.max(0, Math.min(255, 128 + layers.reduce((sum, l) => sum + l[i]! - 128, 0)));
  return await sharp(out, { raw: { width, height, channels: 3 } })
    .jpeg({ quality: 85 })
    .toBuffer();
}

export async function png(width = 40, height = 30): Promise<Uint8Array> {
  return await sharp({ create: { width, height, channels: 4, background: { r: 10, g: 200, b: 30, alpha: 0.5 } } })
    .png()
    .toBuffer();
}

export async function avif(width = 48, height = 32): Promise<Uint8Array> {
  return await sharp({ create: { width, height, channels: 3, background: "navy" } })
    .avif({ effort: 0 })
    .toBuffer();
}

/** An animated GIF (or WebP) of `frames` frames of 32 x 32. */
export async function animated(format: "gif" | "webp", frames = 4): Promise<Uint8Array> {
  const pages = await Promise.all(
    Array.from({ length: frames }, (_, i) =>
      sharp({ create: { width: 32, height: 32, channels: 3, background: { r: (i * 60) % 256, g: 20, b: 90 } } })
        .raw()
        .toBuffer(),
    ),
  );
  const strip = sharp(Buffer.concat(pages), { raw: { width: 32, height: 32 * frames, channels: 3, pageHeight: 32 } as never });
  const out = format === "gif" ? strip.gif({ delay: 100, loop: 0 } as never) : strip.webp({ delay: 100, loop: 0, effort: 0 } as never);
  return await out.toBuffer();
}

/** A PNG whose header claims `width` x `height` pixels, with no pixel data worth the name. */
export function pngHeaderBomb(width = 100_000, height = 100_000): Uint8Array {
  const chunk = (type: string, data: Uint8Array) => {
    const b = Buffer.alloc(12 + data.length);
    b.writeUInt32BE(data.length, 0);
    b.write(type, 4, "latin1");
    Buffer.from(data).copy(b, 8);
    b.writeUInt32BE(crc32(Buffer.concat([Buffer.from(type, "latin1"), Buffer.from(data)])) >>> 0, 8 + data.length);
    return b;
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // RGB
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return Buffer.concat([signature, chunk("IHDR", ihdr), chunk("IDAT", deflateSync(Buffer.alloc(64))), chunk("IEND", new Uint8Array())]);
}

export const HOSTILE_SVG = `<?xml version="1.0" encoding="UTF-8"?>
<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="120" height="80" onload="alert('onload')">
  <script>alert('script')</script>
  <script xlink:href="https://evil.example/x.js"/>
  <a href="javascript:alert('link')"><rect width="10" height="10" onclick="alert('click')" fill="red"/></a>
  <foreignObject width="100" height="100"><div xmlns="http://www.w3.org/1999/xhtml"><img src="x" onerror="alert('img')"/></div></foreignObject>
  <image href="https://evil.example/tracker.png" width="1" height="1"/>
  <use xlink:href="https://evil.example/sprite.svg#icon"/>
  <style>@import url(https://evil.example/x.css); rect { fill: blue }</style>
  <set attributeName="onmouseover" to="alert('set')"/>
  <circle id="dot" cx="40" cy="40" r="20" fill="green" style="fill:url(https://evil.example/p)"/>
  <use xlink:href="#dot" x="50"/>
</svg>`;

export const BILLION_LAUGHS = `<?xml version="1.0"?>
<!DOCTYPE lolz [
 <!ENTITY lol "lol">
 <!ENTITY lol1 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
 <!ENTITY lol2 "&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;">
 <!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">
 <!ENTITY lol9 "&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;">
]>
<svg xmlns="http://www.w3.org/2000/svg"><text>&lol9;</text></svg>`;

export interface UploadOptions {
  filename?: string;
  type?: string;
  tags?: string;
  is_public?: string;
}

export function uploadForm(bytes: Uint8Array | string, opts: UploadOptions = {}): FormData {
  const form = new FormData();
  form.append("file", new Blob([bytes as BlobPart], { type: opts.type ?? "application/octet-stream" }), opts.filename ?? "upload.bin");
  if (opts.tags !== undefined) form.append("tags", opts.tags);
  if (opts.is_public !== undefined) form.append("is_public", opts.is_public);
  return form;
}

export function upload(token: string, bytes: Uint8Array | string, opts: UploadOptions = {}) {
  return callJson("POST", "/v1/images", { token, body: uploadForm(bytes, opts) });
}

/** Uploads and returns the created image's data; fails the test on anything but 201. */
export async function uploaded(token: string, bytes: Uint8Array | string, opts: UploadOptions = {}) {
  const res = await upload(token, bytes, opts);
  if (res.status !== 201) throw new Error(`upload failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data as { id: string; url: string; filename: string; size: number; width: number; height: number; created_at: string };
}

/** GET on the media edge, by the image's public URL. */
export function edgeGet(url: string, headers: Record<string, string> = {}, method = "GET") {
  return call(method, new URL(url).pathname, { headers });
}

/** True when the bytes hold an EXIF block (the APP1 "Exif\0\0" signature or a PNG/WebP EXIF chunk). */
export function hasExif(bytes: Uint8Array): boolean {
  const s = Buffer.from(bytes).toString("latin1");
  // The markers of an EXIF block (JPEG's APP1, PNG's chunk, WebP's chunk) and the fixture's
  // own strings. Not a bare "GPS": three bytes that a noisy JPEG's compressed data holds by
  // chance about once in a thousand files (the GPS block lives inside the EXIF one anyway).
  return s.includes("Exif\0\0") || s.includes("eXIf") || s.includes("EXIF") || s.includes("FixtureCam") || s.includes("Secret Model");
}
