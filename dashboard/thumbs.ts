// A tile's picture (an image, a video's thumbnail, an audio cover): a square variant of the size the tile is drawn at (the edge's
// ?w=&h=, docs/api.md "Image sizes"), chosen by the browser from a srcset, and the image's
// ThumbHash painted behind it until it arrives, so a page of tiles costs a small part of
// the full images' bytes and never shows empty squares.
import { thumbHashToDataURL } from "thumbhash";

/** Square sizes offered to the browser: tiles are 9.5rem and up (style.css, .grid), at 1x to 3x. */
const SQUARES = [192, 256, 384, 512] as const;
/** How wide a tile is drawn: two columns on a phone, about 12rem elsewhere. */
export const TILE_SIZES = "(max-width: 40rem) 50vw, 12rem";

const sized = (url: string, side: number) => `${url}?w=${side}&h=${side}`;

/** The srcset of an image's tile; none for an SVG, which scales itself. */
export function tileSrcset(url: string): string | undefined {
  if (url.endsWith(".svg")) return undefined;
  return SQUARES.map((s) => `${sized(url, s)} ${s}w`).join(", ");
}

/**
 * The one square variant for this screen's density (a private image is fetched with the
 * token, so the browser cannot pick from a srcset itself).
 */
export function tileUrl(url: string): string {
  return `${url}${tileQuery(url)}`;
}

/** The size query of tileUrl, for a URL the caller builds itself (a private video's signed thumbnail). */
export function tileQuery(url: string): string {
  if (url.endsWith(".svg")) return "";
  const want = 192 * (globalThis.devicePixelRatio || 1);
  const side = SQUARES.find((s) => s >= want) ?? SQUARES.at(-1)!;
  return `?w=${side}&h=${side}`;
}

/**
 * Paints the placeholder behind the tile's picture until the picture has loaded (a
 * transparent image would show it through). As a style property set from script: the
 * dashboard's policy allows no style attributes, and data: images are allowed.
 */
export function paintPlaceholder(thumb: HTMLElement, img: HTMLImageElement, placeholder: string | null) {
  if (!placeholder) return;
  try {
    const hash = Uint8Array.from(atob(placeholder), (c) => c.charCodeAt(0));
    thumb.style.backgroundImage = `url("${thumbHashToDataURL(hash)}")`;
    thumb.classList.add("painted");
  } catch {
    return;
  }
  const clear = () => {
    thumb.style.backgroundImage = "";
    thumb.classList.remove("painted");
  };
  if (img.complete && img.naturalWidth) clear();
  else img.addEventListener("load", clear, { once: true });
}
