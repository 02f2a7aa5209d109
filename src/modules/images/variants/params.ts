// The query of a sized image URL, MEDIA_URL/<id>.<ext>?w=&h=&fit=&q=&format= (docs/api.md,
// "Image sizes"): read and checked before any work, answered 400 BAD_REQUEST (meta.param
// names the parameter, meta.allowed what it may be) when it asks for what is not offered.
// Sizes come from one allowed set, so the variants of an image are bounded and a URL
// cannot ask for unbounded work.
import { AppError } from "../../../core/errors.ts";
import { REFUSAL } from "../../edge/public.ts";

/**
 * Widths and heights a variant may have, in pixels: the common thumbnail and device sizes
 * (the list browsers' srcset usually draws from). IMAGE_SIZES adds to it.
 */
const VARIANT_SIZES = [16, 32, 48, 64, 96, 128, 160, 192, 256, 320, 384, 480, 512, 640, 750, 828, 1024, 1080, 1200, 1600, 1920, 2048, 2560, 3840] as const;
/** sharp's fits: crop to fill the box, fit in the box with transparent (JPEG: white) bars, fit in the box keeping the shape. */
const VARIANT_FITS = ["cover", "contain", "inside"] as const;
type VariantFit = (typeof VARIANT_FITS)[number];
/** Output formats a URL may name; without `format` the edge negotiates from Accept. */
const VARIANT_FORMATS = ["avif", "webp", "jpeg", "png"] as const;
export type VariantFormat = (typeof VARIANT_FORMATS)[number] | "gif";
/** Quality: a multiple of 5 from 20 to 100. */
const QUALITY = { min: 20, max: 100, step: 5, default: 75 } as const;
const DEFAULT_FIT: VariantFit = "cover";

const PARAMS = ["w", "h", "fit", "q", "format"] as const;

/** What a sized URL asked for; `format` null when it is negotiated. */
export interface VariantAsk {
  w: number | null;
  h: number | null;
  fit: VariantFit;
  q: number;
  format: Exclude<VariantFormat, "gif"> | null;
}

const refuse = (param: string, message: string, allowed: readonly (string | number)[] | string) =>
  new AppError("BAD_REQUEST", message, { param, allowed }, REFUSAL);

/** The allowed sizes: the built-in set with IMAGE_SIZES' (a comma-separated list of pixels) added. */
export function allowedSizes(extra: string): ReadonlySet<number> {
  const sizes = new Set<number>(VARIANT_SIZES);
  for (const s of extra.split(",")) if (s.trim()) sizes.add(Number(s.trim()));
  return new Set([...sizes].sort((a, b) => a - b));
}

/**
 * The variant a URL's query asks for, or null when it names none of the parameters (the
 * original, negotiated as before). Other parameters are ignored (a cache-busting `v=`).
 * A parameter given twice counts by its first value.
 */
export function readAsk(url: string, sizes: ReadonlySet<number>): VariantAsk | null {
  const at = url.indexOf("?");
  if (at < 0) return null;
  const query = new URLSearchParams(url.slice(at + 1));
  if (!PARAMS.some((p) => query.has(p))) return null;
  const size = (p: "w" | "h") => {
    const raw = query.get(p);
    if (raw === null) return null;
    const n = /^\d{1,5}$/.test(raw) ? Number(raw) : Number.NaN;
    if (!sizes.has(n)) throw refuse(p, `${p} must be one of the allowed sizes`, [...sizes]);
    return n;
  };
  const w = size("w");
  const h = size("h");
  const fit = query.get("fit") ?? DEFAULT_FIT;
  if (!(VARIANT_FITS as readonly string[]).includes(fit)) throw refuse("fit", `fit must be ${VARIANT_FITS.join(", ")}`, VARIANT_FITS);
  const rawQ = query.get("q");
  const q = rawQ === null ? QUALITY.default : /^\d{1,3}$/.test(rawQ) ? Number(rawQ) : Number.NaN;
  if (!(q >= QUALITY.min && q <= QUALITY.max && q % QUALITY.step === 0)) {
    throw refuse("q", `q must be a multiple of ${QUALITY.step} from ${QUALITY.min} to ${QUALITY.max}`, `${QUALITY.min}-${QUALITY.max} step ${QUALITY.step}`);
  }
  const format = query.get("format");
  if (format !== null && !(VARIANT_FORMATS as readonly string[]).includes(format))
    throw refuse("format", `format must be ${VARIANT_FORMATS.join(", ")}`, VARIANT_FORMATS);
  return { w, h, fit: fit as VariantFit, q, format: format as VariantAsk["format"] };
}

/** A variant to make or serve: what was asked, with the format decided. */
export interface VariantSpec {
  w: number | null;
  h: number | null;
  fit: VariantFit;
  q: number;
  format: VariantFormat;
}

/**
 * The variant's name: its object's name under the image and the tail of its ETag. Asks
 * that give the same bytes share one name: with one side given (or none) the fit changes
 * nothing, and PNG and GIF have no quality.
 */
export function variantName(s: VariantSpec): string {
  const fit = s.w !== null && s.h !== null ? s.fit : "inside";
  const q = s.format === "png" || s.format === "gif" ? 0 : s.q;
  return `w${s.w ?? 0}-h${s.h ?? 0}-${fit}-q${q}.${s.format}`;
}

export const VARIANT_MIME: Record<VariantFormat, string> = {
  avif: "image/avif",
  webp: "image/webp",
  jpeg: "image/jpeg",
  png: "image/png",
  gif: "image/gif",
};
