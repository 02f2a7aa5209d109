// Hostile image files for the polyglot tests: a small picture made by sharp, then a
// distinctive payload and a GPS position hidden in every place the container lets a file
// carry bytes a decoder does not need. Nothing binary is committed.
import { crc32, deflateSync, inflateSync } from "node:zlib";
import { sharp } from "../../src/infra/sharp.ts";

/** What a hostile file hides: a payload string and a GPS datum no real file has. */
export interface Secrets {
  payload: string;
  datum: string;
}

export function secrets(): Secrets {
  const id = crypto.randomUUID().replaceAll("-", "").slice(0, 12);
  return { payload: `PAYLOAD-${id}`, datum: `GPSDATUM-${id}` };
}

export interface Hostile {
  bytes: Uint8Array;
  width: number;
  height: number;
  /** Animation: frames, per-frame delays (ms) and loop count the served files must keep. */
  frames?: number;
  delay?: number[];
  loop?: number;
  /** The valid ICC profile the stored original must keep, byte for byte. */
  icc?: Buffer;
  /** True when the stored original must have exactly the upload's pixels (rebuilt, not re-encoded). */
  samePixels: boolean;
}

const bin = (s: string) => Buffer.from(s, "latin1");
const cat = (...parts: (Uint8Array | number[])[]) => Buffer.concat(parts.map((p) => Buffer.from(p)));
const u16be = (v: number) => [v >> 8, v & 0xff];
const u32be = (v: number) => [(v >>> 24) & 0xff, (v >>> 16) & 0xff, (v >>> 8) & 0xff, v & 0xff];
const u32le = (v: number) => [v & 0xff, (v >>> 8) & 0xff, (v >>> 16) & 0xff, (v >>> 24) & 0xff];

/** XMP placing the picture in Paris, as phones and editors write it. */
const gpsXmp = (s: Secrets) =>
  `<?xpacket begin="\uFEFF" id="W5M0MpCehiHzreSzNTczkc9d"?><x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">` +
  `<rdf:Description rdf:about="" xmlns:exif="http://ns.adobe.com/exif/1.0/" exif:GPSLatitude="48,51.4N" exif:GPSLongitude="2,21.05E" exif:GPSMapDatum="${s.datum}"/>` +
  `</rdf:RDF></x:xmpmeta><?xpacket end="w"?>`;

/** EXIF with a GPS IFD (and the payload as the camera's make). */
const gpsExif = (s: Secrets) => ({
  IFD0: { Make: s.payload, Model: "Hostile" },
  IFD3: { GPSLatitudeRef: "N", GPSLatitude: "48/1 51/1 24/1", GPSLongitudeRef: "E", GPSLongitude: "2/1 21/1 3/1", GPSMapDatum: s.datum },
});

/** Photo-like pixels (noise), so lossy encoders behave as on photos. */
const picture = (width: number, height: number, channels: 3 | 4 = 3) =>
  sharp({ create: { width, height, channels, background: { r: 90, g: 120, b: 60, alpha: 0.8 }, noise: { type: "gaussian", mean: 128, sigma: 40 } } });

// ---- JPEG -------------------------------------------------------------------------------

const jpegSegment = (marker: number, data: Uint8Array) => cat([0xff, marker, ...u16be(data.length + 2)], data);

/**
 * A progressive JPEG with a P3 profile and EXIF GPS, plus: a JFIF APP0 with the payload
 * after its fields, a JFXX thumbnail APP0, an XMP APP1 with GPS, a non-ICC APP2, an Adobe
 * APP14 with the payload after its fields, a COM in the header and one between scans, and
 * the payload after EOI.
 */
export async function hostileJpeg(s: Secrets, orientation = 1): Promise<Hostile> {
  const base = await picture(64, 48)
    .jpeg({ quality: 90, progressive: true })
    .withIccProfile("p3")
    .withMetadata({ orientation })
    .withExif(gpsExif(s) as never)
    .toBuffer();
  const icc = (await sharp(base).metadata()).icc!;
  const p = bin(s.payload);
  const head = [
    jpegSegment(0xe0, cat(bin("JFIF\0"), [1, 2, 1, 0, 72, 0, 72, 0, 0], p)),
    jpegSegment(0xe0, cat(bin("JFXX\0"), [0x10], p)),
    jpegSegment(0xe1, cat(bin("http://ns.adobe.com/xap/1.0/\0"), bin(gpsXmp(s)))),
    jpegSegment(0xe2, p),
    jpegSegment(0xee, cat(bin("Adobe"), [0, 100, 0, 0, 0, 0, 1], p)),
    jpegSegment(0xfe, p),
  ];
  // Entropy-coded data never holds FF DA (an FF there is followed by 00 or a restart
  // marker), so the second FF DA is the second scan's SOS.
  const secondScan = base.indexOf(Buffer.from([0xff, 0xda]), base.indexOf(Buffer.from([0xff, 0xda])) + 2);
  const bytes = cat(base.subarray(0, 2), ...head, base.subarray(2, secondScan), jpegSegment(0xfe, p), base.subarray(secondScan), p);
  const swap = orientation >= 5;
  return { bytes, width: swap ? 48 : 64, height: swap ? 64 : 48, icc, samePixels: orientation === 1 };
}

// ---- PNG --------------------------------------------------------------------------------

const pngChunk = (type: string, data: Uint8Array) => {
  const body = cat(bin(type), data);
  return cat(u32be(data.length), body, u32be(crc32(body) >>> 0));
};

function pngChunks(b: Buffer): { type: string; bytes: Buffer; data: Buffer }[] {
  const out = [];
  for (let at = 8; at < b.length; ) {
    const len = b.readUInt32BE(at);
    out.push({ type: b.toString("latin1", at + 4, at + 8), bytes: b.subarray(at, at + 12 + len), data: b.subarray(at + 8, at + 8 + len) });
    at += 12 + len;
  }
  return out;
}

/** The TIFF part of the EXIF sharp writes (what a PNG eXIf chunk holds). */
async function tiffExif(s: Secrets): Promise<Buffer> {
  const jpeg = await picture(8, 8)
    .jpeg()
    .withExif(gpsExif(s) as never)
    .toBuffer();
  const at = jpeg.indexOf(bin("Exif\0\0"));
  return jpeg.subarray(at + 6, at - 2 + jpeg.readUInt16BE(at - 2));
}

/**
 * A PNG with a P3 iCCP, plus a private prVt chunk, a tEXt comment, an iTXt XMP with GPS and
 * an eXIf with GPS, all carrying the payload, and the payload after IEND. With
 * `tamperIcc`, the payload is also appended inside the ICC profile (its size field grown
 * to cover it), so the profile is no longer valid and must go.
 */
export async function hostilePng(s: Secrets, tamperIcc = false): Promise<Hostile> {
  const base = await picture(40, 30, 4).png().withIccProfile("p3").toBuffer();
  const chunks = pngChunks(base);
  const p = bin(s.payload);
  const hostile = [
    pngChunk("prVt", p),
    pngChunk("tEXt", cat(bin("Comment\0"), p)),
    pngChunk("iTXt", cat(bin("XML:com.adobe.xmp\0\0\0\0\0"), bin(gpsXmp(s)))),
    pngChunk("eXIf", await tiffExif(s)),
  ];
  const iccp = chunks.find((c) => c.type === "iCCP")!;
  const profile = inflateSync(iccp.data.subarray(iccp.data.indexOf(0) + 2));
  const replaced = tamperIcc ? pngChunk("iCCP", cat(bin("icc\0\0"), deflateSync(tamperedProfile(profile, s.payload)))) : iccp.bytes;
  const kept = chunks.map((c) => (c.type === "iCCP" ? replaced : c.type === "IHDR" ? cat(c.bytes, ...hostile) : c.bytes));
  return { bytes: cat(base.subarray(0, 8), ...kept, p), width: 40, height: 30, icc: tamperIcc ? undefined : profile, samePixels: true };
}

/** An ICC profile with the payload appended inside it (its size field grown to cover it). */
export function tamperedProfile(profile: Buffer, payload: string): Buffer {
  return cat(u32be(profile.length + payload.length), profile.subarray(4), bin(payload));
}

// ---- GIF --------------------------------------------------------------------------------

const subBlocks = (data: Uint8Array) => {
  const parts: (Uint8Array | number[])[] = [];
  for (let at = 0; at < data.length; at += 255) {
    const part = data.subarray(at, at + 255);
    parts.push([part.length], part);
  }
  return cat(...parts, [0]);
};

/** XMP as Adobe writes it in a GIF: raw bytes, then a "magic trailer" that parses as sub-blocks. */
const xmpExtension = (xmp: string) => cat([0x21, 0xff, 11], bin("XMP DataXMP"), bin(xmp), [1, ...Array.from({ length: 256 }, (_, i) => 255 - i), 0]);

/**
 * A GIF (still, or animated with 3 frames of distinct delays) with a comment extension, an
 * XMP DataXMP extension with GPS, another application extension and a plain text extension
 * carrying the payload, a comment before the last frame, and the payload after the trailer.
 */
export async function hostileGif(s: Secrets, animated: boolean): Promise<Hostile> {
  const frames = animated ? 3 : 1;
  const delay = [100, 250, 400];
  const pages = await Promise.all(
    Array.from({ length: frames }, (_, i) =>
      picture(32, 24)
        .tint({ r: 80 * i, g: 200, b: 40 })
        .raw()
        .toBuffer(),
    ),
  );
  const strip = sharp(Buffer.concat(pages), { raw: { width: 32, height: 24 * frames, channels: 3, pageHeight: 24 } as never });
  const base = await (animated ? strip.gif({ delay, loop: 2 } as never) : strip.gif()).toBuffer();
  const tableEnd = 13 + (base[10]! & 0x80 ? 3 << ((base[10]! & 7) + 1) : 0);
  const p = bin(s.payload);
  const plainText = cat([0x21, 0x01, 12, 0, 0, 0, 0, 32, 0, 24, 0, 8, 8, 1, 0], subBlocks(p));
  const hostile = cat([0x21, 0xfe], subBlocks(p), xmpExtension(gpsXmp(s)), [0x21, 0xff, 11], bin("PAYLOADX1.0"), subBlocks(p), plainText);
  // A comment also before the last frame (its graphic control extension).
  const last = lastGraphicControl(base, tableEnd);
  const bytes = cat(base.subarray(0, tableEnd), hostile, base.subarray(tableEnd, last), [0x21, 0xfe], subBlocks(p), base.subarray(last), p);
  return { bytes, width: 32, height: 24, samePixels: true, ...(animated ? { frames, delay, loop: 2 } : {}) };
}

/** The offset of the last graphic control extension, found by walking the blocks. */
function lastGraphicControl(b: Buffer, at: number): number {
  let last = -1;
  const skipSubBlocks = (p: number) => {
    while (b[p] !== 0) p += 1 + b[p]!;
    return p + 1;
  };
  while (b[at] !== 0x3b) {
    if (b[at] === 0x21) {
      if (b[at + 1] === 0xf9) last = at;
      at = skipSubBlocks(at + 2);
    } else {
      const packed = b[at + 9]!;
      at = skipSubBlocks(at + 11 + (packed & 0x80 ? 3 << ((packed & 7) + 1) : 0));
    }
  }
  return last;
}

// ---- WebP -------------------------------------------------------------------------------

const riffChunk = (type: string, data: Uint8Array) => cat(bin(type), u32le(data.length), data, data.length & 1 ? [0] : []);

function riffChunks(b: Buffer): { type: string; bytes: Buffer; data: Buffer }[] {
  const out = [];
  for (let at = 0; at + 8 <= b.length; ) {
    const len = b.readUInt32LE(at + 4);
    out.push({ type: b.toString("latin1", at, at + 4), bytes: b.subarray(at, at + 8 + len + (len & 1)), data: b.subarray(at + 8, at + 8 + len) });
    at += 8 + len + (len & 1);
  }
  return out;
}

const riff = (chunks: Uint8Array[], trailing: Uint8Array) => {
  const body = cat(...chunks);
  return cat(bin("RIFF"), u32le(4 + body.length), bin("WEBP"), body, trailing);
};

/**
 * A still WebP with a P3 ICCP and EXIF with GPS, plus an unknown chunk holding the payload,
 * an XMP chunk with GPS (its VP8X flag set), and the payload after the RIFF.
 */
export async function hostileWebp(s: Secrets): Promise<Hostile> {
  const base = await picture(40, 30)
    .webp({ quality: 80 })
    .withIccProfile("p3")
    .withExif(gpsExif(s) as never)
    .toBuffer();
  const icc = (await sharp(base).metadata()).icc!;
  const p = bin(s.payload);
  const chunks = riffChunks(base.subarray(12)).map((c) => {
    if (c.type !== "VP8X") return c.bytes;
    const flags = Buffer.from(c.data);
    flags[0] = flags[0]! | 0x04; // XMP present
    return riffChunk("VP8X", flags);
  });
  const last = chunks.length - 1;
  const bytes = riff([...chunks.slice(0, last), riffChunk("PAYL", p), chunks[last]!, riffChunk("XMP ", bin(gpsXmp(s)))], p);
  return { bytes, width: 40, height: 30, icc, samePixels: true };
}

/** An animated WebP (3 frames) with the payload in a top-level chunk, inside the second frame, and after the RIFF. */
export async function hostileAnimatedWebp(s: Secrets): Promise<Hostile> {
  const delay = [100, 250, 400];
  const pages = await Promise.all(
    [0, 1, 2].map((i) =>
      picture(32, 24)
        .tint({ r: 80 * i, g: 200, b: 40 })
        .raw()
        .toBuffer(),
    ),
  );
  const base = await sharp(Buffer.concat(pages), { raw: { width: 32, height: 72, channels: 3, pageHeight: 24 } as never })
    .webp({ delay, loop: 2, effort: 0 } as never)
    .toBuffer();
  const p = bin(s.payload);
  const chunks = riffChunks(base.subarray(12)).map((c, i) => {
    if (c.type !== "ANMF" || i !== 3) return c.bytes;
    // After the frame's image (libwebp stops reading a frame at an unknown chunk).
    return riffChunk("ANMF", cat(c.data, riffChunk("PAYL", p)));
  });
  return { bytes: riff([...chunks, riffChunk("PAYL", p)], p), width: 32, height: 24, frames: 3, delay, loop: 2, samePixels: true };
}

// ---- AVIF -------------------------------------------------------------------------------

/** An AVIF with a P3 profile, EXIF with GPS and XMP with GPS, and the payload appended. */
export async function hostileAvif(s: Secrets): Promise<Hostile> {
  const base = await picture(48, 32)
    .avif({ effort: 0 })
    .withIccProfile("p3")
    .withExif(gpsExif(s) as never)
    .withXmp(gpsXmp(s))
    .toBuffer();
  const icc = (await sharp(base).metadata()).icc!;
  return { bytes: cat(base, bin(s.payload)), width: 48, height: 32, icc, samePixels: false };
}
