// The one module through which the app uses sharp (images, thumbnails, `shelf doctor`).
// Import order matters: sharp-native must run before sharp loads its native addon, and
// ES modules evaluate their imports in order.
import "./sharp-native.ts";
import { availableParallelism } from "node:os";
import sharp from "sharp";

// Cache: libvips keeps recent operations (decoded inputs and their results) in memory in
// case the same pipeline runs again. Here every upload is a different image and each
// variant is stored once it is made, so the cache almost never hits and only holds memory
// (up to 50 MB and 20 open files by default). Off.
sharp.cache(false);

// Concurrency: libvips threads per image. Several images are processed at once (one per
// task on the runtime's worker pool), so the per-image threads multiply: a quarter of the
// cores per image, at least one, keeps the machine busy under load without
// oversubscribing it. sharp itself starts at 1 on glibc Linux without jemalloc (to limit
// memory fragmentation); that choice is kept, never raised.
sharp.concurrency(Math.min(sharp.concurrency(), Math.max(1, Math.floor(availableParallelism() / 4))));

export { sharp };
export type { Sharp, Metadata } from "sharp";

/** The sharp and libvips versions in use (for `shelf doctor` and diagnostics). */
export function sharpVersions(): { sharp: string; libvips: string } {
  const v = sharp.versions as { sharp: string; vips: string };
  return { sharp: v.sharp, libvips: v.vips };
}
