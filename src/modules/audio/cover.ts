// An embedded cover (ID3v2 APIC, FLAC PICTURE, MP4 covr) as the audio's thumbnail: stored
// as a JPEG beside the file and counted in image storage. A cover that is no picture sharp
// can read is ignored (the default thumbnail shows): the audio is not refused for it.
import { sharp } from "../../infra/sharp.ts";

/** A cover needs no more than this on either side. */
const MAX_SIDE = 1200;
const MAX_INPUT_PIXELS = 40_000_000;

export async function coverJpeg(data: Uint8Array): Promise<Uint8Array | null> {
  try {
    const img = sharp(data, { limitInputPixels: MAX_INPUT_PIXELS, failOn: "error" });
    const meta = await img.metadata();
    if (!["jpeg", "png", "webp", "gif"].includes(meta.format ?? "")) return null;
    return await img.rotate().resize({ width: MAX_SIDE, height: MAX_SIDE, fit: "inside", withoutEnlargement: true }).jpeg({ quality: 85 }).toBuffer();
  } catch {
    return null;
  }
}
