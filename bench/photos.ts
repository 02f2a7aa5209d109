// Photo-like JPEGs of 1 to 12 megapixels, generated (nothing binary is committed): smooth
// shapes (upscaled noise) under fine grain, so they compress and decode like photos.
import { sharp } from "../src/infra/sharp.ts";

export interface Photo {
  name: string;
  bytes: Uint8Array;
  megapixels: number;
  orientation: number;
}

export async function photoLike(width: number, height: number, orientation = 1, seed = 0): Promise<Uint8Array> {
  const base = await sharp({
    create: {
      width: Math.ceil(width / 24),
      height: Math.ceil(height / 24),
      channels: 3,
      background: "black",
      noise: { type: "gaussian", mean: 120 + seed, sigma: 60 },
    },
  })
    .resize(width, height, { kernel: "cubic" })
    .raw()
    .toBuffer();
  const grain = await sharp({ create: { width, height, channels: 3, background: "black", noise: { type: "gaussian", mean: 128, sigma: 18 } } })
    .png({ compressionLevel: 0 })
    .toBuffer();
  const out = await sharp(base, { raw: { width, height, channels: 3 } })
    .composite([{ input: grain, blend: "soft-light" }])
    .jpeg({ quality: 90 })
    .withMetadata({ orientation })
    .withExif({ IFD0: { Make: "BenchCam" }, IFD3: { GPSLatitudeRef: "N", GPSLatitude: "48/1 51/1 24/1" } } as never)
    .toBuffer();
  return out;
}

/** Six photos, 1 to 12 MP at 3:2, one of them rotated by EXIF (the re-encoding path). */
export async function photoSet(): Promise<Photo[]> {
  const sizes = [1, 2, 4, 6, 8, 12];
  return Promise.all(
    sizes.map(async (mp, i) => {
      const width = Math.round(Math.sqrt((mp * 1e6 * 3) / 2));
      const height = Math.round((width * 2) / 3);
      const orientation = mp === 4 ? 6 : 1;
      return { name: `${mp}MP`, bytes: await photoLike(width, height, orientation, i), megapixels: mp, orientation };
    }),
  );
}
