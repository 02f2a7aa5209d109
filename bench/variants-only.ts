// Benchmark (w) alone (bench/variants.ts): `bun bench/variants-only.ts`, or on Postgres,
// Redis and s3rver `bash scripts/real-parts.sh bun bench/variants-only.ts`. `make bench`
// prints the same figures with the others.
import { costText, loadText, runText } from "./cpu.ts";
import { ratioText } from "./passes.ts";
import { type Shelf, startShelf } from "./server.ts";
import { benchCachedVariant, benchFirstVariant, benchLibraryBytes } from "./variants.ts";

const fmt = (n: number, d = 1) => n.toFixed(d);

export async function printVariants(shelf: Shelf) {
  const cached = await benchCachedVariant(shelf);
  console.log(
    `\n(w) image sizes on the URL: a cached 640-wide WebP variant (${fmt(cached.variantBytes / 1024)} KB) against an original's cached WebP (${fmt(cached.originalBytes / 1024)} KB), 32 connections`,
  );
  console.log(`    shelf edge, ?w=640     ${fmt(cached.subject, 0)} requests/s`);
  console.log(`    shelf edge, original   ${fmt(cached.baseline, 0)} requests/s`);
  console.log(`    ratio                  ${ratioText(cached)}   (target >= 0.9)`);
  console.log(`    ${costText(cached.cpu, "req", ["?w=640", "original"])}, ${loadText(cached.load)}`);
  const first = await benchFirstVariant(shelf);
  console.log(`    first-time variants of ${first.megapixels.join(", ")} MP photos (WebP, one width a pass), 4 in flight`);
  console.log(`    shelf edge             ${fmt(first.subject, 2)} variants/s`);
  console.log(`    bare sharp             ${fmt(first.baseline, 2)} resizes/s   (the same originals, width and settings, in this process)`);
  console.log(`    ratio                  ${ratioText(first)}   (target >= 0.9)`);
  console.log(`    ${costText(first.cpu, "variant", ["shelf", "sharp"])}, ${loadText(first.load)}`);
  const lib = await benchLibraryBytes(shelf);
  console.log(`    the Library's grid for ${lib.count} photos of ${lib.width} x ${lib.height}: tiles (192 px squares, AVIF) ${fmt(lib.tiles / 1e6, 2)} MB`);
  console.log(`    the full images (WebP) ${fmt(lib.full / 1e6, 2)} MB   ratio ${fmt(lib.ratio, 4)}   (target < 0.1)`);
}

if (import.meta.main) {
  console.log(runText());
  const shelf = await startShelf();
  try {
    await printVariants(shelf);
  } finally {
    await shelf.stop();
  }
}
