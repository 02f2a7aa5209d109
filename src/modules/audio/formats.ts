// The audio formats an upload may be, told by the file's first bytes, never by
// its name or the client's Content-Type; the MIME type and URL extension each one is
// served with; the default thumbnail of each.

export const AUDIO_FORMATS = ["mp3", "m4a", "wav", "flac", "ogg"] as const;
export type AudioFormat = (typeof AUDIO_FORMATS)[number];
export const FORMAT_NAMES = "MP3, M4A, WAV, FLAC or Ogg";

export const MIME: Record<AudioFormat, string> = {
  mp3: "audio/mpeg",
  m4a: "audio/mp4",
  wav: "audio/wav",
  flac: "audio/flac",
  ogg: "audio/ogg",
};

/** How many leading bytes sniffAudio wants (fewer only when the file is shorter). */
export const SNIFF_BYTES = 12;

const ascii = (b: Uint8Array, at: number, len: number) => String.fromCharCode(...b.subarray(at, at + len));

/**
 * An MPEG audio Layer III frame header: 11 sync bits, a version that exists (1, 2 or 2.5),
 * layer III, and a bitrate and sample rate index that are not the reserved ones. So
 * 0xFFFB/0xFFFA (MPEG-1), 0xFFF3/0xFFF2 (MPEG-2) and 0xFFE3/0xFFE2 (MPEG-2.5) with or without
 * CRC; an ADTS AAC stream (0xFFF1) or a Layer I/II file is not an MP3.
 */
function mp3FrameSync(b: Uint8Array): boolean {
  if (b.length < 3 || b[0] !== 0xff || (b[1]! & 0xe0) !== 0xe0) return false;
  const version = (b[1]! >> 3) & 0x03;
  const layer = (b[1]! >> 1) & 0x03;
  const bitrate = b[2]! >> 4;
  const rate = (b[2]! >> 2) & 0x03;
  return version !== 0b01 && layer === 0b01 && bitrate !== 0x0f && rate !== 0x03;
}

export function sniffAudio(b: Uint8Array): AudioFormat | null {
  if (b.length >= 3 && ascii(b, 0, 3) === "ID3") return "mp3";
  if (mp3FrameSync(b)) return "mp3";
  // ISO-BMFF: the container itself is read by the metadata parser (a video in it is refused there).
  if (b.length >= 12 && ascii(b, 4, 4) === "ftyp") return "m4a";
  if (b.length >= 12 && ascii(b, 0, 4) === "RIFF" && ascii(b, 8, 4) === "WAVE") return "wav";
  if (b.length >= 4 && ascii(b, 0, 4) === "fLaC") return "flac";
  if (b.length >= 4 && ascii(b, 0, 4) === "OggS") return "ogg";
  return null;
}

/**
 * The default thumbnail of a format without an embedded cover: a fixed picture written
 * here (nothing of the upload goes into it), so it needs no sanitizing.
 */
export function defaultThumbnail(format: AudioFormat): string {
  const label = format.toUpperCase();
  return `<svg xmlns="http://www.w3.org/2000/svg" width="512" height="512" viewBox="0 0 512 512"><rect width="512" height="512" rx="48" fill="#2b2f3a"/><path d="M300 120v196a56 56 0 1 1-32-50V160l-96 24v172a56 56 0 1 1-32-50V160z" fill="#e8eaf0"/><text x="256" y="470" font-family="sans-serif" font-size="56" font-weight="bold" text-anchor="middle" fill="#9aa3b5">${label}</text></svg>`;
}
