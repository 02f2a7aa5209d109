// (w) Image sizes on the URL (MEDIA_URL/<id>.<ext>?w=...):
//   - a cached variant at the edge against the original's hit of the same bytes: the cost of
//     reading the size query on a hit (both answered from memory);
//   - first-time variants against bare sharp doing the same resize and encode on the same
//     originals in this process, 4 in flight: the cost of the edge's making (the lookup, the
//     original read from storage, the budget, the write and the record);
//   - the bytes the Library's grid loads for 1,000 photos: its tiles (the square variant a
//     desktop browser picks, dashboard/thumbs.ts) against the full images it loaded before.
import { sharp } from "../src/infra/sharp.ts";
import { WEBP_OPTIONS } from "../src/modules/images/pipeline.ts";
import { imageOfAbout } from "./edge.ts";
import { costOf, inProcess, load1, measuredInterleave } from "./cpu.ts";
import { httpPass } from "./http-load.ts";
import { photoLike } from "./photos.ts";
import type { Shelf } from "./server.ts";

const ACCEPT = "image/avif,image/webp,image/apng,image/*,*/*;q=0.8";
const WEBP = "image/webp,*/*;q=0.8";
const IN_FLIGHT = 4;

async function upload(shelf: Shelf, key: string, bytes: Uint8Array, name = "photo.jpg") {
  const form = new FormData();
  form.append("file", new Blob([bytes as BlobPart], { type: "image/jpeg" }), name);
  const res = await fetch(`${shelf.origin}/v1/images`, { method: "POST", headers: { authorization: `Bearer ${key}` }, body: form });
  if (res.status !== 201) throw new Error(`upload failed: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { data: { url: string } }).data.url;
}

async function fetched(url: string, accept: string): Promise<Uint8Array> {
  const res = await fetch(url, { headers: { accept } });
  if (res.status !== 200) throw new Error(`GET ${url}: ${res.status} ${await res.text()}`);
  return new Uint8Array(await res.arrayBuffer());
}

/** A cached 640-wide WebP variant against the cached WebP rendition of another image of about its size. */
export async function benchCachedVariant(shelf: Shelf, passes = 5) {
  const big = shelf.edgeUrl(await upload(shelf, shelf.key, await photoLike(3000, 2000)));
  const variantUrl = `${big}?w=640`;
  const variant = await fetched(variantUrl, WEBP);
  const original = await imageOfAbout(shelf, variant.length);
  const opts = { accept: WEBP, seconds: 3 };
  const run = await measuredInterleave(
    passes,
    { run: () => httpPass(variantUrl, opts), cpu: inProcess() },
    { run: () => httpPass(original.url, opts), cpu: inProcess() },
  );
  return { variantBytes: variant.length, originalBytes: original.bytes.length, ...run };
}

/** Runs `task` over `items`, IN_FLIGHT at a time; items per second. */
async function throughput<T>(items: readonly T[], task: (item: T) => Promise<unknown>): Promise<number> {
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: IN_FLIGHT }, async () => {
      while (next < items.length) await task(items[next++]!);
    }),
  );
  return items.length / ((performance.now() - started) / 1000);
}

/**
 * Variants asked for the first time (each pass its own width, so nothing is made twice)
 * against sharp resizing the same originals to the same width at the same settings.
 */
export async function benchFirstVariant(shelf: Shelf) {
  const photos = await Promise.all(
    [2, 4, 6, 8].map((mp, i) => photoLike(Math.round(Math.sqrt((mp * 1e6 * 3) / 2)), Math.round(Math.sqrt((mp * 1e6 * 3) / 2) * (2 / 3)), 1, i)),
  );
  const urls: string[] = [];
  const originals: Uint8Array[] = [];
  for (const p of photos) {
    const url = shelf.edgeUrl(await upload(shelf, shelf.key, p));
    urls.push(url);
    // The stored original (metadata stripped), as the edge reads it.
    originals.push(await fetched(url, "image/jpeg"));
  }
  const widths = [1600, 1200, 1080, 1024, 828, 750, 640, 512, 480, 384, 320];
  const rounds = 3;
  let pass = 0;
  const ratios: number[] = [];
  const edgeRates: number[] = [];
  const sharpRates: number[] = [];
  // CPU per variant of each side: the edge and sharp both work in this process.
  const cpu = inProcess();
  const edgeUs: number[] = [];
  const sharpUs: number[] = [];
  const loads = [load1()];
  for (const w of widths) {
    const work = Array.from({ length: rounds }, () => originals.map((o, i) => ({ o, url: urls[i]! }))).flat();
    // Each round its own quality, so every request of the pass makes a variant.
    const qs = [75, 80, 85];
    const c0 = cpu.read();
    const sharpRate = await throughput(
      work.map((x, i) => ({ ...x, q: qs[Math.floor(i / originals.length)]! })),
      ({ o, q }) => sharp(o, { failOn: "none" }).resize({ width: w, withoutEnlargement: true }).webp({ quality: q, effort: WEBP_OPTIONS.effort }).toBuffer(),
    );
    const c1 = cpu.read();
    const edgeRate = await throughput(
      work.map((x, i) => ({ ...x, q: qs[Math.floor(i / originals.length)]! })),
      ({ url, q }) => fetched(`${url}?w=${w}&q=${q}&format=webp`, ACCEPT),
    );
    const c2 = cpu.read();
    loads.push(load1());
    if (pass++ === 0) continue; // the warm-up pass
    sharpUs.push(((c1 - c0) * 1000) / work.length);
    edgeUs.push(((c2 - c1) * 1000) / work.length);
    ratios.push(edgeRate / sharpRate);
    edgeRates.push(edgeRate);
    sharpRates.push(sharpRate);
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  return {
    subject: median(edgeRates),
    baseline: median(sharpRates),
    ratio: median(ratios),
    low: Math.min(...ratios),
    high: Math.max(...ratios),
    passes: ratios.length,
    cpu: costOf(edgeUs, sharpUs),
    load: { low: Math.min(...loads), high: Math.max(...loads) },
    megapixels: [2, 4, 6, 8],
  };
}

/**
 * The Library's grid for `count` photos (12 MP is no typical phone photo any more, so 4 MP,
 * each its own picture): what its tiles load at 1x on a desktop (the 192-pixel square the
 * srcset gives a 12rem tile), as AVIF, against each full image as a browser gets it (WebP).
 */
export async function benchLibraryBytes(shelf: Shelf, count = 1000) {
  const width = 2400;
  const height = 1600;
  const distinct = 20;
  const pictures = await Promise.all(Array.from({ length: distinct }, (_, i) => photoLike(width, height, 1, i)));
  const urls: string[] = [];
  let key = await shelf.newKey();
  await throughput(
    Array.from({ length: count }, (_, i) => i),
    async (i) => {
      // A new user every 50: the upload rate limit (60 a minute) is not what is measured.
      if (i > 0 && i % 50 === 0) key = await shelf.newKey();
      urls[i] = shelf.edgeUrl(await upload(shelf, key, pictures[i % distinct]!, `photo-${i}.jpg`));
    },
  );
  let tiles = 0;
  let full = 0;
  await throughput(urls, async (url) => {
    tiles += (await fetched(`${url}?w=192&h=192`, ACCEPT)).length;
    full += (await fetched(url, ACCEPT)).length;
  });
  return { count, width, height, tiles, full, ratio: tiles / full };
}
