// JPEG originals are rebuilt, not re-encoded (re-encoding loses quality every time, and this
// is the common upload): the coding segments are copied, each checked to hold exactly its
// tables and nothing more; JFIF and Adobe are written anew from their parsed fields; the ICC
// profile is reassembled, validated and re-chunked. Every other segment (EXIF, XMP, IPTC,
// maker data, comments, thumbnails) and everything after the primary image's EOI is dropped.
// Returns null when the file is not laid out as expected: the caller then re-encodes.
import { ascii, be, concat, latin1, u16 } from "./bytes.ts";
import { validIcc } from "./icc.ts";

const SOI = new Uint8Array([0xff, 0xd8]);
const EOI = new Uint8Array([0xff, 0xd9]);
/** Baseline, extended, progressive, lossless, and their arithmetic-coded forms (no hierarchical). */
const SOF = new Set([0xc0, 0xc1, 0xc2, 0xc3, 0xc9, 0xca, 0xcb]);
const [DHT, DAC, SOS, DQT, DNL, DRI, APP0, APP2, APP14, COM] = [0xc4, 0xcc, 0xda, 0xdb, 0xdc, 0xdd, 0xe0, 0xe2, 0xee, 0xfe];
const ICC_SIG = "ICC_PROFILE\0";
/** An APP2 holds at most 65535 - 2 (length) - 14 (signature, sequence, count) profile bytes. */
const ICC_CHUNK = 65519;
/** Real files have a few dozen segments; the cap bounds the work a file of tiny segments causes. */
const MAX_SEGMENTS = 2048;

const isApp = (m: number) => m >= 0xe0 && m <= 0xef;
/** JPGn extensions and COM: never needed to decode, always dropped. */
const isIgnorable = (m: number) => isApp(m) || m === COM || (m >= 0xf0 && m <= 0xfd);

/**
 * True when everything from SOI to the first scan is a chain of well-formed segments.
 * Checked before sharp reads the header: libjpeg, finding junk where a marker belongs,
 * reads on through the whole file looking for one (200 ms of CPU for 50 MB of zeros).
 */
export function jpegHeaderIsSound(b: Uint8Array): boolean {
  if (b[0] !== 0xff || b[1] !== 0xd8) return false;
  let at = 2;
  for (let n = 0; n <= MAX_SEGMENTS; n++) {
    if (b[at] !== 0xff) return false;
    while (b[at] === 0xff) at++;
    const marker = b[at++];
    if (marker === undefined || at + 2 > b.length) return false;
    const end = at + u16(b, at);
    if (end < at + 2 || end > b.length) return false;
    if (marker === SOS) return true;
    at = end;
  }
  return false;
}

export function rebuildJpeg(b: Uint8Array): Uint8Array | null {
  if (b[0] !== 0xff || b[1] !== 0xd8) return null;
  const buf = Buffer.from(b.buffer, b.byteOffset, b.byteLength);
  const body: Uint8Array[] = [];
  const icc = new IccChunks();
  let jfif: Uint8Array | null = null;
  let adobe: Uint8Array | null = null;
  let frame = false;
  let scans = 0;
  let at = 2;
  for (;;) {
    if (b[at] !== 0xff || body.length > MAX_SEGMENTS) return null;
    while (b[at] === 0xff) at++; // fill bytes before a marker
    const marker = b[at++];
    if (marker === undefined) return null;
    if (marker === 0xd9) {
      if (!scans) return null;
      body.push(EOI);
      break; // anything after the primary image's EOI is dropped
    }
    if (at + 2 > b.length) return null;
    const end = at + u16(b, at);
    if (end < at + 2 || end > b.length) return null;
    const seg = b.subarray(at - 2, end);
    const data = b.subarray(at + 2, end);
    at = end;
    if (SOF.has(marker)) {
      if (frame || !validSof(data)) return null;
      frame = true;
      body.push(seg);
    } else if (marker === SOS) {
      if (!frame || !validSos(data)) return null;
      const ecsEnd = entropyEnd(buf, at);
      if (ecsEnd < 0) return null;
      body.push(seg, b.subarray(at, ecsEnd));
      scans++;
      at = ecsEnd;
    } else if (marker === DQT || marker === DHT || marker === DRI || marker === DAC || marker === DNL) {
      if (!validTables(marker, data, scans > 0)) return null;
      body.push(seg);
    } else if (isIgnorable(marker)) {
      // Only the header's APP0, APP2 and APP14 (before the first scan) mean anything to a
      // decoder; they are rebuilt.
      if (scans) continue;
      if (marker === APP0 && !jfif && ascii(data, 0, 5) === "JFIF\0") jfif = canonicalJfif(data);
      else if (marker === APP14 && !adobe && ascii(data, 0, 5) === "Adobe") {
        adobe = canonicalAdobe(data);
        if (!adobe) return null; // a transform we cannot carry over: decoding would change
      } else if (marker === APP2 && ascii(data, 0, 12) === ICC_SIG) icc.add(data);
    } else return null; // SOI again, RSTn or TEM outside a scan, hierarchical or reserved markers
  }
  const profile = icc.profile();
  return concat([SOI, ...(jfif ? [jfif] : []), ...(profile ? iccSegments(profile) : []), ...(adobe ? [adobe] : []), ...body]);
}

/**
 * The end of a scan's entropy-coded data: the first 0xFF that starts a marker. Inside the
 * data a 0xFF byte is always followed by 0x00 (stuffing) or a restart marker D0-D7.
 */
function entropyEnd(buf: Buffer, from: number): number {
  let p = from;
  for (;;) {
    p = buf.indexOf(0xff, p);
    if (p < 0) return -1;
    let q = p + 1;
    while (buf[q] === 0xff) q++;
    const next = buf[q];
    if (next === undefined) return -1;
    if (next !== 0x00 && (next < 0xd0 || next > 0xd7)) return p;
    p = q + 1;
  }
}

function validSof(d: Uint8Array): boolean {
  const n = d[5] ?? 0;
  return n >= 1 && n <= 4 && d.length === 6 + 3 * n;
}

function validSos(d: Uint8Array): boolean {
  const n = d[0] ?? 0;
  return n >= 1 && n <= 4 && d.length === 1 + 2 * n + 3;
}

/** Each table segment must hold whole tables and nothing after them. */
function validTables(marker: number, d: Uint8Array, afterScan: boolean): boolean {
  if (marker === DRI) return d.length === 2;
  if (marker === DNL) return afterScan && d.length === 2;
  if (marker === DAC) return d.length > 0 && d.length <= 16 && d.length % 2 === 0 && d.every((v, i) => i % 2 === 1 || (v >> 4 <= 1 && (v & 15) <= 3));
  let i = 0;
  while (i < d.length) {
    const cls = d[i]! >> 4;
    const id = d[i]! & 15;
    if (id > 3 || cls > 1) return false;
    if (marker === DQT) i += 1 + 64 * (cls + 1);
    else {
      if (i + 17 > d.length) return false;
      let symbols = 0;
      for (let k = 1; k <= 16; k++) symbols += d[i + k]!;
      if (symbols > 256) return false;
      i += 17 + symbols;
    }
  }
  return d.length > 0 && i === d.length;
}

/** JFIF: version and pixel density kept; the thumbnail and anything else are not. */
function canonicalJfif(d: Uint8Array): Uint8Array | null {
  if (d.length < 14) return null;
  const minor = d[5] === 1 && d[6]! <= 2 ? d[6]! : 1; // 1.00-1.02 are the versions there are
  const units = d[7]! <= 2 ? d[7]! : 0;
  const x = u16(d, 8) || 1;
  const y = u16(d, 10) || 1;
  return concat([be([2, 0xffe0], [2, 16]), latin1("JFIF\0"), be([1, 1], [1, minor], [1, units], [2, x], [2, y], [1, 0], [1, 0])]);
}

/** Adobe: only the colour transform (none, YCbCr, YCCK) matters to a decoder. */
function canonicalAdobe(d: Uint8Array): Uint8Array | null {
  const transform = d[11];
  if (d.length < 12 || transform === undefined || transform > 2) return null;
  return concat([be([2, 0xffee], [2, 14]), latin1("Adobe"), be([2, 100], [2, 0], [2, 0], [1, transform])]);
}

/** APP2 ICC_PROFILE chunks: numbered 1..count, all of them present, none twice. */
class IccChunks {
  private chunks = new Map<number, Uint8Array>();
  private count = 0;
  private bad = false;

  add(d: Uint8Array) {
    const seq = d[12] ?? 0;
    const count = d[13] ?? 0;
    if (seq < 1 || seq > count || (this.count && count !== this.count) || this.chunks.has(seq)) this.bad = true;
    this.count = count;
    this.chunks.set(seq, d.subarray(14));
  }

  /** The reassembled profile when it is complete and valid; else none (the image is then sRGB). */
  profile(): Uint8Array | null {
    if (this.bad || !this.count || this.chunks.size !== this.count) return null;
    const p = concat(Array.from({ length: this.count }, (_, i) => this.chunks.get(i + 1)!));
    return validIcc(p) ? p : null;
  }
}

function iccSegments(p: Uint8Array): Uint8Array[] {
  const count = Math.ceil(p.length / ICC_CHUNK);
  return Array.from({ length: count }, (_, i) => {
    const part = p.subarray(i * ICC_CHUNK, (i + 1) * ICC_CHUNK);
    return concat([be([2, 0xffe2], [2, 2 + 14 + part.length]), latin1(ICC_SIG), be([1, i + 1], [1, count]), part]);
  });
}
