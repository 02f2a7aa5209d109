// Where a video plays: its URLs on the media edge, how the edge reads a request path back
// into a video and a file, and the master playlist a degraded owner's new sessions get.
//
// The video URL base is MEDIA_URL/v. A video's files sit under MEDIA_URL/v/<id>/ with the
// names they have under hls/ in the store (layout.ts), so the playlists' relative URIs
// resolve to the edge as they stand:
//   v/<id>/master.m3u8                     the master playlist (playback_url)
//   v/<id>/<rendition>/index.m3u8          a variant playlist
//   v/<id>/<rendition>/seg_00000.ts        a segment
//   v/<id>/direct.mp4                      the progressive MP4 (direct_url)
//   v/<id>/thumb.jpg, thumb-custom-<n>.jpg the thumbnail (thumbnail_url)
//   v/<id>/subs/<language>.m3u8            a caption track's playlist (made, not stored)
//   v/<id>/subs/<language>-<n>.vtt         its WebVTT file
// A private video's URLs carry a signature segment after the id (sign.ts):
//   v/<id>/s.<expiry>.<mac>/master.m3u8, and every relative URI below it keeps it.
import { ID_PATTERN } from "../../infra/ids.ts";

const ID = ID_PATTERN.slice(1, -1);
const PATH = new RegExp(`^v/(${ID})/(?:(s\\.[^/]*)/)?(.+)$`);

/** A request path below MEDIA_URL, read as a video's: its id, the signature segment if any, and the file. */
export interface PlaybackPath {
  id: string;
  token: string | null;
  file: string;
}

export function parsePlaybackPath(path: string): PlaybackPath | null {
  const m = PATH.exec(path);
  return m ? { id: m[1]!, token: m[2] ?? null, file: m[3]! } : null;
}

/** The URL of one of a video's files on the edge, with a signature segment when given one. */
function playbackFileUrl(mediaUrl: string, id: string, file: string, token?: string): string {
  return `${mediaUrl}/v/${id}/${token ? `${token}/` : ""}${file}`;
}

export const MASTER = "master.m3u8";
export const DIRECT = "direct.mp4";

/** playback_url: the master playlist. */
export const playbackUrl = (mediaUrl: string, id: string, token?: string) => playbackFileUrl(mediaUrl, id, MASTER, token);
/** direct_url: the progressive MP4. */
export const directUrl = (mediaUrl: string, id: string, token?: string) => playbackFileUrl(mediaUrl, id, DIRECT, token);
/** thumbnail_url: the thumbnail's file name (the last segment of its key). */
export const thumbnailUrl = (mediaUrl: string, id: string, thumbnailKey: string, token?: string) =>
  playbackFileUrl(mediaUrl, id, thumbnailKey.slice(thumbnailKey.lastIndexOf("/") + 1), token);

/**
 * The master playlist with only `keep`'s streams (a degraded owner's new
 * sessions start at 360p). Everything that is not a stream of another rendition stays:
 * the header, media groups, session data. A stream is its EXT-X-STREAM-INF line and the
 * URI after it; an I-frame stream names its URI in the tag.
 */
export function masterWithOnly(master: string, keep: string): string {
  const ours = (uri: string) => uri.trim().startsWith(`${keep}/`);
  const out: string[] = [];
  const lines = master.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (line.startsWith("#EXT-X-STREAM-INF")) {
      let j = i + 1;
      while (j < lines.length && (lines[j]!.trim() === "" || lines[j]!.startsWith("#"))) j++;
      if (j < lines.length && ours(lines[j]!)) out.push(line, lines[j]!);
      i = j;
      continue;
    }
    if (line.startsWith("#EXT-X-I-FRAME-STREAM-INF")) {
      const uri = /URI="([^"]*)"/.exec(line)?.[1];
      if (uri !== undefined && !ours(uri)) continue;
    }
    out.push(line);
  }
  return out.join("\n");
}

/** The folder of the caption tracks below v/<id>/, as the master playlist names them. */
export const SUBS = "subs/";
/** A caption track's WebVTT file on the edge. */
export const captionFileUrl = (mediaUrl: string, id: string, file: string, token?: string) => playbackFileUrl(mediaUrl, id, `${SUBS}${file}`, token);
const SUBTITLES_GROUP = "subs";

/** What the master playlist says of a caption track. */
export interface SubtitleRendition {
  language: string;
  label: string;
}

const quoted = (s: string) => `"${s.replace(/["\r\n]/g, "")}"`;

/**
 * The master playlist with a subtitles rendition group (RFC 8216 section 4.3.4.1): one
 * EXT-X-MEDIA per track, after the header, and every stream naming the group. Players
 * (hls.js, Safari) list the tracks and show the one chosen; none is on by default.
 */
export function masterWithSubtitles(master: string, tracks: SubtitleRendition[]): string {
  if (tracks.length === 0) return master;
  const media = tracks.map(
    (t) =>
      `#EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID=${quoted(SUBTITLES_GROUP)},NAME=${quoted(t.label)},LANGUAGE=${quoted(t.language)},DEFAULT=NO,AUTOSELECT=YES,URI=${quoted(`${SUBS}${t.language}.m3u8`)}`,
  );
  const out: string[] = [];
  let placed = false;
  for (const line of master.split(/\r?\n/)) {
    if (line.startsWith("#EXT-X-STREAM-INF")) {
      if (!placed) {
        out.push(...media);
        placed = true;
      }
      out.push(`${line},SUBTITLES=${quoted(SUBTITLES_GROUP)}`);
    } else out.push(line);
  }
  return out.join("\n");
}

/** A caption track's media playlist: its one WebVTT file as a single segment as long as the video. */
export function subtitlePlaylist(vttFile: string, durationSeconds: number): string {
  const duration = Math.max(1, durationSeconds);
  return [
    "#EXTM3U",
    "#EXT-X-VERSION:3",
    `#EXT-X-TARGETDURATION:${Math.ceil(duration)}`,
    "#EXT-X-MEDIA-SEQUENCE:0",
    "#EXT-X-PLAYLIST-TYPE:VOD",
    `#EXTINF:${duration.toFixed(3)},`,
    vttFile,
    "#EXT-X-ENDLIST",
    "",
  ].join("\n");
}
