// The local provider's transcode, step by step, in a work folder of its own: the original
// fetched and probed (and held to the plan's length), the HLS ladder encoded rendition by
// rendition with its progress, the progressive MP4 and the thumbnail made, and everything
// stored under the video's prefix, the master playlist last. A step that finds the video
// cannot be made throws Unplayable, which the provider reports as the video's failure.
import { mkdir, readdir, stat } from "node:fs/promises";
import { join, relative } from "node:path";
import type { Deps } from "../../../core/deps.ts";
import { requireUser } from "../../identity/public.ts";
import { directKey, hlsPrefix, masterPlaylistKey, thumbnailKey } from "../layout.ts";
import type { VideoRow } from "../table.ts";
import { hlsRendition, ladderFor, MediaError, masterPlaylist, mp4FromHls, probe, thumbnail } from "./ffmpeg.ts";
import { type JobRun, LeaseLost } from "./types.ts";

/** The video cannot be made from this original: the reason its owner reads. */
export class Unplayable extends Error {
  constructor(
    readonly reason: string,
    /** The original is worth nothing either (too long for the plan): deleted now. */
    readonly dropOriginal = false,
  ) {
    super(reason);
  }
}

export interface Transcoded {
  durationSeconds: number;
  renditions: ReturnType<typeof ladderFor>;
}

interface Work {
  deps: Deps;
  run: JobRun;
  video: VideoRow;
  ffmpeg: string;
  /** The work folder, removed by the caller. */
  dir: string;
}

type Probed = Awaited<ReturnType<typeof probe>>;

const CONTENT_TYPES: Record<string, string> = { m3u8: "application/vnd.apple.mpegurl", ts: "video/mp2t", mp4: "video/mp4", jpg: "image/jpeg" };
const typeOf = (path: string) => CONTENT_TYPES[path.slice(path.lastIndexOf(".") + 1)] ?? "application/octet-stream";

async function* filesUnder(dir: string): AsyncGenerator<string> {
  for (const e of await readdir(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) yield* filesUnder(p);
    else yield p;
  }
}

/** Every step in order; what the ready callback reports. */
export async function transcodeIn(w: Work): Promise<Transcoded> {
  const input = await fetchOriginal(w);
  const info = await probeWithinPlan(w, input);
  const ladder = ladderFor(info.height);
  const hls = join(w.dir, "hls");
  const variants = await encodeLadder(w, input, info, ladder, hls);
  await Bun.write(join(hls, "master.m3u8"), masterPlaylist(variants, info.audioCodec !== null));
  const direct = await progressiveMp4(w, input, info, join(hls, ladder.at(-1)!, "index.m3u8"));
  const thumb = await stillFrame(w, input, info);
  await storeOutputs(w, hls, direct, thumb);
  return { durationSeconds: info.durationSeconds, renditions: ladder };
}

async function fetchOriginal({ deps, video, dir }: Work): Promise<string> {
  const source = video.originalKey ? await deps.storage.get(video.originalKey) : null;
  if (!source) throw new Unplayable("the original is gone");
  const input = join(dir, "original");
  await Bun.write(input, new Response(source));
  return input;
}

async function probeWithinPlan({ deps, run, video, ffmpeg }: Work, input: string): Promise<Probed> {
  let info: Probed;
  try {
    info = await probe(ffmpeg, input, run.signal);
  } catch (e) {
    if (e instanceof MediaError) throw new Unplayable(`the file could not be read as a video (${e.message})`);
    throw e;
  }
  const user = await requireUser(deps.db, video.ownerId);
  const maxSeconds = deps.plans[user.plan].videoMaxSeconds;
  if (maxSeconds >= 0 && info.durationSeconds > maxSeconds) {
    throw new Unplayable(`the video is ${Math.round(info.durationSeconds)} s long; the plan allows ${maxSeconds} s`, true);
  }
  return info;
}

/** The ladder's renditions one after another, the first 90% of the progress bar between them. */
async function encodeLadder({ deps, run, video, ffmpeg }: Work, input: string, info: Probed, ladder: ReturnType<typeof ladderFor>, hls: string) {
  const work = info.durationSeconds * ladder.length;
  // Reports run one after another beside ffmpeg (run.progress writes at most every second
  // or 5%); a lost lease is noted and acted on when the rendition ends (never left as a
  // rejection nobody awaits).
  let lost = false;
  const progress = async (p: number) => {
    if (!lost && !(await run.progress(p))) lost = true;
  };
  const variants: Parameters<typeof masterPlaylist>[0] = [];
  for (const [i, rendition] of ladder.entries()) {
    const out = join(hls, rendition);
    await mkdir(out, { recursive: true });
    let pending = Promise.resolve();
    const onSeconds = (s: number) => {
      pending = pending
        .then(() => progress((0.9 * (i * info.durationSeconds + Math.min(s, info.durationSeconds))) / work))
        .catch((err) => deps.log.warn("transcode progress not recorded", { videoId: video.id, jobId: run.job.id, err }));
    };
    try {
      await hlsRendition(ffmpeg, input, rendition, info.audioCodec !== null, out, onSeconds, run.signal);
    } catch (e) {
      if (e instanceof MediaError) throw new Unplayable(`transcoding failed (${e.message})`);
      throw e;
    }
    await pending;
    // The rendition's end, whatever ffmpeg's last report said (a short clip is encoded
    // before its first): the bar moves once per rendition at least.
    await progress((0.9 * (i + 1)) / ladder.length);
    if (lost) throw new LeaseLost();
    let bytes = 0;
    for await (const f of filesUnder(out)) bytes += (await stat(f)).size;
    const height = Number.parseInt(rendition, 10);
    const width = Math.round((info.width * height) / info.height / 2) * 2;
    variants.push({ r: rendition, width, height, bitsPerSecond: ((bytes * 8) / info.durationSeconds) * 1.1 });
  }
  return variants;
}

/** The original itself when a browser plays it as is; else the top rendition remuxed. */
async function progressiveMp4({ run, video, ffmpeg, dir }: Work, input: string, info: Probed, topPlaylist: string): Promise<string> {
  const direct = join(dir, "direct.mp4");
  const playable = video.container === "mp4" && info.videoCodec === "h264" && (info.audioCodec === null || info.audioCodec === "aac");
  if (playable) await Bun.write(direct, Bun.file(input));
  else await mp4FromHls(ffmpeg, topPlaylist, direct, run.signal);
  return direct;
}

/** At the 5-second mark, or the middle of a shorter clip; a seek past the last frame yields no picture, so the first frame then. */
async function stillFrame({ run, ffmpeg, dir }: Work, input: string, info: Probed): Promise<string> {
  const thumb = join(dir, "thumb.jpg");
  await thumbnail(ffmpeg, input, info.durationSeconds > 5.5 ? 5 : info.durationSeconds / 2, thumb, run.signal);
  if (!(await Bun.file(thumb).exists())) await thumbnail(ffmpeg, input, 0, thumb, run.signal);
  return thumb;
}

/** Every output under the video's prefix, the last 5% of the progress bar; the master playlist last: once it exists, everything it names does. */
async function storeOutputs({ deps, run, video }: Work, hls: string, direct: string, thumb: string): Promise<void> {
  if (!(await run.progress(0.95))) throw new LeaseLost();
  const uploads: [string, string][] = [
    [direct, directKey(video)],
    [thumb, thumbnailKey(video)],
  ];
  for await (const f of filesUnder(hls)) uploads.push([f, `${hlsPrefix(video)}${relative(hls, f).split("\\").join("/")}`]);
  uploads.sort(([, a], [, b]) => Number(a === masterPlaylistKey(video)) - Number(b === masterPlaylistKey(video)));
  for (const [n, [file, key]] of uploads.entries()) {
    await deps.storage.put(key, Bun.file(file), { contentType: typeOf(key) });
    if (!(await run.progress(0.95 + (0.04 * (n + 1)) / uploads.length))) throw new LeaseLost();
  }
}
