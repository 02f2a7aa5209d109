// A video's captions: one WebVTT track per language, uploaded as WebVTT or SRT (converted),
// checked by the WebVTT reference parser, given the X-TIMESTAMP-MAP that lines its cues up
// with the video's segments, stored under the video's prefix with a fresh name per upload
// and counted against image storage as the custom thumbnail is. The edge lists
// them in the master playlist as a subtitles group (edge-resolver.ts, playback.ts), so
// hls.js and Safari offer them; a hosted provider's (Mux) playlists are its own, so its
// videos take none.
import { eq } from "drizzle-orm";
import { nanoid } from "nanoid";
import { WebVTTParser } from "webvtt-parser";
import type { Deps } from "../../core/deps.ts";
import { AppError, notFound, validationError } from "../../core/errors.ts";
import { invalidate } from "../edge/public.ts";
import { requireUser } from "../identity/public.ts";
import { assertFits, release, reserve, snapshotUsage } from "../usage/public.ts";
import { VIDEO_KIND } from "./edge-resolver.ts";
import { captionsPrefix, hlsPrefix } from "./layout.ts";
import { firstPts } from "./mpegts.ts";
import type { CaptionItem } from "./model.ts";
import { captionFileUrl } from "./playback.ts";
import { dropVideoObject } from "./objects.ts";
import { lockOwnVideo, ownVideo, type VideoUrls } from "./service.ts";
import { type CaptionTrack, type VideoRow, videos } from "./table.ts";

/** A caption file's largest size: hours of dialogue are a few hundred KB. */
export const CAPTION_MAX_BYTES = 512 * 1024;
/** Tracks per video. */
export const CAPTIONS_PER_VIDEO = 20;
const LABEL_MAX = 100;
/** The parser's first few complaints go back to the client, with their lines. */
const ERRORS_SHOWN = 5;

/** The language of the path as its canonical BCP 47 tag; 422 for anything that is not one. */
export function captionLanguage(raw: string): string {
  let tag: string | undefined;
  try {
    tag = raw.length <= 35 && /^[A-Za-z0-9-]+$/.test(raw) ? Intl.getCanonicalLocales(raw)[0] : undefined;
  } catch {
    tag = undefined;
  }
  if (!tag) throw validationError("params.language", "a BCP 47 language tag, such as en, fr or pt-BR");
  return tag;
}

/** The label shown in players: the one given, else the language's English name. */
function captionLabel(language: string, given: string | undefined): string {
  if (given !== undefined) {
    const label = given.trim();
    if (!label || label.length > LABEL_MAX || /[\u0000-\u001f\u007f]/.test(label)) {
      throw validationError("query.label", `1 to ${LABEL_MAX} characters, no control characters`);
    }
    return label;
  }
  return new Intl.DisplayNames(["en"], { type: "language", fallback: "code" }).of(language) ?? language;
}

const SRT_TIME = /(\d{1,2}:\d{2}:\d{2}),(\d{3})/g;

/**
 * The upload as WebVTT: a WebVTT file as sent, an SRT one with the signature added and its
 * times' decimal commas made points (its cue numbers stay, as cue identifiers). 422
 * INVALID_FILE_TYPE with the parser's errors (and their lines) when it is neither, or has
 * no cue; 422 for text that is not UTF-8.
 */
function toWebVtt(bytes: Uint8Array): string {
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw new AppError("INVALID_FILE_TYPE", "captions must be UTF-8 text (WebVTT or SRT)");
  }
  text = text.replace(/\r\n?/g, "\n");
  if (!text.startsWith("WEBVTT")) {
    text = `WEBVTT\n\n${text
      .split("\n")
      .map((line) => (line.includes("-->") ? line.replace(SRT_TIME, "$1.$2") : line))
      .join("\n")
      .trimStart()}`;
  }
  const parsed = new WebVTTParser().parse(text, "metadata");
  if (parsed.errors.length > 0 || parsed.cues.length === 0) {
    const errors = parsed.errors.slice(0, ERRORS_SHOWN).map((e) => ({ line: e.line, message: e.message }));
    throw new AppError(
      "INVALID_FILE_TYPE",
      parsed.cues.length === 0 && errors.length === 0 ? "the captions hold no cue" : "the captions are neither valid WebVTT nor SRT",
      { errors },
    );
  }
  return text.endsWith("\n") ? text : `${text}\n`;
}

/** A track as the API shows it, with the URL of its file (signed while the video is private). */
export function toCaption(urls: VideoUrls, row: Pick<VideoRow, "id" | "isPublic">, track: CaptionTrack): CaptionItem {
  return {
    language: track.language,
    label: track.label,
    sizeBytes: track.sizeBytes,
    updatedAt: track.updatedAt,
    url: captionFileUrl(urls.media, row.id, track.file, row.isPublic ? undefined : urls.thumbToken(row.id)),
  };
}

/**
 * Before the body is read: the video is the caller's, ready (its segments' clock is known
 * then), not a hosted provider's, and some image storage is left. Its X-TIMESTAMP-MAP line.
 */
export async function precheckCaption(deps: Deps, userId: string, id: string): Promise<string | null> {
  const now = deps.clock.now();
  const [user, usage, row] = await Promise.all([requireUser(deps.db, userId), snapshotUsage(deps.db, userId, now), ownVideo(deps.db, userId, id)]);
  if (row.provider === "mux") {
    throw new AppError("CONFLICT", "this video is hosted by Mux, whose playlists carry no captions of ours", { reason: "hosted_provider" });
  }
  if (row.status !== "ready") {
    throw new AppError("CONFLICT", `captions are added to a ready video; this one is ${row.status}`, { reason: "not_ready", status: row.status });
  }
  assertFits(userId, usage, deps.plans[user.plan], { imageBytes: 1 }, now);
  return timestampMap(deps, row);
}

/** Bytes of a segment's head read for its first PTS: its first PES packets are in it. */
const SEGMENT_HEAD = 64 * 1024;

/**
 * `X-TIMESTAMP-MAP=MPEGTS:<first PTS>,LOCAL:00:00:00.000`: the cues' 0 is the first
 * segment's first presentation time (mpegts.ts). Null when the lowest rendition's first
 * segment cannot be read or holds no PTS; the cues then go as they are.
 */
async function timestampMap(deps: Deps, row: VideoRow): Promise<string | null> {
  const lowest = row.renditions[0];
  if (!lowest) return null;
  const dir = `${hlsPrefix(row)}${lowest}/`;
  const playlist = await deps.storage.read(`${dir}index.m3u8`);
  const first =
    playlist &&
    new TextDecoder()
      .decode(playlist)
      .split(/\r?\n/)
      .find((l) => l.trim() !== "" && !l.startsWith("#"));
  if (!first || first.includes("/") || first.includes("..")) return null;
  const stream = await deps.storage.get(`${dir}${first.trim()}`, { start: 0, end: SEGMENT_HEAD - 1 });
  const start = stream && firstPts(await new Response(stream).bytes());
  return start === null || start === undefined ? null : `X-TIMESTAMP-MAP=MPEGTS:${start},LOCAL:00:00:00.000`;
}

/** The map in the WebVTT header, right after its signature line. */
function withMap(vtt: string, map: string | null): string {
  if (!map) return vtt;
  const eol = vtt.indexOf("\n");
  return `${vtt.slice(0, eol)}\n${map}${vtt.slice(eol)}`;
}

/** Adds or replaces the track of `language`; `created` when the video had none in it. */
export async function setCaption(
  deps: Deps,
  userId: string,
  id: string,
  caption: { language: string; label: string | undefined; map: string | null },
  body: Uint8Array,
): Promise<{ row: VideoRow; track: CaptionTrack; created: boolean }> {
  const { language, label } = caption;
  const vtt = new TextEncoder().encode(withMap(toWebVtt(body), caption.map));
  const shown = captionLabel(language, label);
  const file = `${language}-${nanoid(10)}.vtt`;
  const key = `${captionsPrefix({ ownerId: userId, id })}${file}`;
  await deps.storage.put(key, vtt, { contentType: "text/vtt; charset=utf-8" });
  let old: CaptionTrack | undefined;
  try {
    const out = await deps.db.transaction(async (tx) => {
      const before = await lockOwnVideo(tx, userId, id);
      old = before.captions.find((t) => t.language === language);
      if (!old && before.captions.length >= CAPTIONS_PER_VIDEO) {
        throw new AppError("CONFLICT", `a video holds at most ${CAPTIONS_PER_VIDEO} caption tracks`, { reason: "caption_limit", limit: CAPTIONS_PER_VIDEO });
      }
      const user = await requireUser(tx, userId);
      await release(tx, userId, { imageBytes: old?.sizeBytes ?? 0 });
      await reserve(tx, userId, deps.plans[user.plan], { imageBytes: vtt.length }, deps.clock.now());
      const track: CaptionTrack = { language, label: shown, file, sizeBytes: vtt.length, updatedAt: deps.clock.now().toISOString() };
      const captions = old ? before.captions.map((t) => (t.language === language ? track : t)) : [...before.captions, track];
      const [after] = await tx
        .update(videos)
        .set({ captions, captionBytes: before.captionBytes - (old?.sizeBytes ?? 0) + vtt.length, updatedAt: deps.clock.now() })
        .where(eq(videos.id, id))
        .returning();
      return { row: after!, track, created: !old };
    });
    if (old) await dropVideoObject(deps, `${captionsPrefix({ ownerId: userId, id })}${old.file}`);
    await invalidate(deps, VIDEO_KIND, id);
    return out;
  } catch (e) {
    await dropVideoObject(deps, key);
    throw e;
  }
}

/** Removes the track of `language`; 404 when the video has none in it. */
export async function removeCaption(deps: Deps, userId: string, id: string, language: string): Promise<void> {
  const gone = await deps.db.transaction(async (tx) => {
    const before = await lockOwnVideo(tx, userId, id);
    const track = before.captions.find((t) => t.language === language);
    if (!track) throw notFound("caption");
    await release(tx, userId, { imageBytes: track.sizeBytes });
    await tx
      .update(videos)
      .set({ captions: before.captions.filter((t) => t !== track), captionBytes: before.captionBytes - track.sizeBytes, updatedAt: deps.clock.now() })
      .where(eq(videos.id, id));
    return track;
  });
  await dropVideoObject(deps, `${captionsPrefix({ ownerId: userId, id })}${gone.file}`);
  await invalidate(deps, VIDEO_KIND, id);
}
