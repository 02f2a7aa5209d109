// Byte helpers shared by the rebuilders. Reads past the end give NaN or undefined, so each
// parser checks its bounds before it reads.

export const u16 = (b: Uint8Array, at: number) => (b[at]! << 8) | b[at + 1]!;
export const u16le = (b: Uint8Array, at: number) => b[at]! | (b[at + 1]! << 8);
export const u32 = (b: Uint8Array, at: number) => ((b[at]! << 24) | (b[at + 1]! << 16) | (b[at + 2]! << 8) | b[at + 3]!) >>> 0;
export const u32le = (b: Uint8Array, at: number) => (b[at]! | (b[at + 1]! << 8) | (b[at + 2]! << 16) | (b[at + 3]! << 24)) >>> 0;
export const ascii = (b: Uint8Array, at: number, len: number) => String.fromCharCode(...b.subarray(at, at + len));
export const latin1 = (s: string) => Uint8Array.from(s, (c) => c.charCodeAt(0));

export function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/** Big-endian fields of the given byte widths, e.g. be([2, 0x1234], [1, 7]). */
export function be(...fields: [width: 1 | 2 | 4, value: number][]): Uint8Array {
  const out = new Uint8Array(fields.reduce((n, [w]) => n + w, 0));
  let at = 0;
  for (const [w, v] of fields) {
    for (let i = w - 1; i >= 0; i--) out[at++] = (v >>> (8 * i)) & 0xff;
  }
  return out;
}
