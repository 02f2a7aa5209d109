// The pixels of a variant, from an image's stored original. The
// original was checked at upload (format, dimensions, frames, decodable), so the limits
// here are the upload's; what is bounded is time (IMAGE_WORK_TIMEOUT_S) and, by the
// caller, memory (the image-work budget).
import { type Sharp, sharp } from "../../../infra/sharp.ts";
import { MAX_PIXELS, WEBP_OPTIONS } from "../pipeline.ts";
import type { VariantSpec } from "./params.ts";

/** Transparent bars for `contain`; JPEG, which has no alpha, gets white. */
const CLEAR = { r: 0, g: 0, b: 0, alpha: 0 };
const WHITE = { r: 255, g: 255, b: 255 };

/** Formats that keep every frame of an animation; the others get its first frame. */
const ANIMATES = new Set(["webp", "gif"]);

/**
 * Decoded bytes a variant holds at once, what the image-work budget counts: the original's
 * frames as RGBA (libvips shrinks JPEG and WebP on load, so this is the worst case).
 */
export const variantWork = (img: { width: number; height: number; frames: number }, spec: VariantSpec) =>
  4 * img.width * img.height * (ANIMATES.has(spec.format) ? img.frames : 1);

/** What q is lowered by for AVIF (q is at least 20, so AVIF's at least 0 and at most 80). */
const AVIF_Q_OFFSET = 20;

const ENCODE = {
  // AVIF's quality scale sits higher than the others' (its 55 looks like WebP's and JPEG's
  // 75 at a fraction of the bytes): q is taken 20 lower, so one q asks one look of every format.
  avif: (s: Sharp, q: number) => s.avif({ quality: q - AVIF_Q_OFFSET, effort: 2 }),
  webp: (s: Sharp, q: number) => s.webp({ quality: q, effort: WEBP_OPTIONS.effort }),
  jpeg: (s: Sharp, q: number) => s.flatten({ background: WHITE }).jpeg({ quality: q, mozjpeg: false }),
  png: (s: Sharp) => s.png({ compressionLevel: 6 }),
  gif: (s: Sharp) => s.gif(),
} as const;

/**
 * The variant's bytes: the original resized into the asked box (never enlarged: a size past
 * the original's gives the original's), in the asked format. An animation stays one in
 * WebP and GIF and becomes its first frame in the others.
 */
export async function renderVariant(original: Uint8Array, spec: VariantSpec, frames: number, timeoutS: number): Promise<Uint8Array> {
  const animated = frames > 1 && ANIMATES.has(spec.format);
  let p = sharp(original, { animated, limitInputPixels: animated ? false : MAX_PIXELS, failOn: "none" }).timeout({ seconds: timeoutS });
  if (spec.w !== null || spec.h !== null) {
    p = p.resize({ width: spec.w ?? undefined, height: spec.h ?? undefined, fit: spec.fit, withoutEnlargement: true, background: CLEAR });
  }
  return await ENCODE[spec.format](p, spec.q).toBuffer();
}
