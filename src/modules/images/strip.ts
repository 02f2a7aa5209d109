// Lossless metadata removal: the stored original keeps its pixels bit for bit (no
// re-encoding, no generation loss) but loses EXIF (with GPS), XMP, IPTC and comments.
// Each stripper walks the container's own structure and returns null when the file
// does not look as expected; the caller then re-encodes instead.

const u16 = (b: Uint8Array, at: number) => (b[at]! << 8) | b[at + 1]!;
const u32 = (b: Uint8Array, at: number) => ((b[at]! << 24) | (b[at + 1]! << 16) | (b[at + 2]! << 8) | b[at + 3]!) >>> 0;
const u32le = (b: Uint8Array, at: number) => (b[at]! | (b[at + 1]! << 8) | (b[at + 2]! << 16) | (b[at + 3]! << 24)) >>> 0;
const EOI = Buffer.from([0xff, 0xd9]);
const ascii = (b: Uint8Array, at: number, len: number) => String.fromCharCode(...b.subarray(at, at + len));

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/**
 * JPEG: keeps APP0 (JFIF), APP2 ICC_PROFILE (colours), APP14 (Adobe: needed to decode
 * CMYK) and every coding segment; drops APP1 (EXIF, XMP), APP13 (IPTC), the other APPn
 * (MPF and maker data), COM, and anything after the end of the primary image (phones
 * append secondary pictures there, each with its own EXIF).
 */
export function stripJpeg(b: Uint8Array): Uint8Array | null {
  if (b[0] !== 0xff || b[1] !== 0xd8) return null;
  const parts: Uint8Array[] = [b.subarray(0, 2)];
  let at = 2;
  while (at + 4 <= b.length) {
    if (b[at] !== 0xff) return null;
    const marker = b[at + 1]!;
    if (marker === 0xff) {
      at++; // fill byte
      continue;
    }
    if (marker === 0xda) {
      // Start of scan: from here on entropy-coded data, where 0xFF is always followed by
      // 0x00 or a restart marker; so the first FF D9 is the end of the primary image.
      const eoi = Buffer.from(b.buffer, b.byteOffset, b.byteLength).indexOf(EOI, at + 2);
      if (eoi < 0) return null;
      parts.push(b.subarray(at, eoi + 2));
      return concat(parts);
    }
    const len = u16(b, at + 2);
    if (len < 2 || at + 2 + len > b.length) return null;
    const seg = b.subarray(at, at + 2 + len);
    const keep =
      !(marker >= 0xe0 && marker <= 0xef) || // not an APPn: a coding segment
      marker === 0xe0 ||
      marker === 0xee ||
      (marker === 0xe2 && ascii(b, at + 4, 12) === "ICC_PROFILE\0");
    if (keep && marker !== 0xfe) parts.push(seg);
    at += 2 + len;
  }
  return null;
}

/** PNG: drops eXIf and the text chunks (tEXt, zTXt, iTXt: XMP lives there) and tIME. */
export function stripPng(b: Uint8Array): Uint8Array | null {
  const parts: Uint8Array[] = [b.subarray(0, 8)];
  let at = 8;
  const drop = new Set(["eXIf", "tEXt", "zTXt", "iTXt", "tIME"]);
  while (at + 12 <= b.length) {
    const len = u32(b, at);
    const type = ascii(b, at + 4, 4);
    const end = at + 12 + len;
    if (end > b.length) return null;
    if (!drop.has(type)) parts.push(b.subarray(at, end));
    at = end;
    if (type === "IEND") return concat(parts);
  }
  return null;
}

/** WebP: drops the EXIF and XMP chunks, clears their flags in VP8X and fixes the RIFF size. */
export function stripWebp(b: Uint8Array): Uint8Array | null {
  if (b.length < 12 || ascii(b, 0, 4) !== "RIFF" || ascii(b, 8, 4) !== "WEBP") return null;
  const riffEnd = Math.min(b.length, 8 + u32le(b, 4));
  const parts: Uint8Array[] = [];
  let at = 12;
  while (at + 8 <= riffEnd) {
    const type = ascii(b, at, 4);
    const len = u32le(b, at + 4);
    const end = at + 8 + len + (len & 1);
    if (at + 8 + len > riffEnd) return null;
    if (type === "VP8X") {
      const chunk = b.slice(at, Math.min(end, riffEnd));
      chunk[8] = chunk[8]! & ~0x0c; // EXIF (0x08) and XMP (0x04) flags
      parts.push(chunk);
    } else if (type !== "EXIF" && type !== "XMP ") parts.push(b.subarray(at, Math.min(end, riffEnd)));
    at = end;
  }
  const body = concat(parts);
  const out = new Uint8Array(12 + body.length);
  out.set(b.subarray(0, 12));
  new DataView(out.buffer).setUint32(4, 4 + body.length, true);
  out.set(body, 12);
  return out;
}

export const losslessStrippers: Partial<Record<string, (b: Uint8Array) => Uint8Array | null>> = {
  jpeg: stripJpeg,
  png: stripPng,
  webp: stripWebp,
};
