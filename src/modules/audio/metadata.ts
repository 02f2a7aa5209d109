// What an audio file says about itself (duration, bitrate, sample rate, channels, its tags
// and an embedded cover), read by music-metadata from the upload's bytes as they go to
// storage: a tap on the stream (src/http/streamed-upload.ts), never a buffered file.
//
// Hostile files are bounded here. The parser gets the bytes through a small queue, so a
// slow parse slows the upload rather than growing memory; once it has what it needs the
// rest is not given to it. When the upload ends its stream ends, so a parse waiting for
// bytes that will never come fails at once; one that still has not settled PARSE_GRACE_MS
// later is given up (the file counts as unreadable). An ID3v2 tag claiming more than
// ID3_MAX_BYTES is refused from its first ten bytes: the parser would hold it in memory.
// A duration over the plan's, once the header has told it, stops the upload there.
import type { IAudioMetadata, IMetadataEvent } from "music-metadata";
import { AppError } from "../../core/errors.ts";
import type { ByteTap } from "../../core/streamed-upload.ts";
import { stripUnsafeChars } from "../../core/text.ts";
import type { AudioFormat } from "./formats.ts";

const QUEUE_BYTES = 1024 * 1024;
const PARSE_GRACE_MS = 5_000;
export const ID3_MAX_BYTES = 16 * 1024 * 1024;
/** A duration no audio file has (a year): past it the header is lying, and the duration is unknown. */
const MAX_AUDIO_SECONDS = 365 * 24 * 3600;

export interface EmbeddedTags {
  title?: string;
  artist?: string;
  album?: string;
  albumArtist?: string;
  genre?: string;
  year?: number;
  track?: number;
}

interface AudioInfo {
  durationSeconds: number | null;
  /** kbps. */
  bitrate: number | null;
  sampleRate: number | null;
  channels: number | null;
  codec: string | null;
  hasVideo: boolean;
  tags: EmbeddedTags;
  /** The embedded cover as the file holds it. */
  cover: { data: Uint8Array; format: string } | null;
}

/** The size an ID3v2 header (the first ten bytes) gives its tag, header included; null when there is none. */
export function id3TagBytes(b: Uint8Array): number | null {
  if (b.length < 10 || b[0] !== 0x49 || b[1] !== 0x44 || b[2] !== 0x33) return null;
  // Four 7-bit bytes ("syncsafe"); a footer adds ten more.
  const size = ((b[6]! & 0x7f) << 21) | ((b[7]! & 0x7f) << 14) | ((b[8]! & 0x7f) << 7) | (b[9]! & 0x7f);
  return size + 10 + (b[5]! & 0x10 ? 10 : 0);
}

/** The largest value of the integer columns a file's numbers go to (bitrate, sample rate, channels). */
const INT_MAX = 2_147_483_647;
/** A number the file says, within what its column holds; null when the file says none, or nonsense (a crafted header). */
const finite = (n: number | undefined, min = 0, max = INT_MAX) => (n !== undefined && Number.isFinite(n) && n >= min && n <= max ? n : null);
/**
 * A tag as the API may show it: without the control and bidi control characters a name may
 * not hold (text.ts), since a tag is shown as a name is (an ESC sequence would reach a
 * terminal, U+202E would reorder a listing); at most 255 characters, cut between code
 * points so no half of a surrogate pair is left (Postgres refuses one in jsonb).
 */
const text = (s: string | undefined) => {
  const clean = s === undefined ? "" : stripUnsafeChars(s).trim();
  return clean ? Array.from(clean).slice(0, 255).join("") : undefined;
};

function toInfo(m: IAudioMetadata, selectCover: typeof import("music-metadata").selectCover): AudioInfo | null {
  const f = m.format;
  // Neither a codec nor a sample rate: the parser found a container but no audio it understood.
  if (!f.container || (f.codec === undefined && f.sampleRate === undefined)) return null;
  const c = m.common;
  const tags: EmbeddedTags = {
    title: text(c.title),
    artist: text(c.artist),
    album: text(c.album),
    albumArtist: text(c.albumartist),
    genre: text(c.genre?.[0]),
    year: finite(c.year, 1) ?? undefined,
    track: finite(c.track.no ?? undefined, 1) ?? undefined,
  };
  const cover = selectCover(c.picture);
  const bitrate = finite(f.bitrate, 0, INT_MAX * 1000);
  return {
    durationSeconds: finite(f.duration, 0, MAX_AUDIO_SECONDS),
    bitrate: bitrate === null ? null : Math.round(bitrate / 1000),
    sampleRate: finite(f.sampleRate, 1),
    channels: finite(f.numberOfChannels, 1),
    codec: text(f.codec) ?? null,
    hasVideo: f.hasVideo === true,
    tags: Object.fromEntries(Object.entries(tags).filter(([, v]) => v !== undefined)) as EmbeddedTags,
    cover: cover && cover.data.length > 0 ? { data: cover.data, format: cover.format } : null,
  };
}

export interface MetadataTap extends ByteTap {
  /** The file's metadata once the tap is closed; null when the parser could not read it. */
  result(): Promise<AudioInfo | null>;
}

/** 413 FILE_TOO_LARGE for a file playing longer than the plan allows (meta in seconds). */
export const tooLong = (durationSeconds: number, limit: number) =>
  new AppError("FILE_TOO_LARGE", `the audio plays ${Math.round(durationSeconds)} s; the plan allows ${limit} s`, { limit, durationSeconds });

export function metadataTap(format: AudioFormat, maxSeconds: number): MetadataTap {
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  let wake: (() => void) | null = null;
  let settled = false;
  let refusal: AppError | undefined;
  let parsing: Promise<AudioInfo | null> | undefined;
  const release = () => {
    wake?.();
    wake = null;
  };
  const stream = new ReadableStream<Uint8Array>(
    {
      start(c) {
        controller = c;
      },
      pull: release,
      cancel() {
        settled = true;
        release();
      },
    },
    { highWaterMark: QUEUE_BYTES, size: (chunk) => chunk?.byteLength ?? 0 },
  );
  const start = (first: Uint8Array) => {
    const tag = id3TagBytes(first);
    if (tag !== null && tag > ID3_MAX_BYTES) {
      throw new AppError("INVALID_FILE_TYPE", `the ID3v2 tag claims ${tag} bytes; at most ${ID3_MAX_BYTES} are accepted`, {
        format,
        id3Bytes: tag,
        limit: ID3_MAX_BYTES,
      });
    }
    // The duration as soon as the parser knows it (often from the header): over the plan's,
    // the next write refuses the file.
    const observer = ({ tag }: IMetadataEvent) => {
      if (tag.type === "format" && tag.id === "duration" && typeof tag.value === "number" && tag.value > maxSeconds) refusal ??= tooLong(tag.value, maxSeconds);
    };
    // No type hint: the parser tells the container from the bytes itself. Told "MPEG", it
    // would take noise behind an ID3 header for frames.
    // music-metadata loads at the first audio upload, not at start (docs/benchmarks.md,
    // "Idle memory"); the queue above holds the first chunks meanwhile.
    parsing = import("music-metadata")
      .then((mm) => mm.parseWebStream(stream, undefined, { duration: true, observer }).then((m) => toInfo(m, mm.selectCover)))
      .then(
        (info) => info,
        () => null,
      )
      .finally(() => {
        settled = true;
        release();
      });
  };
  const end = (how: "close" | "abort") => {
    try {
      if (how === "close") controller.close();
      else controller.error(new Error("upload abandoned"));
    } catch {
      // Already closed or cancelled by the parser.
    }
    release();
  };
  return {
    write(chunk) {
      if (!parsing) start(chunk);
      if (refusal) throw refusal;
      if (settled) return;
      try {
        controller.enqueue(chunk);
      } catch {
        return;
      }
      if ((controller.desiredSize ?? 1) <= 0) return new Promise<void>((resolve) => (wake = resolve));
    },
    close: () => end("close"),
    abort: () => end("abort"),
    async result() {
      if (!parsing) return null;
      let timer: ReturnType<typeof setTimeout> | undefined;
      const givenUp = new Promise<null>((resolve) => {
        timer = setTimeout(() => resolve(null), PARSE_GRACE_MS);
      });
      try {
        return await Promise.race([parsing, givenUp]);
      } finally {
        clearTimeout(timer);
      }
    },
  };
}
