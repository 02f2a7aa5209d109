// GIF originals are rebuilt from their block structure: header, logical screen, colour
// tables, each image with its graphic control extension (timing, disposal, transparency)
// and its LZW data, a NETSCAPE2.0 loop extension written anew when the input had one, and
// the trailer. Comments, plain text, every other application extension (XMP lives in
// "XMP DataXMP") and anything after the trailer are dropped.
import { ascii, be, concat, latin1, u16le } from "./bytes.ts";

const TRAILER = 0x3b;
const IMAGE = 0x2c;
const EXTENSION = 0x21;
const [PLAIN_TEXT, GRAPHIC_CONTROL, APPLICATION] = [0x01, 0xf9, 0xff];
/** Application identifiers (with authentication code) that carry the loop count. */
const LOOP_APPS = new Set(["NETSCAPE2.0", "ANIMEXTS1.0"]);

const colourTableSize = (packed: number) => (packed & 0x80 ? 3 << ((packed & 7) + 1) : 0);

export function rebuildGif(b: Uint8Array): Uint8Array | null {
  const version = ascii(b, 0, 6);
  if (b.length < 13 || (version !== "GIF87a" && version !== "GIF89a")) return null;
  const screen = b.slice(6, 13);
  screen[6] = 0; // pixel aspect ratio: ignored by browsers, one byte less to carry anything
  let at = 13 + colourTableSize(screen[4]!);
  if (at > b.length) return null;
  const globalTable = b.subarray(13, at);
  const frames: Uint8Array[] = [];
  let gce: Uint8Array | null = null;
  let loop: number | null = null;
  let extended = false;
  for (;;) {
    const intro = b[at];
    if (intro === TRAILER) break; // anything after the trailer is dropped
    if (intro === IMAGE) {
      const image = imageBlock(b, at);
      if (!image) return null;
      if (gce) frames.push(gce);
      frames.push(...image.parts);
      extended ||= !!gce;
      gce = null;
      at = image.end;
    } else if (intro === EXTENSION) {
      const label = b[at + 1];
      const end = skipSubBlocks(b, at + 2);
      if (end < 0) return null;
      if (label === GRAPHIC_CONTROL) gce = graphicControl(b.subarray(at, end));
      else if (label === PLAIN_TEXT)
        gce = null; // its control extension goes with it
      else if (label === APPLICATION && b[at + 2] === 11 && LOOP_APPS.has(ascii(b, at + 3, 11))) loop = loopCount(b, at + 14) ?? loop;
      at = end;
    } else return null; // garbage between blocks, or no trailer
  }
  if (!frames.length) return null;
  extended ||= loop !== null;
  const netscape =
    loop === null ? [] : [be([1, EXTENSION], [1, APPLICATION], [1, 11]), latin1("NETSCAPE2.0"), be([1, 3], [1, 1], [1, loop & 0xff], [1, loop >> 8], [1, 0])];
  return concat([latin1(extended ? "GIF89a" : "GIF87a"), screen, globalTable, ...netscape, ...frames, new Uint8Array([TRAILER])]);
}

/** An image: descriptor (reserved bits cleared), local colour table, LZW code size, data sub-blocks. */
function imageBlock(b: Uint8Array, at: number): { parts: Uint8Array[]; end: number } | null {
  if (at + 10 > b.length) return null;
  const descriptor = b.slice(at, at + 10);
  descriptor[9] = descriptor[9]! & ~0x18;
  const tableEnd = at + 10 + colourTableSize(descriptor[9]!);
  const codeSize = b[tableEnd];
  if (codeSize === undefined || codeSize < 2 || codeSize > 8) return null;
  const end = skipSubBlocks(b, tableEnd + 1);
  if (end < 0) return null;
  return { parts: [descriptor, b.subarray(at + 10, end)], end };
}

/** The graphic control extension written anew: disposal, user input and transparency flags, delay, transparent index. */
function graphicControl(ext: Uint8Array): Uint8Array | null {
  if (ext.length !== 8 || ext[2] !== 4) return null;
  return be([1, EXTENSION], [1, GRAPHIC_CONTROL], [1, 4], [1, ext[3]! & 0x1f], [1, ext[4]!], [1, ext[5]!], [1, ext[6]!], [1, 0]);
}

/** The loop count from the sub-block `01 lo hi` of a NETSCAPE2.0 extension. */
function loopCount(b: Uint8Array, at: number): number | null {
  for (let size = b[at]; size; at += 1 + size, size = b[at]) {
    if (size === 3 && b[at + 1] === 1) return u16le(b, at + 2);
  }
  return null;
}

/** The offset after a run of data sub-blocks and its zero-length terminator, or -1. */
function skipSubBlocks(b: Uint8Array, at: number): number {
  for (;;) {
    const size = b[at];
    if (size === undefined) return -1;
    at += 1 + size;
    if (size === 0) return at;
  }
}
