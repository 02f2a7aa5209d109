// ICC profiles are kept only when their structure accounts for every byte: a profile is a
// 128-byte header, a tag table and the tags' data, and a decoder reads nothing else. So a
// profile with anything in its gaps or past its tags (bytes appended inside it to smuggle
// a payload through) is dropped, and the image is then treated as sRGB.
import { ascii, u32 } from "./bytes.ts";

/**
 * The largest profile kept. Display and camera profiles are a few KB; print (CMYK) profiles
 * reach 1-2 MB (sharp's own CMYK profile is 940 KB), and a CMYK JPEG decodes wrongly without
 * its profile. The cap bounds the work and the memory of a hostile file, nothing else.
 */
export const ICC_MAX_BYTES = 4 * 1024 * 1024;

const HEADER = 128;
/** A tag's data starts with a 4-byte type signature and 4 reserved bytes. */
const MIN_TAG = 8;

/** True when the profile is well formed and every byte outside header, tag table and tag data is zero. */
export function validIcc(p: Uint8Array | undefined | null): p is Uint8Array {
  if (!p || p.length < HEADER + 4 || p.length > ICC_MAX_BYTES) return false;
  if (u32(p, 0) !== p.length || ascii(p, 36, 4) !== "acsp") return false;
  const count = u32(p, HEADER);
  const tableEnd = HEADER + 4 + 12 * count;
  if (tableEnd > p.length) return false;
  const spans: [number, number][] = [];
  for (let i = 0; i < count; i++) {
    const at = HEADER + 4 + 12 * i;
    const offset = u32(p, at + 4);
    const size = u32(p, at + 8);
    if (size < MIN_TAG || offset < tableEnd || offset + size > p.length) return false;
    spans.push([offset, offset + size]);
  }
  // Tags may share data or overlap; what lies between the merged spans must be padding.
  spans.sort((a, b) => a[0] - b[0]);
  let covered = tableEnd;
  for (const [start, end] of spans) {
    if (start > covered && !zero(p, covered, start)) return false;
    covered = Math.max(covered, end);
  }
  return zero(p, covered, p.length);
}

function zero(b: Uint8Array, from: number, to: number): boolean {
  for (let i = from; i < to; i++) if (b[i] !== 0) return false;
  return true;
}
