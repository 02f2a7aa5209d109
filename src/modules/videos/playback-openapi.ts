// The playback paths as the OpenAPI document shows them (the edge renders the operations).
// A signed URL has one more segment, so each shape is listed by its number of segments.
import type { KindOperation } from "../edge/public.ts";

const DESCRIPTION =
  "A ready video's HLS master playlist (playback_url), variant playlists and MPEG-TS segments, its MP4 (direct_url) and thumbnail. " +
  "Playlists are application/vnd.apple.mpegurl and kept 30 s by shared caches; segments, the MP4 and the thumbnail are immutable. " +
  "A private video plays only under the signature segment POST /v1/videos/{id}/sign returns (s.<expiry>.<mac>): every playlist names its files by relative URIs, so they keep it. " +
  "While the owner's video bandwidth is degraded the master playlist lists the lowest rendition only; while it is suspended everything but the thumbnail is 451 BANDWIDTH_SUSPENDED. " +
  "A Mux-hosted video's master playlist and default thumbnail are, after the same checks, a 302 (no-store) to Mux (stream.mux.com, image.mux.com; a token in the URL when signing keys are configured); its variants and segments are served by Mux.";

const refusals = {
  403: "FORBIDDEN: a private video without a valid signature of its own, or any video with a wrong or expired one",
  451: "BANDWIDTH_SUSPENDED: the owner's monthly video bandwidth is over 120% of the plan",
};
const id = { name: "id", description: "the video's id" };
const op = (summary: string, params: { name: string; description: string }[], sizeQuery = false): KindOperation => ({
  summary,
  description: DESCRIPTION,
  pathParameters: [id, ...params],
  refusals,
  sizeQuery,
});

/** Path templates below MEDIA_URL and their operations. */
export function playbackDocument(): Record<string, KindOperation> {
  const file = { name: "file", description: "master.m3u8, direct.mp4 or the thumbnail's name" };
  return {
    "v/{id}/{file}": op("A video's master playlist, MP4 or thumbnail", [file], true),
    "v/{id}/{dir}/{file}": op(
      "A variant playlist or segment (dir: 360p, 720p, 1080p), or a file under a signature (dir: s.<expiry>.<mac>)",
      [
        { name: "dir", description: "a rendition, or the signature segment" },
        { name: "file", description: "index.m3u8, seg_<n>.ts, or (under a signature) master.m3u8, direct.mp4, the thumbnail" },
      ],
      true,
    ),
    "v/{id}/{signature}/{rendition}/{file}": op("A variant playlist or segment under a signature", [
      { name: "signature", description: "s.<expiry>.<mac>, from POST /v1/videos/{id}/sign" },
      { name: "rendition", description: "360p, 720p or 1080p" },
      { name: "file", description: "index.m3u8 or seg_<n>.ts" },
    ]),
  };
}
