// A link's media: CENTER_URL/s/<token>/m/<file>, where <file> is the item's path below
// MEDIA_URL (<id>.<ext>, a/<id>.<ext>, v/<id>/master.m3u8 and what its playlists name,
// relative to it). Each request reads the link from the database first (openShare), so a
// revoked or expired link's media stop at once, on every node; then the media edge answers
// it as its own (ranges, validators, the owner's bandwidth metered, a suspended owner's 451),
// opening the link's one item even when it is private. A video is opened with a signature
// made for this request (the video's own, good for a few minutes), as its playlists expect.
import type { Deps } from "../../core/deps.ts";
import { AppError } from "../../core/errors.ts";
import type { VouchedEdge } from "../edge/public.ts";
import { createPlaybackSigner } from "../videos/public.ts";
import { openShare } from "./access.ts";

/**
 * Every answer through a link is the browser's alone, to ask again each time (an ETag makes
 * that a 304): a shared cache keeping a public item's bytes at the link's URL would go on
 * serving them after the link was revoked.
 */
const THROUGH_LINK = "private, no-cache";

/** The signature a video's request is sent to the edge with: used at once, so it lives briefly. */
const VIDEO_SIGNATURE_S = 300;

const noMedia = () => new AppError("NOT_FOUND", "media not found", { entity: "media" });

/** The path after `/m/` of the request's URL, as sent (percent-encoded), without the query. */
function fileOf(url: string, token: string): string | null {
  const marker = `/s/${token}/m/`;
  const at = url.indexOf(marker);
  if (at < 0) return null;
  const rest = url.slice(at + marker.length);
  const query = rest.indexOf("?");
  return query < 0 ? rest : rest.slice(0, query);
}

export function shareMedia(deps: Pick<Deps, "db" | "config" | "clock">, edge: VouchedEdge) {
  const signer = createPlaybackSigner(deps.config.JWT_SECRET);
  return async (request: Request, token: string): Promise<Response> => {
    const opened = await openShare(deps, token, request);
    if (opened.state !== "open") throw noMedia();
    const { targetKind: kind, targetId: id } = opened.share;
    let file = fileOf(request.url, token);
    if (file === null) throw noMedia();
    // Only the link's own item: its file, its cover, its playlists and segments.
    const own =
      kind === "image"
        ? file.startsWith(`${id}.`)
        : kind === "audio"
          ? file.startsWith(`a/${id}.`) || file.startsWith(`a/${id}/`)
          : kind === "video" && file.startsWith(`v/${id}/`);
    if (!own || file.includes("%")) throw noMedia();
    if (kind === "video") {
      const rest = file.slice(`v/${id}/`.length);
      if (rest.startsWith("s.")) throw noMedia();
      file = `v/${id}/${signer.token(id, Math.floor(deps.clock.nowMs() / 1000) + VIDEO_SIGNATURE_S)}/${rest}`;
    }
    const res = await edge(request, file, (k, i) => k === kind && i === id);
    if (res.status < 400) res.headers.set("cache-control", THROUGH_LINK);
    return res;
  };
}
