// Originals rebuilt from known-good parts: what a decoder needs to show the picture (and a
// validated ICC profile), nothing else. Each rebuilder returns null when the file is not
// laid out as it expects; the caller then re-encodes the pixels instead.
import type { ImageFormat } from "../formats.ts";
import { rebuildGif } from "./gif.ts";
import { rebuildJpeg } from "./jpeg.ts";
import { rebuildPng } from "./png.ts";
import { rebuildWebp } from "./webp.ts";

export { validIcc } from "./icc.ts";
export { jpegHeaderIsSound } from "./jpeg.ts";

/** AVIF has no rebuilder: its boxes are re-encoded by sharp instead. */
const REBUILDERS: Partial<Record<ImageFormat, (b: Uint8Array) => Uint8Array | null>> = {
  jpeg: rebuildJpeg,
  png: rebuildPng,
  gif: rebuildGif,
  webp: rebuildWebp,
};

export function rebuildOriginal(bytes: Uint8Array, format: ImageFormat): Uint8Array | null {
  return REBUILDERS[format]?.(bytes) ?? null;
}
