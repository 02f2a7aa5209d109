// The containers a video upload may be, told by its first bytes (never by its name or the
// client's Content-Type): enough is read to decide before the rest is accepted.

const CONTAINERS = ["mp4", "mov", "mkv", "webm", "avi"] as const;
export type Container = (typeof CONTAINERS)[number];
export const CONTAINER_NAMES = "MP4, MOV, MKV, WebM or AVI";
export const CONTAINER_MIME: Record<Container, string> = {
  mp4: "video/mp4",
  mov: "video/quicktime",
  mkv: "video/x-matroska",
  webm: "video/webm",
  avi: "video/x-msvideo",
};

/** How many leading bytes sniffContainer wants (fewer only when the file is shorter). */
export const SNIFF_BYTES = 64;

const ascii = (b: Uint8Array, at: number, len: number) => String.fromCharCode(...b.subarray(at, at + len));

/** QuickTime brands; every other ISO-BMFF brand (isom, mp41, mp42, avc1, M4V, ...) is MP4. */
const QUICKTIME_BRANDS = new Set(["qt  "]);
/** Top-level atoms an old QuickTime file may start with instead of ftyp. */
const QUICKTIME_ATOMS = new Set(["moov", "mdat", "wide", "free", "skip", "pnot"]);

export function sniffContainer(b: Uint8Array): Container | null {
  if (b.length >= 12 && ascii(b, 4, 4) === "ftyp") return QUICKTIME_BRANDS.has(ascii(b, 8, 4)) ? "mov" : "mp4";
  if (b.length >= 8 && QUICKTIME_ATOMS.has(ascii(b, 4, 4))) return "mov";
  if (b.length >= 12 && ascii(b, 0, 4) === "RIFF" && ascii(b, 8, 4) === "AVI ") return "avi";
  // EBML: the DocType element (0x42 0x82) names Matroska or WebM within the header.
  if (b.length >= 4 && b[0] === 0x1a && b[1] === 0x45 && b[2] === 0xdf && b[3] === 0xa3) {
    const head = ascii(b, 4, b.length - 4);
    if (head.includes("webm")) return "webm";
    if (head.includes("matroska")) return "mkv";
  }
  return null;
}
