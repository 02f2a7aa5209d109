// (a) Upload throughput: POST /v1/images over HTTP (multipart, type detection, metadata
// strip, WebP rendition, storage, quota transaction) against raw sharp doing the same
// conversions in the same process: header read, EXIF orientation, WebP rendition at the
// same settings, and a JPEG re-encode for the rotated photo. 4 uploads in flight.
import { sharp } from "../src/infra/sharp.ts";
import { WEBP_OPTIONS } from "../src/modules/images/pipeline.ts";
import { costOf, inProcess, load1 } from "./cpu.ts";
import type { Photo } from "./photos.ts";
import type { Shelf } from "./server.ts";

const IN_FLIGHT = 4;
const PASSES = 11;

/** Runs `task` over `items` with `IN_FLIGHT` at a time; returns items per second. */
async function throughput<T>(items: T[], task: (item: T) => Promise<void>): Promise<number> {
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: IN_FLIGHT }, async () => {
      while (next < items.length) await task(items[next++]!);
    }),
  );
  return items.length / ((performance.now() - started) / 1000);
}

async function rawSharp(p: Photo) {
  const m = await sharp(p.bytes).metadata();
  const rotate = (m.orientation ?? 1) > 1;
  const jobs: Promise<unknown>[] = [sharp(p.bytes).rotate().webp(WEBP_OPTIONS).toBuffer()];
  if (rotate) jobs.push(sharp(p.bytes).rotate().jpeg({ quality: 90 }).toBuffer());
  await Promise.all(jobs);
}

async function viaShelf(shelf: Shelf, key: string, p: Photo) {
  const form = new FormData();
  form.append("file", new Blob([p.bytes as BlobPart], { type: "image/jpeg" }), `${p.name}.jpg`);
  const res = await fetch(`${shelf.origin}/v1/images`, { method: "POST", headers: { authorization: `Bearer ${key}` }, body: form });
  if (res.status !== 201) throw new Error(`upload failed: ${res.status} ${await res.text()}`);
  await res.arrayBuffer();
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/**
 * Passes alternate raw sharp and shelf over the same photos; each pass gives a ratio, and
 * the median pass is reported (one noisy pass on a shared machine moves neither figure).
 * Every pass uploads as a new user: the per-user upload rate limit is not what is measured.
 */
export async function benchUpload(shelf: Shelf, photos: Photo[], rounds = 3) {
  const work = Array.from({ length: rounds }, () => photos).flat();
  // Warm both paths with every photo once: sharp's code paths, the connection pool, and
  // the embedded database's WASM, which the engine compiles to its faster tiers as it runs.
  const warmKey = await shelf.newKey();
  await throughput(photos, (p) => viaShelf(shelf, warmKey, p));
  await throughput(photos, rawSharp);
  const passes: { shelfRate: number; sharpRate: number; ratio: number }[] = [];
  // CPU per image of each side: shelf's server (and the uploads' client) and sharp both work in this process.
  const cpu = inProcess();
  const shelfUs: number[] = [];
  const sharpUs: number[] = [];
  const loads = [load1()];
  for (let pass = 0; pass < PASSES; pass++) {
    const key = await shelf.newKey();
    const c0 = cpu.read();
    const sharpRate = await throughput(work, rawSharp);
    const c1 = cpu.read();
    const shelfRate = await throughput(work, (p) => viaShelf(shelf, key, p));
    const c2 = cpu.read();
    loads.push(load1());
    sharpUs.push(((c1 - c0) * 1000) / work.length);
    shelfUs.push(((c2 - c1) * 1000) / work.length);
    passes.push({ shelfRate, sharpRate, ratio: shelfRate / sharpRate });
  }
  const mid = passes.find((p) => p.ratio === median(passes.map((x) => x.ratio)))!;
  return {
    images: work.length,
    passes: passes.map((p) => p.ratio),
    ...mid,
    cpu: costOf(shelfUs, sharpUs),
    load: { low: Math.min(...loads), high: Math.max(...loads) },
  };
}
