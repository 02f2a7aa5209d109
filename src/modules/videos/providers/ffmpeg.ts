// ffmpeg and ffprobe, the one place they are run: the local provider's HLS ladder, MP4,
// thumbnail and probe. Each run is a child process with its arguments as an array (no
// shell), stopped when the job is abandoned and killed when this process dies.
//
// Every input is opened with a protocol and a demuxer whitelist. An uploaded file is read
// only as one of the containers an upload may be (containers.ts): read as an HLS playlist,
// a concat list or an MPEG-DASH manifest, a file names other resources, and ffmpeg opens
// them (other files on this node, such as another user's original in the embedded object
// store, or URLs). The only protocol an input may use is `file`; the progress report goes
// to pipe:1, which is opened as an output and is not an input's protocol.
import { dirname, join } from "node:path";
import { spawnChild } from "../../../infra/child-process.ts";
import { RENDITIONS, type Rendition } from "../table.ts";

export interface Probe {
  durationSeconds: number;
  width: number;
  height: number;
  videoCodec: string;
  /** null when the file has no audio. */
  audioCodec: string | null;
}

export class MediaError extends Error {}

/** ffprobe beside FFMPEG_PATH (or from PATH when FFMPEG_PATH is a bare name). */
const ffprobeOf = (ffmpeg: string) => (ffmpeg.includes("/") ? join(dirname(ffmpeg), "ffprobe") : "ffprobe");

/** The demuxers of MP4 and MOV, MKV and WebM, and AVI: the containers an upload may be. */
const SOURCE_DEMUXERS = "mov,matroska,avi";
/** The ladder's own renditions: an HLS playlist of MPEG-TS segments, written by hlsRendition. */
const RENDITION_DEMUXERS = "hls,mpegts";

/** Input options that go before `-i`: only local files, read only by the named demuxers. */
const confined = (demuxers: string) => ["-protocol_whitelist", "file", "-format_whitelist", demuxers];

async function run(cmd: string[], signal?: AbortSignal, onStdoutLine?: (line: string) => void): Promise<string> {
  const proc = await spawnChild(cmd, { stdout: "pipe", stderr: "pipe", stdin: "ignore" });
  if (signal?.aborted) proc.kill(); // abandoned while it started
  const kill = () => proc.kill();
  signal?.addEventListener("abort", kill);
  try {
    let out = "";
    const stderr = new Response(proc.stderr).text();
    const decoder = new TextDecoder();
    let pending = "";
    for await (const chunk of proc.stdout) {
      const text = decoder.decode(chunk, { stream: true });
      out += text;
      if (onStdoutLine) {
        pending += text;
        const lines = pending.split("\n");
        pending = lines.pop() ?? "";
        for (const l of lines) onStdoutLine(l);
      }
    }
    const code = await proc.exited;
    if (code !== 0) throw new MediaError(((await stderr).trim().split("\n").pop() ?? `exit ${code}`).slice(0, 300));
    return out;
  } finally {
    signal?.removeEventListener("abort", kill);
  }
}

export async function probe(ffmpeg: string, file: string, signal?: AbortSignal): Promise<Probe> {
  const out = await run(
    [ffprobeOf(ffmpeg), "-v", "error", ...confined(SOURCE_DEMUXERS), "-print_format", "json", "-show_format", "-show_streams", file],
    signal,
  );
  const info = JSON.parse(out) as {
    format?: { duration?: string };
    streams?: { codec_type?: string; codec_name?: string; width?: number; height?: number; duration?: string }[];
  };
  const video = info.streams?.find((s) => s.codec_type === "video" && s.width && s.height);
  const audio = info.streams?.find((s) => s.codec_type === "audio");
  const duration = Number(info.format?.duration ?? video?.duration ?? Number.NaN);
  if (!video || !Number.isFinite(duration) || duration <= 0) throw new MediaError("no playable video stream");
  return { durationSeconds: duration, width: video.width!, height: video.height!, videoCodec: video.codec_name ?? "", audioCodec: audio?.codec_name ?? null };
}

const HEIGHTS: Record<Rendition, number> = { "360p": 360, "720p": 720, "1080p": 1080 };
const VIDEO_KBPS: Record<Rendition, number> = { "360p": 800, "720p": 2800, "1080p": 5000 };

/** The ladder for a source: every rung up to its height (360p always, upscaled if need be). */
export const ladderFor = (height: number): Rendition[] => RENDITIONS.filter((r) => r === "360p" || HEIGHTS[r] <= height);

/** Segments of about 6 s: a keyframe forced every 6 s so every rendition cuts at the same instants. */
const SEGMENT_S = 6;

/**
 * One HLS rendition: H.264/AAC, `dir/index.m3u8` and `dir/seg_00000.ts`, ... (layout.ts).
 * `onProgress` gets the seconds of output written so far.
 */
export async function hlsRendition(
  ffmpeg: string,
  input: string,
  r: Rendition,
  hasAudio: boolean,
  dir: string,
  onProgress: (seconds: number) => void,
  signal?: AbortSignal,
): Promise<void> {
  const kbps = VIDEO_KBPS[r];
  await run(
    [
      ffmpeg,
      ...["-hide_banner", "-nostdin", "-y", "-v", "error", "-progress", "pipe:1", ...confined(SOURCE_DEMUXERS), "-i", input],
      ...["-map", "0:v:0", ...(hasAudio ? ["-map", "0:a:0"] : [])],
      ...["-vf", `scale=-2:${HEIGHTS[r]}`, "-c:v", "libx264", "-preset", "veryfast", "-profile:v", "main", "-pix_fmt", "yuv420p"],
      ...["-b:v", `${kbps}k`, "-maxrate", `${Math.round(kbps * 1.2)}k`, "-bufsize", `${kbps * 2}k`],
      ...["-force_key_frames", `expr:gte(t,n_forced*${SEGMENT_S})`, "-sc_threshold", "0"],
      ...(hasAudio ? ["-c:a", "aac", "-b:a", "128k", "-ac", "2"] : []),
      ...["-f", "hls", "-hls_time", String(SEGMENT_S), "-hls_playlist_type", "vod", "-hls_segment_filename", join(dir, "seg_%05d.ts"), join(dir, "index.m3u8")],
    ],
    signal,
    (line) => {
      const m = /^out_time_us=(\d+)/.exec(line);
      if (m) onProgress(Number(m[1]) / 1e6);
    },
  );
}

/** The progressive MP4: the top rendition's streams remuxed (no second encode). */
export async function mp4FromHls(ffmpeg: string, playlist: string, out: string, signal?: AbortSignal): Promise<void> {
  await run(
    [
      ffmpeg,
      "-hide_banner",
      "-nostdin",
      "-y",
      "-v",
      "error",
      ...confined(RENDITION_DEMUXERS),
      "-i",
      playlist,
      "-c",
      "copy",
      "-bsf:a",
      "aac_adtstoasc",
      "-movflags",
      "+faststart",
      out,
    ],
    signal,
  );
}

/** The frame at `atSeconds`, as a JPEG at most 720 pixels high. */
export async function thumbnail(ffmpeg: string, input: string, atSeconds: number, out: string, signal?: AbortSignal): Promise<void> {
  await run(
    [
      ffmpeg,
      "-hide_banner",
      "-nostdin",
      "-y",
      "-v",
      "error",
      "-ss",
      atSeconds.toFixed(3),
      ...confined(SOURCE_DEMUXERS),
      "-i",
      input,
      "-frames:v",
      "1",
      "-vf",
      "scale=-2:'min(720,ih)'",
      "-q:v",
      "3",
      out,
    ],
    signal,
  );
}

/** A master playlist naming each rendition's playlist by a relative URI. */
export function masterPlaylist(renditions: { r: Rendition; width: number; height: number; bitsPerSecond: number }[], hasAudio: boolean): string {
  const codecs = hasAudio ? "avc1.4d401f,mp4a.40.2" : "avc1.4d401f";
  const lines = ["#EXTM3U", "#EXT-X-VERSION:3", "#EXT-X-INDEPENDENT-SEGMENTS"];
  for (const x of renditions) {
    lines.push(
      `#EXT-X-STREAM-INF:BANDWIDTH=${Math.max(1, Math.round(x.bitsPerSecond))},RESOLUTION=${x.width}x${x.height},CODECS="${codecs}"`,
      `${x.r}/index.m3u8`,
    );
  }
  return `${lines.join("\n")}\n`;
}
