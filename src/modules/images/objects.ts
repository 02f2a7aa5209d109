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

/** A strong validator of immutable bytes: the first 128 bits of their SHA-256, quoted. */
export function etagOf(bytes: Uint8Array): string {
  return `"${new Bun.CryptoHasher("sha256").update(bytes).digest("hex").slice(0, 32)}"`;
}
