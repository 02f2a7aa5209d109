// WebP originals are rebuilt from allow-listed RIFF chunks: the image data (VP8, VP8L,
// ALPH), VP8X written anew (EXIF and XMP flags cleared, ICC flag set only when a validated
// ICCP is kept, reserved bits zero), ANIM, and ANMF frames whose own sub-chunks pass the
// same allow-list. EXIF, XMP, unknown chunks and anything past the RIFF size are dropped.
import { ascii, concat, latin1, u32le } from "./bytes.ts";
import { validIcc } from "./icc.ts";

const [FLAG_ICC, FLAG_ALPHA, FLAG_ANIMATION] = [0x20, 0x10, 0x02];
const IMAGE = new Set(["VP8 ", "VP8L"]);
/** An ANMF payload starts with the frame's position, size, duration and flags. */
const FRAME_HEADER = 16;

interface Chunk {
  type: string;
  data: Uint8Array;
}

export function rebuildWebp(b: Uint8Array): Uint8Array | null {
  if (b.length < 12 || ascii(b, 0, 4) !== "RIFF" || ascii(b, 8, 4) !== "WEBP") return null;
  const riffEnd = 8 + u32le(b, 4);
  if (riffEnd > b.length) return null;
  const chunks = parseChunks(b.subarray(12, riffEnd));
  const first = chunks?.[0];
  if (!chunks || !first) return null;
  // Simple format: one image chunk is the whole picture.
  if (IMAGE.has(first.type)) return riff([first]);
  if (first.type !== "VP8X" || first.data.length !== 10) return null;
  const animated = (first.data[0]! & FLAG_ANIMATION) !== 0;
  const kept: Chunk[] = [];
  let icc = false;
  let image = false;
  for (const c of chunks.slice(1)) {
    if (c.type === "ICCP" && !icc && !kept.length) {
      icc = validIcc(c.data);
      if (icc) kept.push(c);
    } else if (animated && c.type === "ANIM" && c.data.length === 6 && !kept.some((k) => k.type === "ANIM")) kept.push(c);
    else if (animated && c.type === "ANMF") {
      const frame = rebuildFrame(c.data);
      if (!frame) return null;
      kept.push(frame);
    } else if (!animated && !image && (IMAGE.has(c.type) || c.type === "ALPH")) {
      kept.push(c);
      image = IMAGE.has(c.type);
    }
  }
  if (animated ? !kept.some((k) => k.type === "ANMF") : !image) return null;
  const vp8x = new Uint8Array(10);
  vp8x[0] = (first.data[0]! & (FLAG_ALPHA | FLAG_ANIMATION)) | (icc ? FLAG_ICC : 0);
  vp8x.set(first.data.subarray(4, 10), 4); // canvas width and height, 24 bits each
  return riff([{ type: "VP8X", data: vp8x }, ...kept]);
}

/** An animation frame: its header, then ALPH and VP8, or VP8L; its other sub-chunks are dropped. */
function rebuildFrame(d: Uint8Array): Chunk | null {
  if (d.length < FRAME_HEADER) return null;
  const subs = parseChunks(d.subarray(FRAME_HEADER));
  if (!subs) return null;
  const kept: Chunk[] = [];
  for (const c of subs) {
    if (IMAGE.has(c.type) || (c.type === "ALPH" && !kept.length)) kept.push(c);
    if (IMAGE.has(c.type)) return { type: "ANMF", data: concat([d.subarray(0, FRAME_HEADER), ...kept.map(serialize)]) };
  }
  return null;
}

/** The chunks of a RIFF body; null when one runs past its end. An odd-sized chunk is followed by a pad byte. */
function parseChunks(b: Uint8Array): Chunk[] | null {
  const out: Chunk[] = [];
  let at = 0;
  while (at + 8 <= b.length) {
    const len = u32le(b, at + 4);
    if (at + 8 + len > b.length) return null;
    out.push({ type: ascii(b, at, 4), data: b.subarray(at + 8, at + 8 + len) });
    at += 8 + len + (len & 1);
  }
  return out;
}

function serialize(c: Chunk): Uint8Array {
  const head = concat([latin1(c.type), le32(c.data.length)]);
  return concat([head, c.data, ...(c.data.length & 1 ? [new Uint8Array(1)] : [])]);
}

function riff(chunks: Chunk[]): Uint8Array {
  const body = concat(chunks.map(serialize));
  return concat([latin1("RIFF"), le32(4 + body.length), latin1("WEBP"), body]);
}

function le32(v: number): Uint8Array {
  return new Uint8Array([v & 0xff, (v >>> 8) & 0xff, (v >>> 16) & 0xff, (v >>> 24) & 0xff]);
}
