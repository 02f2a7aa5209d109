// A link as a site that is given its URL previews it (oEmbed, modules/oembed): what it
// opens, its title and picture. Nothing of a link that asks for a password, is revoked or
// expired, or does not exist (null, whichever it is).
import type { Deps } from "../../core/deps.ts";
import { isLive, shareByToken, shareUrl } from "./service.ts";
import { shownTarget } from "./targets.ts";

export interface ShareCard {
  kind: "image" | "video" | "audio" | "document" | "kb";
  title: string;
  /** The link's page (the <iframe> a consumer embeds). */
  page: string;
  thumbnailUrl: string | null;
  /** The picture's or the video's size; null for the others. */
  width: number | null;
  height: number | null;
}

/** The token of a link's URL below CENTER_URL, if it is one. */
function tokenOf(url: string, centerUrl: string): string | null {
  const root = `${centerUrl.replace(/\/+$/, "")}/s/`;
  if (!url.startsWith(root)) return null;
  const m = /^([A-Za-z0-9_-]{32})\/?(?:[?#].*)?$/.exec(url.slice(root.length));
  return m ? m[1]! : null;
}

export async function shareCard(deps: Deps, url: string): Promise<ShareCard | null> {
  const token = tokenOf(url, deps.config.CENTER_URL);
  if (!token) return null;
  const share = await shareByToken(deps.db, token);
  if (!share || !isLive(share, deps.clock.nowMs()) || share.passwordHash) return null;
  const shown = await shownTarget(deps, share.ownerId, { kind: share.targetKind, id: share.targetId, path: share.targetPath });
  if (!shown) return null;
  const page = shareUrl(deps.config.CENTER_URL, token);
  const media = (file: string) => `${page}/m/${file}`;
  switch (shown.kind) {
    case "image":
      return { kind: "image", title: shown.title, page, thumbnailUrl: shown.svg ? null : media(shown.file), width: shown.width, height: shown.height };
    case "video":
      return { kind: "video", title: shown.title, page, thumbnailUrl: shown.poster ? media(shown.poster) : null, width: null, height: shown.height };
    case "audio":
      return { kind: "audio", title: shown.title, page, thumbnailUrl: shown.cover.endsWith(".jpg") ? media(shown.cover) : null, width: null, height: null };
    default:
      return { kind: shown.kind, title: shown.title, page, thumbnailUrl: null, width: null, height: null };
  }
}
