// The image formats shelf accepts, recognized by their own bytes (magic numbers): the
// declared Content-Type and the file name's extension are never trusted.
export const FORMATS = {
  jpeg: { name: "JPEG", ext: "jpg", mime: "image/jpeg", raster: true },
  png: { name: "PNG", ext: "png", mime: "image/png", raster: true },
  gif: { name: "GIF", ext: "gif", mime: "image/gif", raster: true },
  webp: { name: "WebP", ext: "webp", mime: "image/webp", raster: true },
  avif: { name: "AVIF", ext: "avif", mime: "image/avif", raster: true },
  svg: { name: "SVG", ext: "svg", mime: "image/svg+xml", raster: false },
} as const;
export type ImageFormat = keyof typeof FORMATS;
/** Every format, in FORMATS order; a tuple, as a column's enum takes one. */
export const IMAGE_FORMATS = Object.keys(FORMATS) as [ImageFormat, ...ImageFormat[]];
/** "JPEG, PNG, ... or SVG": how messages and documentation name what is accepted. */
export const FORMAT_NAMES = IMAGE_FORMATS.map((f) => FORMATS[f].name)
  .join(", ")
  .replace(/, ([^,]+)$/, " or $1");

const ascii = (b: Uint8Array, at: number, len: number) => String.fromCharCode(...b.subarray(at, at + len));
const startsWith = (b: Uint8Array, sig: number[], at = 0) => sig.every((v, i) => b[at + i] === v);

/** AVIF is an ISO-BMFF file whose `ftyp` box names avif (still) or avis (sequence) as a brand. */
function isAvif(b: Uint8Array): boolean {
  if (b.length < 16 || ascii(b, 4, 4) !== "ftyp") return false;
  const size = ((b[0]! << 24) | (b[1]! << 16) | (b[2]! << 8) | b[3]!) >>> 0;
  if (size < 16 || size > Math.min(b.length, 4096)) return false;
  const brands = [ascii(b, 8, 4)];
  for (let at = 16; at + 4 <= size; at += 4) brands.push(ascii(b, at, 4));
  return brands.includes("avif") || brands.includes("avis");
}

/**
 * SVG is text: after an optional BOM, XML declaration, comments, processing instructions
 * and a DOCTYPE, the root element must be <svg>. Only the first 4 KB are looked at.
 */
function isSvg(b: Uint8Array): boolean {
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(b.subarray(0, 4096));
  } catch {
    // A multi-byte character cut at 4096 is fine; anything else is not UTF-8 text.
    if (b.length <= 4096) return false;
    text = new TextDecoder("utf-8").decode(b.subarray(0, 4096));
  }
  const prolog = /^\uFEFF?\s*(<\?xml[^>]*\?>\s*)?((<!--[\s\S]*?-->|<\?[\s\S]*?\?>|<!DOCTYPE[^>[]*(\[[\s\S]*?\])?\s*>)\s*)*<svg[\s>]/i;
  return prolog.test(text);
}

/** The format the bytes are in, or null when they are none of the accepted formats. */
export function detectFormat(b: Uint8Array): ImageFormat | null {
  if (startsWith(b, [0xff, 0xd8, 0xff])) return "jpeg";
  if (startsWith(b, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return "png";
  if (b.length >= 6 && (ascii(b, 0, 6) === "GIF87a" || ascii(b, 0, 6) === "GIF89a")) return "gif";
  if (b.length >= 12 && ascii(b, 0, 4) === "RIFF" && ascii(b, 8, 4) === "WEBP") return "webp";
  if (isAvif(b)) return "avif";
  if (isSvg(b)) return "svg";
  return null;
}
