// The first presentation time of an MPEG-TS segment (ISO/IEC 13818-1), for the
// X-TIMESTAMP-MAP of a video's captions (captions.ts): a WebVTT file's times are the
// video's, from 0, while its segments' clock starts where the muxer put it (ffmpeg: 1.4 s
// and the encoder's delay). Players (hls.js, Safari) line the cues up with the segments
// by this map; without it they take the cues as being at MPEG-TS time 0, seconds early.

const PACKET = 188;
const SYNC = 0x47;

/** The 33-bit PTS at `i` (its five bytes), in 90 kHz ticks. */
function pts(b: Uint8Array, i: number): number {
  return ((b[i]! >> 1) & 0x07) * 2 ** 30 + (b[i + 1]! << 22) + ((b[i + 2]! >> 1) << 15) + (b[i + 3]! << 7) + (b[i + 4]! >> 1);
}

/**
 * The smallest PTS of the PES packets that start in the segment's head (the first video and
 * the first audio ones are there, whichever starts earlier), or null when it holds none.
 */
export function firstPts(head: Uint8Array): number | null {
  let least: number | null = null;
  for (let at = 0; at + PACKET <= head.length; at += PACKET) {
    if (head[at] !== SYNC) return least;
    const unitStart = (head[at + 1]! & 0x40) !== 0;
    const control = (head[at + 3]! >> 4) & 0x03;
    if (!unitStart || !(control & 0x01)) continue;
    let p = at + 4 + (control & 0x02 ? 1 + head[at + 4]! : 0);
    // A PES header (00 00 01, stream id), not a table section.
    if (p + 14 > at + PACKET || head[p] !== 0 || head[p + 1] !== 0 || head[p + 2] !== 1) continue;
    const flags = head[p + 7]! >> 6;
    if (!(flags & 0x02)) continue;
    p += 9;
    const t = pts(head, p);
    least = least === null ? t : Math.min(least, t);
  }
  return least;
}
