// The one module through which the app uses sharp (images, thumbnails, `shelf doctor`).
//
// Loaded at first use, not at start: sharp and libvips are about 30 MB of an idle api
// node's memory that a node serving only the edge, lists or documents never needs
// (docs/benchmarks.md, "Idle memory"). The first call pays the load (tens of ms); later
// calls go straight through. `require` keeps the loader synchronous, so `sharp(...)` is
// called as before, and the bundler of `make build` keeps the module out of the start.
import { availableParallelism } from "node:os";
import type SharpModule from "sharp";
import type { Sharp, SharpInput, SharpOptions } from "sharp";
import { openLibvips } from "./sharp-native.ts";

let loaded: typeof SharpModule | undefined;

function load(): typeof SharpModule {
  if (loaded) return loaded;
  // libvips must be in the process before sharp's addon is linked (sharp-native.ts).
  openLibvips();
  const s = require("sharp") as typeof SharpModule;
  // Cache: libvips keeps recent operations (decoded inputs and their results) in memory in
  // case the same pipeline runs again. Here every upload is a different image and each
  // variant is stored once it is made, so the cache almost never hits and only holds memory
  // (up to 50 MB and 20 open files by default). Off.
  s.cache(false);
  // Concurrency: libvips threads per image. Several images are processed at once (one per
  // task on the runtime's worker pool), so the per-image threads multiply: a quarter of the
  // cores per image, at least one, keeps the machine busy under load without
  // oversubscribing it. sharp itself starts at 1 on glibc Linux without jemalloc (to limit
  // memory fragmentation); that choice is kept, never raised.
  s.concurrency(Math.min(s.concurrency(), Math.max(1, Math.floor(availableParallelism() / 4))));
  loaded = s;
  return s;
}

/** sharp's own constructor, loading sharp on the first call. */
export function sharp(options?: SharpOptions): Sharp;
export function sharp(input?: SharpInput | SharpInput[], options?: SharpOptions): Sharp;
export function sharp(input?: SharpInput | SharpInput[] | SharpOptions, options?: SharpOptions): Sharp {
  return (load() as (input?: unknown, options?: SharpOptions) => Sharp)(input, options);
}

export type { Sharp, Metadata } from "sharp";

/** The sharp and libvips versions in use (for `shelf doctor` and diagnostics); loads sharp. */
export function sharpVersions(): { sharp: string; libvips: string } {
  const v = load().versions as { sharp: string; vips: string };
  return { sharp: v.sharp, libvips: v.vips };
}
