// An image's placeholder: a ThumbHash (about 25 bytes, base64 in the API), which a client
// decodes into a blurred picture of the image's colours and shape and paints before the
// image's bytes arrive. Made at upload from the stored original; images uploaded before
// placeholders existed get theirs from the backfill job (placeholders.job.ts).
import { rgbaToThumbHash } from "thumbhash";
import { sharp } from "../../../infra/sharp.ts";

/** The longest side ThumbHash takes. */
const HASH_SIDE = 100;
/** The upload's own pixel limit (pipeline.ts): the original was checked against it. */
const INPUT_PIXELS = 100_000_000;

/**
 * The ThumbHash of a picture (any format sharp reads, SVG included), base64: its first
 * frame scaled to fit 100 x 100, as RGBA. Throws when the picture cannot be rendered.
 */
export async function placeholderOf(picture: Uint8Array, timeoutS: number): Promise<string> {
  const { data, info } = await sharp(picture, { limitInputPixels: INPUT_PIXELS, failOn: "none" })
    .timeout({ seconds: timeoutS })
    .resize({ width: HASH_SIDE, height: HASH_SIDE, fit: "inside" })
    .ensureAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  return Buffer.from(rgbaToThumbHash(info.width, info.height, data)).toString("base64");
}

/** What is stored when the picture could not be rendered for a placeholder: not tried again. */
export const NO_PLACEHOLDER = "";
