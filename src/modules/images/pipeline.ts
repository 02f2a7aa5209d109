// What an upload's bytes become: the stored original (rebuilt from known-good parts or
// re-encoded, so nothing but the picture and a validated ICC profile survives; orientation
// applied) and, for raster formats, a WebP rendition of the same size. Decoding is
// bounded: dimensions come from the header (sharp's metadata() reads no pixels) and are
// checked before any decode, and every pipeline carries a pixel limit and a time limit.
import { AppError, validationError } from "../../core/errors.ts";
import { sharp, type Metadata, type Sharp } from "../../infra/sharp.ts";
import type { Budget } from "../../infra/budget.ts";
import type { ImageFormat } from "./formats.ts";
import { jpegHeaderIsSound, rebuildOriginal, validIcc } from "./rebuild/index.ts";
import { sanitizeSvg, SVG_MAX_BYTES, type SvgLimits, svgUnreadable } from "./svg.ts";
import { NO_PLACEHOLDER, placeholderOf } from "./variants/placeholder.ts";

/** A still image, or one frame of an animation, may have at most this many pixels (100 MP). */
export const MAX_PIXELS = 100_000_000;
/** An animation may have at most this many frames ... */
const MAX_FRAMES = 1000;
/** ... and at most this many pixels across all its frames. */
const MAX_ANIMATION_PIXELS = 100_000_000;
/** What a node allows image work: the shared budget, and the deadline of one decode or encode. */
export interface ImageWorkLimits {
  work: Budget;
  /** A decode or encode that takes longer is abandoned (a hostile file, not a photo). */
  timeoutS: number;
  /** SVGs have no pixels to count: their shape limits and the sanitizer's worker bound them. */
  svg: SvgLimits;
}

/**
 * WebP renditions: quality 80 and effort 2. Effort (0-6) dominates the cost: on a 12 MP
 * photo effort 4 (sharp's default) takes about twice as long as effort 2 for files ~3%
 * smaller; effort 0-1 saves another ~20% of time but files grow ~15%.
 */
export const WEBP_OPTIONS = { quality: 80, effort: 2 } as const;
/**
 * Originals re-encoded from their pixels: AVIF always (its boxes are not rebuilt), the
 * others when the orientation is applied or their rebuild fails. sharp writes no EXIF, XMP
 * or IPTC unless asked. AVIF stays at quality 60: on a photo first saved at quality 50-60,
 * this second pass costs 0.5-1 dB PSNR, and quality 70 or 80 wins back only 0.1-0.4 dB for
 * files 20-60% larger.
 */
const REENCODE = {
  jpeg: (s: Sharp) => s.jpeg({ quality: 90 }),
  png: (s: Sharp) => s.png(),
  gif: (s: Sharp) => s.gif(),
  webp: (s: Sharp) => s.webp({ quality: 90, effort: WEBP_OPTIONS.effort }),
  avif: (s: Sharp) => s.avif({ quality: 60, effort: 2 }),
} satisfies Record<Exclude<ImageFormat, "svg">, (s: Sharp) => Sharp>;

export interface Processed {
  format: ImageFormat;
  original: Uint8Array;
  /** Absent for SVG and for WebP originals (already WebP). */
  webp?: Uint8Array;
  width: number;
  height: number;
  frames: number;
  /** ThumbHash, base64; "" when the picture could not be rendered for it. */
  placeholder: string;
}

/** sharp reports AVIF as "heif" with AV1 compression. */
const sharpFormatMatches = (format: ImageFormat, m: Metadata) => (format === "avif" ? m.format === "heif" && m.compression === "av1" : m.format === format);

/** Anything sharp reports beyond the picture: EXIF (with GPS), XMP, IPTC, Photoshop data, PNG text. */
const hasMetadata = (m: Metadata) => !!(m.exif || m.xmp || m.iptc || m.tifftagPhotoshop || m.comments?.length);

async function readHeader(bytes: Uint8Array, format: ImageFormat): Promise<Metadata> {
  if (format === "jpeg" && !jpegHeaderIsSound(bytes)) throw validationError("file", "the file could not be read as JPEG");
  let m: Metadata;
  try {
    // No pixel limit here: the header alone is read, and the limits are checked below
    // with the real numbers in the message.
    m = await sharp(bytes, { animated: true, limitInputPixels: false, failOn: "error" }).metadata();
  } catch {
    throw validationError("file", `the file could not be read as ${format.toUpperCase()}`);
  }
  if (!sharpFormatMatches(format, m)) throw new AppError("INVALID_FILE_TYPE", "the file's content is not a supported image", { format: m.format });
  return m;
}

function checkLimits(m: Metadata) {
  const frames = m.pages ?? 1;
  const width = m.width ?? 0;
  const frameHeight = m.pageHeight ?? m.height ?? 0;
  if (!width || !frameHeight) throw validationError("file", "the image has no dimensions");
  if (width * frameHeight > MAX_PIXELS) {
    throw validationError("file", `the image is ${width} x ${frameHeight} pixels, over the limit of ${MAX_PIXELS} pixels`);
  }
  if (frames > MAX_FRAMES) throw validationError("file", `the animation has ${frames} frames, over the limit of ${MAX_FRAMES}`);
  if (width * frameHeight * frames > MAX_ANIMATION_PIXELS) {
    throw validationError("file", `the animation has ${width * frameHeight * frames} pixels in all, over the limit of ${MAX_ANIMATION_PIXELS}`);
  }
  return { width, frameHeight, frames };
}

/**
 * Decoded size in memory, what the image-work budget counts: two pipelines (the original
 * and the WebP rendition) each holding the pixels with at least three channels, as libvips
 * widens grey and palette images for the encoders; 16-bit samples take two bytes.
 */
const pixelBytes = (m: Metadata, width: number, frameHeight: number, frames: number) =>
  2 * width * frameHeight * frames * Math.max(3, m.channels ?? 4) * (m.depth === "ushort" ? 2 : 1);

/** A sharp pipeline on the upload with the limits on; animated inputs keep every frame. */
const input = (bytes: Uint8Array, frames: number, timeoutS: number) =>
  sharp(bytes, { animated: frames > 1, limitInputPixels: frames > 1 ? MAX_ANIMATION_PIXELS : MAX_PIXELS, failOn: "error" }).timeout({
    seconds: timeoutS,
  });

async function run(p: Sharp): Promise<Uint8Array> {
  try {
    // A Buffer is a Uint8Array: used as is. (Copying it with `new Uint8Array(buffer)` takes
    // Bun's element-by-element path: ~100 ms of the event loop for a 12 MP WebP.)
    return await p.toBuffer();
  } catch {
    throw validationError("file", "the image could not be decoded");
  }
}

interface Variants {
  original: Uint8Array;
  webp?: Uint8Array;
}

/**
 * The original to store and its WebP rendition. Unless the orientation must be applied, the
 * original is rebuilt from known-good parts (no generation loss) and then checked by sharp:
 * same shape, no metadata, and it must decode, which the rendition made from the rebuilt
 * bytes proves (WebP originals, with no rendition, are decoded on their own). A rebuild
 * that fails or does not pass falls back to re-encoding: the input is never stored as is.
 */
async function cleanOriginal(
  bytes: Uint8Array,
  format: Exclude<ImageFormat, "svg">,
  m: Metadata,
  frames: number,
  rotate: boolean,
  timeoutS: number,
): Promise<Variants> {
  const rebuilt = rotate ? null : await checkedRebuild(bytes, format, m, frames, timeoutS);
  if (rebuilt) return rebuilt;
  const p = () => (rotate ? input(bytes, frames, timeoutS).rotate() : input(bytes, frames, timeoutS));
  // A validated RGB profile is kept (wide-gamut photos keep their colours); any other
  // profile, valid or not, is used to convert the pixels to sRGB and not written.
  const icc = validIcc(m.icc) && m.icc.toString("latin1", 16, 20) === "RGB ";
  const [original, webp] = await Promise.all([
    run(REENCODE[format](icc ? p().keepIccProfile() : p())),
    format === "webp" ? undefined : run(p().webp(WEBP_OPTIONS)),
  ]);
  return { original, webp };
}

async function checkedRebuild(bytes: Uint8Array, format: Exclude<ImageFormat, "svg">, m: Metadata, frames: number, timeoutS: number): Promise<Variants | null> {
  const original = rebuildOriginal(bytes, format);
  if (!original) return null;
  const check = await sharp(original, { animated: true, limitInputPixels: false, failOn: "error" })
    .metadata()
    .catch(() => null);
  if (!check || hasMetadata(check) || !sameShape(check, m)) return null;
  try {
    if (format === "webp") {
      await input(original, frames, timeoutS).raw().toBuffer();
      return { original };
    }
    return { original, webp: await input(original, frames, timeoutS).webp(WEBP_OPTIONS).toBuffer() };
  } catch (e) {
    // Over the deadline: the input would be as slow to re-encode, so the upload is refused.
    if (e instanceof Error && e.message.startsWith("timeout")) throw validationError("file", "the image could not be decoded");
    return null;
  }
}

/** Same dimensions, frames and timing as the upload: the rebuild changed no picture data. */
const sameShape = (a: Metadata, b: Metadata) =>
  a.width === b.width &&
  (a.pageHeight ?? a.height) === (b.pageHeight ?? b.height) &&
  (a.pages ?? 1) === (b.pages ?? 1) &&
  a.loop === b.loop &&
  String(a.delay ?? "") === String(b.delay ?? "");

/**
 * Work on one image runs inside the node's image-work budget: it waits (then 503) while
 * other images hold the slots or the decoded bytes it would need.
 */
export async function processImage(bytes: Uint8Array, format: ImageFormat, limits: ImageWorkLimits): Promise<Processed> {
  if (format === "svg") {
    if (bytes.length > SVG_MAX_BYTES) throw new AppError("FILE_TOO_LARGE", `SVG files are limited to ${SVG_MAX_BYTES} bytes`, { limit: SVG_MAX_BYTES });
    const release = await limits.work.acquire(0);
    try {
      const original = await sanitizeSvg(bytes, limits.svg);
      const m = await sharp(original, { limitInputPixels: false })
        .metadata()
        .catch((e) => {
          throw svgUnreadable(e);
        });
      const placeholder = await placeholderOf(original, limits.timeoutS).catch(() => NO_PLACEHOLDER);
      return { format, original, width: Math.round(m.width ?? 0), height: Math.round(m.height ?? 0), frames: 1, placeholder };
    } finally {
      release();
    }
  }
  // The header read takes a slot too (no pixels yet): on a hostile file it is not free.
  const header = await limits.work.acquire(0);
  const m = await readHeader(bytes, format).finally(header);
  const { width, frameHeight, frames } = checkLimits(m);
  const release = await limits.work.acquire(pixelBytes(m, width, frameHeight, frames));
  try {
    return await transform(bytes, format, m, { width, frameHeight, frames }, limits.timeoutS);
  } finally {
    release();
  }
}

async function transform(
  bytes: Uint8Array,
  format: Exclude<ImageFormat, "svg">,
  m: Metadata,
  { width, frameHeight, frames }: { width: number; frameHeight: number; frames: number },
  timeoutS: number,
): Promise<Processed> {
  // EXIF orientation (1-8) is applied to the pixels; 5-8 swap width and height.
  const orientation = frames === 1 ? (m.orientation ?? 1) : 1;
  const rotate = orientation > 1;
  const swap = orientation >= 5;
  const { original, webp } = await cleanOriginal(bytes, format, m, frames, rotate, timeoutS);
  // From the stored original (orientation applied); within the same budget grant.
  const placeholder = await placeholderOf(original, timeoutS).catch(() => NO_PLACEHOLDER);
  return { format, original, webp, width: swap ? frameHeight : width, height: swap ? width : frameHeight, frames, placeholder };
}
