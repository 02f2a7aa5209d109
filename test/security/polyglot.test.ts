// Nothing but the picture survives in a served image: payloads hidden in container
// segments, chunks, extensions and trailing bytes, and GPS positions in EXIF and XMP, are
// gone from the stored original and from the WebP rendition; the picture itself (its
// dimensions, its frames and their timing, a valid ICC profile) is kept.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { sharp } from "../../src/infra/sharp.ts";
import { validIcc } from "../../src/modules/images/rebuild/index.ts";
import { makeClient } from "../helpers/factories.ts";
import { edgeGet, uploaded } from "../images/fixtures.ts";
import {
  type Hostile,
  hostileAnimatedWebp,
  hostileAvif,
  hostileGif,
  hostileJpeg,
  hostilePng,
  hostileWebp,
  type Secrets,
  secrets,
  tamperedProfile,
} from "./polyglot-files.ts";
import { TEST_TIMEOUT_MS } from "../helpers/timeout.ts";

setDefaultTimeout(TEST_TIMEOUT_MS);

const text = (b: Uint8Array) => Buffer.from(b).toString("latin1");

/** Bytes that betray a payload or a position, whichever container they sit in. */
const needles = (s: Secrets) => [s.payload, s.datum, "GPSLatitude", "xmpmeta", "Exif\0\0", "XMP DataXMP", "PAYLOADX1.0"];

async function expectClean(bytes: Uint8Array, s: Secrets) {
  const t = text(bytes);
  for (const needle of needles(s)) expect(t).not.toContain(needle);
  const m = await sharp(bytes).metadata();
  expect(m.exif).toBeUndefined();
  expect(m.xmp).toBeUndefined();
  expect(m.iptc).toBeUndefined();
  expect(m.comments ?? []).toEqual([]);
  if (m.icc) expect(text(m.icc)).not.toContain(s.payload);
}

/** Uploads the hostile file and checks both served variants: the original (no Accept) and WebP. */
async function uploadAndCheck(h: Hostile, s: Secrets, sourceType: string) {
  // The hostile file does carry what must go.
  expect(text(h.bytes)).toContain(s.payload);
  const { key } = await makeClient();
  const d = await uploaded(key, h.bytes);
  expect([d.width, d.height]).toEqual([h.width, h.height]);
  for (const accept of [undefined, "image/webp"]) {
    const res = await edgeGet(d.url, accept ? { accept } : {});
    expect(res.status).toBe(200);
    const bytes = new Uint8Array(await res.arrayBuffer());
    const type = res.headers.get("content-type");
    expect(type).toBe(accept ?? sourceType);
    await expectClean(bytes, s);
    const m = await sharp(bytes, { animated: true }).metadata();
    expect([m.width, m.pageHeight ?? m.height]).toEqual([h.width, h.height]);
    const _pixels = await sharp(bytes, { animated: true }).raw().toBuffer(); // it decodes
    if (h.frames) {
      expect(m.pages).toBe(h.frames);
      expect(m.delay).toEqual(h.delay!);
      expect(m.loop).toBe(h.loop!);
    }
    if (type === sourceType) {
      if (h.icc) expect(m.icc && Buffer.compare(m.icc, h.icc)).toBe(0);
      else expect(m.icc === undefined || validIcc(m.icc)).toBe(true);
      // The stored sample values, not their colours (a dropped profile changes those).
      const stored = await sharp(bytes, { animated: true, ignoreIcc: true }).raw().toBuffer();
      if (h.samePixels) expect(Buffer.compare(stored, await sharp(h.bytes, { animated: true, ignoreIcc: true }).raw().toBuffer())).toBe(0);
    }
  }
}

describe("polyglots: only the picture survives in a served image", () => {
  test("JPEG: payloads in APP0 (JFIF and JFXX), APP2, APP14, COM (also between scans) and after EOI, GPS in EXIF and XMP are gone; pixels and the P3 profile are kept", async () => {
    const s = secrets();
    await uploadAndCheck(await hostileJpeg(s), s, "image/jpeg");
  });

  test("JPEG with EXIF orientation (re-encoded to apply it): the same payloads are gone and the P3 profile is kept", async () => {
    const s = secrets();
    await uploadAndCheck(await hostileJpeg(s, 6), s, "image/jpeg");
  });

  test("PNG: a prVt chunk, tEXt, iTXt XMP with GPS, eXIf with GPS and bytes after IEND are gone; pixels and the P3 iCCP are kept", async () => {
    const s = secrets();
    await uploadAndCheck(await hostilePng(s), s, "image/png");
  });

  test("PNG whose iCCP profile has bytes appended inside it: the profile is dropped", async () => {
    const s = secrets();
    const h = await hostilePng(s, true);
    // The appended profile is compressed in the file: sharp shows it is really there.
    expect(text((await sharp(h.bytes).metadata()).icc!)).toContain(s.payload);
    await uploadAndCheck(h, s, "image/png");
  });

  test("GIF: comment, XMP DataXMP with GPS, other application and plain text extensions, and bytes after the trailer are gone", async () => {
    const s = secrets();
    await uploadAndCheck(await hostileGif(s, false), s, "image/gif");
  });

  test("animated GIF: the same payloads are gone; 3 frames, their distinct delays and the loop count are kept", async () => {
    const s = secrets();
    await uploadAndCheck(await hostileGif(s, true), s, "image/gif");
  });

  test("WebP: an unknown chunk, EXIF with GPS, XMP with GPS and bytes after the RIFF are gone; pixels and the P3 ICCP are kept", async () => {
    const s = secrets();
    await uploadAndCheck(await hostileWebp(s), s, "image/webp");
  });

  test("animated WebP: an unknown chunk at the top and inside a frame and bytes after the RIFF are gone; frames and timing are kept", async () => {
    const s = secrets();
    await uploadAndCheck(await hostileAnimatedWebp(s), s, "image/webp");
  });

  test("AVIF: appended bytes, EXIF with GPS and XMP with GPS are gone; the P3 profile is kept", async () => {
    const s = secrets();
    const h = await hostileAvif(s);
    const m = await sharp(h.bytes).metadata();
    expect(m.exif && m.xmp).toBeTruthy();
    await uploadAndCheck(h, s, "image/avif");
  });
});

describe("ICC validation", () => {
  test("a real profile passes; appended bytes, a wrong size field, a missing signature or a tag out of bounds fail", async () => {
    const p3 = (
      await sharp(
        await sharp({ create: { width: 4, height: 4, channels: 3, background: "red" } })
          .png()
          .withIccProfile("p3")
          .toBuffer(),
      ).metadata()
    ).icc!;
    expect(validIcc(p3)).toBe(true);
    expect(validIcc(tamperedProfile(p3, "PAYLOAD"))).toBe(false);
    expect(validIcc(Buffer.concat([p3, Buffer.from("PAYLOAD")]))).toBe(false);
    const noSignature = Buffer.from(p3);
    noSignature.write("xxxx", 36, "latin1");
    expect(validIcc(noSignature)).toBe(false);
    const tagOut = Buffer.from(p3);
    tagOut.writeUInt32BE(p3.length, 128 + 4 + 4); // first tag's offset at the very end
    expect(validIcc(tagOut)).toBe(false);
    // Zero padding after the tags is fine (the size field grown to cover it).
    const padded = Buffer.concat([p3, Buffer.alloc(8)]);
    padded.writeUInt32BE(padded.length, 0);
    expect(validIcc(padded)).toBe(true);
  });
});
