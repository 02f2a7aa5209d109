// Where an image's bytes live in the object store, and the public URL that serves them.
// Keys are derived from the row (owner, id, format), so nothing else needs storing.
import { FORMATS, type ImageFormat } from "./formats.ts";

export type Variant = "original" | "webp";

export function objectKey(img: { ownerId: string; id: string; format: ImageFormat }, variant: Variant): string {
  const dir = `images/${img.ownerId}/${img.id}`;
  return variant === "webp" ? `${dir}/w.webp` : `${dir}/original.${FORMATS[img.format].ext}`;
}

/** Every key an image may have, for deletion. */
export const objectKeys = (img: { ownerId: string; id: string; format: ImageFormat }) => [objectKey(img, "original"), objectKey(img, "webp")];

export const publicUrl = (mediaUrl: string, img: { id: string; format: ImageFormat }) => `${mediaUrl}/${img.id}.${FORMATS[img.format].ext}`;

/** The width of list items' thumbnails: a tile of up to 128 CSS pixels at 2x, or 256 at 1x. */
const THUMBNAIL_WIDTH = 256;

/** A list item's thumbnail: a variant THUMBNAIL_WIDTH wide, shape kept (an SVG as it is: it scales itself). */
export const thumbnailUrl = (mediaUrl: string, img: { id: string; format: ImageFormat }) =>
  img.format === "svg" ? publicUrl(mediaUrl, img) : `${publicUrl(mediaUrl, img)}?w=${THUMBNAIL_WIDTH}`;

/**
 * The strong validator of a representation. An id's objects are immutable, so the id and
 * the variant name the bytes exactly: no hashing on upload. The trailing digit is the
 * rendition version, bumped if renditions are ever re-made with other settings.
 */
export const etagOf = (img: { id: string }, variant: Variant) => `"${img.id}-${variant === "webp" ? "w" : "o"}1"`;
