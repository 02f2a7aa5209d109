// oEmbed (https://oembed.com, 1.0): what a site that is given the URL of a public video or
// audio file (its player page, its playlist, its file on the edge) embeds: an <iframe> of
// the player page (center/embed.ts), sized to fit maxwidth and maxheight. A private,
// unready or missing item is 404, whichever it is. A share link's URL is answered too (an
// <iframe> of the link's page), unless the link asks for a password or no longer opens.
import type { Deps } from "../../core/deps.ts";
import { AppError, notFound } from "../../core/errors.ts";
import { ID_PATTERN } from "../../infra/ids.ts";
import { publicAudioCard } from "../audio/public.ts";
import { shareCard } from "../shares/public.ts";
import { publicVideoCard } from "../videos/public.ts";
import type { OEmbed, OEmbedQuery } from "./model.ts";
import { escapeHtml } from "../../core/html.ts";

const ID = ID_PATTERN.slice(1, -1);
/** A player's height for audio: its title, the controls and a little cover. */
const AUDIO_HEIGHT = 200;
const AUDIO_WIDTH = 480;
/** A note's or a folder's page, framed. */
const PAGE_WIDTH = 640;
const PAGE_HEIGHT = 480;

/** The item a URL names, by its place below CENTER_URL (a player page) or MEDIA_URL (a file). */
function itemOf(url: string, a: Pick<Deps["config"], "CENTER_URL" | "MEDIA_URL">): { kind: "video" | "audio"; id: string } | null {
  const below = (base: string) => {
    const root = base.replace(/\/+$/, "");
    return url.startsWith(`${root}/`) ? url.slice(root.length + 1).split(/[?#]/)[0]! : null;
  };
  const page = below(a.CENTER_URL);
  const onPage = page && new RegExp(`^embed/(v|a)/(${ID})$`).exec(page);
  if (onPage) return { kind: onPage[1] === "v" ? "video" : "audio", id: onPage[2]! };
  const file = below(a.MEDIA_URL);
  const video = file && new RegExp(`^v/(${ID})/`).exec(file);
  if (video) return { kind: "video", id: video[1]! };
  const audio = file && new RegExp(`^a/(${ID})\\.[a-z0-9]+$`).exec(file);
  if (audio) return { kind: "audio", id: audio[1]! };
  return null;
}

/** Scaled down (never up) to fit the consumer's bounds, keeping the proportions. */
function fit(width: number, height: number, q: OEmbedQuery): { width: number; height: number } {
  const scale = Math.min(1, q.maxwidth ? q.maxwidth / width : 1, q.maxheight ? q.maxheight / height : 1);
  return { width: Math.max(1, Math.round(width * scale)), height: Math.max(1, Math.round(height * scale)) };
}

const frame = (src: string, title: string, width: number, height: number) =>
  `<iframe src="${escapeHtml(src)}" width="${width}" height="${height}" title="${escapeHtml(title)}" style="border:0" allow="fullscreen; picture-in-picture" allowfullscreen loading="lazy"></iframe>`;

/**
 * A share link (CENTER_URL/s/<token>) that opens without a password: an <iframe> of its page,
 * private items included (the link is what the owner handed out). Null for any other URL.
 */
async function sharedEmbed(deps: Deps, q: OEmbedQuery): Promise<OEmbed | null> {
  const card = await shareCard(deps, q.url);
  if (!card) return null;
  const natural =
    card.kind === "video"
      ? { width: Math.round(((card.height ?? 360) * 16) / 9), height: card.height ?? 360 }
      : card.kind === "audio"
        ? { width: AUDIO_WIDTH, height: AUDIO_HEIGHT }
        : card.kind === "image" && card.width && card.height
          ? { width: card.width, height: card.height }
          : { width: PAGE_WIDTH, height: PAGE_HEIGHT };
  const { width, height } = fit(natural.width, natural.height, q);
  return {
    version: "1.0",
    type: card.kind === "video" ? "video" : "rich",
    provider_name: "shelf",
    provider_url: deps.config.CENTER_URL,
    title: card.title,
    html: frame(card.page, card.title, width, height),
    width,
    height,
    ...(card.thumbnailUrl ? { thumbnail_url: card.thumbnailUrl } : {}),
  };
}

/** `deps` at the request's addresses (depsAt): the URLs it names and makes are of the address asked. */
export async function oembed(deps: Deps, q: OEmbedQuery): Promise<OEmbed> {
  const addresses = deps.config;
  if (q.format !== undefined && q.format !== "json") throw new AppError("NOT_IMPLEMENTED", "only format=json is answered", { format: q.format });
  const shared = await sharedEmbed(deps, q);
  if (shared) return shared;
  const item = itemOf(q.url, addresses);
  if (!item) throw notFound("embeddable item");
  const card = item.kind === "video" ? await publicVideoCard(deps, item.id) : await publicAudioCard(deps, item.id);
  if (!card) throw notFound(item.kind);
  const natural =
    item.kind === "video"
      ? { width: Math.round(((card as { height: number }).height * 16) / 9), height: (card as { height: number }).height }
      : { width: AUDIO_WIDTH, height: AUDIO_HEIGHT };
  const { width, height } = fit(natural.width, natural.height, q);
  const src = `${addresses.CENTER_URL.replace(/\/+$/, "")}/embed/${item.kind === "video" ? "v" : "a"}/${item.id}`;
  const html = frame(src, card.title, width, height);
  return {
    version: "1.0",
    type: item.kind === "video" ? "video" : "rich",
    provider_name: "shelf",
    provider_url: addresses.CENTER_URL,
    title: card.title,
    html,
    width,
    height,
    ...(card.thumbnailUrl ? { thumbnail_url: card.thumbnailUrl } : {}),
  };
}
