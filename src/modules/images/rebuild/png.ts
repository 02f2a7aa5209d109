// PNG originals are rebuilt from an allow-list of chunks: the image data, and the chunks
// that change how its pixels look (palette, transparency, gamma, chromaticities, rendering
// intent, significant bits, density, background, histogram) each checked for its exact
// size; iCCP only when its profile validates, written anew. Text (XMP lives there), eXIf,
// tIME, private and unknown chunks, and everything after IEND are dropped. CRCs are checked.
//
// APNG: acTL, fcTL and fdAT are dropped, so an APNG becomes its default image (a still).
// The decoder that checks the rebuilt file (libvips) reads only the default image, so the
// frames' data would be stored without ever having been decoded by us; and the WebP
// rendition is a still either way, so both variants now show the same picture.
import { crc32, deflateSync, inflateSync } from "node:zlib";
import { ascii, be, concat, latin1, u32 } from "./bytes.ts";
import { ICC_MAX_BYTES, validIcc } from "./icc.ts";

const SIGNATURE = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
/** Ancillary chunks with a size fixed by the spec (or by the colour type, see sizeFor). */
const FIXED: Record<string, number> = { gAMA: 4, cHRM: 32, sRGB: 1, pHYs: 9 };
/** Chunks that must come before PLTE (colour space) and those that need it first. */
const BEFORE_PLTE = new Set(["gAMA", "cHRM", "sRGB", "sBIT", "iCCP"]);

export function rebuildPng(b: Uint8Array): Uint8Array | null {
  if (b.length < 8 || SIGNATURE.some((v, i) => b[i] !== v)) return null;
  const out: Uint8Array[] = [SIGNATURE];
  const seen = new Set<string>();
  let colourType = -1;
  let paletteEntries = 0;
  let idat: "before" | "in" | "after" = "before";
  let at = 8;
  while (at + 12 <= b.length) {
    const len = u32(b, at);
    const type = ascii(b, at + 4, 4);
    const end = at + 12 + len;
    if (len > 0x7fffffff || end > b.length) return null;
    if (crc32(b.subarray(at + 4, end - 4)) >>> 0 !== u32(b, end - 4)) return null;
    const chunk = b.subarray(at, end);
    const data = b.subarray(at + 8, end - 4);
    at = end;
    if (type === "IEND") {
      if (idat === "before") return null;
      out.push(chunk);
      return concat(out); // nothing after IEND is kept
    }
    if (seen.size === 0 && type !== "IHDR") return null;
    if (type === "IHDR") {
      if (seen.has(type) || !validIhdr(data)) return null;
      colourType = data[9]!;
    } else if (type === "IDAT") {
      if (idat === "after") return null; // IDATs must be consecutive
      idat = "in";
      out.push(chunk);
      continue;
    }
    if (idat === "in") idat = "after";
    if (type === "IHDR") {
      out.push(chunk);
    } else if (type === "PLTE") {
      if (seen.has(type) || colourType === 0 || colourType === 4 || idat !== "before") return null;
      if (len % 3 !== 0 || len === 0 || len > 768) return null;
      paletteEntries = len / 3;
      // For truecolour images the palette is only a quantizing hint: not needed to decode.
      if (colourType === 3) out.push(chunk);
    } else if (idat === "before" && !seen.has(type) && !(BEFORE_PLTE.has(type) && seen.has("PLTE"))) {
      const kept = ancillary(type, chunk, data, colourType, paletteEntries);
      if (kept) out.push(kept);
    }
    seen.add(type);
  }
  return null; // no IEND
}

/** The chunk to keep for an allowed ancillary chunk of the right size, or null to drop it. */
function ancillary(type: string, chunk: Uint8Array, data: Uint8Array, colourType: number, paletteEntries: number): Uint8Array | null {
  if (type === "iCCP") return iccp(data);
  const size = FIXED[type] ?? sizeFor(type, colourType, paletteEntries);
  if (size === undefined) return null; // not on the allow-list
  if (type === "tRNS" && colourType === 3) return data.length >= 1 && data.length <= paletteEntries ? chunk : null;
  return data.length === size ? chunk : null;
}

/** Sizes that depend on the colour type (0 grey, 2 RGB, 3 palette, 4 grey+alpha, 6 RGBA). */
function sizeFor(type: string, colourType: number, paletteEntries: number): number | undefined {
  const palette = colourType === 3 && paletteEntries > 0;
  switch (type) {
    case "sBIT":
      return [1, 0, 3, 3, 2, 0, 4][colourType];
    case "bKGD":
      return colourType === 3 ? (palette ? 1 : undefined) : [2, 0, 6, 0, 2, 0, 6][colourType];
    case "tRNS":
      return colourType === 0 ? 2 : colourType === 2 ? 6 : palette ? paletteEntries : undefined;
    case "hIST":
      return palette ? 2 * paletteEntries : undefined;
  }
  return undefined;
}

function validIhdr(d: Uint8Array): boolean {
  if (d.length !== 13 || u32(d, 0) === 0 || u32(d, 4) === 0) return false;
  const depths: Record<number, number[]> = { 0: [1, 2, 4, 8, 16], 2: [8, 16], 3: [1, 2, 4, 8], 4: [8, 16], 6: [8, 16] };
  return !!depths[d[9]!]?.includes(d[8]!) && d[10] === 0 && d[11] === 0 && d[12]! <= 1;
}

/** iCCP: the profile inflated, validated, and written anew under a fixed name. */
function iccp(d: Uint8Array): Uint8Array | null {
  const nul = d.indexOf(0);
  if (nul < 1 || nul > 79 || d[nul + 1] !== 0) return null;
  let profile: Uint8Array;
  try {
    profile = inflateSync(d.subarray(nul + 2), { maxOutputLength: ICC_MAX_BYTES });
  } catch {
    return null; // corrupt or over the cap: dropped, the image is then sRGB
  }
  return validIcc(profile) ? pngChunk("iCCP", concat([latin1("ICC Profile\0\0"), deflateSync(profile)])) : null;
}

function pngChunk(type: string, data: Uint8Array): Uint8Array {
  const typeAndData = concat([latin1(type), data]);
  return concat([be([4, data.length]), typeAndData, be([4, crc32(typeAndData) >>> 0])]);
}
