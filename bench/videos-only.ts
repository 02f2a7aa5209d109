// Benchmarks (o), (p), (q) and (r) alone (bench/segments.ts, bench/videos.ts, bench/tus-upload.ts):
//   bun bench/videos-only.ts [o] [p] [q] [r]                              embedded parts
//   bash scripts/real-parts.sh bun bench/videos-only.ts [o] [p] [q] [r]   Postgres, Redis, s3rver
// No argument runs all four; TUS_BENCH_MB=128 makes (r) quick. The load average is printed beside each figure: this is a
// shared machine, and a figure taken at load 6 is not one taken at load 1.
import { loadavg } from "node:os";
import { ratioText } from "./passes.ts";
import { benchSegments } from "./segments.ts";
import { startShelf } from "./server.ts";
import { benchVideoUpload } from "./video-upload.ts";
import { benchTranscode } from "./videos.ts";
import { benchTusUpload } from "./tus-upload.ts";

const fmt = (n: number, d = 1) => n.toFixed(d);
const load = () =>
  loadavg()
    .map((l) => fmt(l, 2))
    .join(" ");
const want = new Set(Bun.argv.slice(2));
const runs = (x: string) => want.size === 0 || want.has(x);

const shelf = await startShelf();
try {
  console.log(`parts: ${process.env.DATABASE_URL ? "Postgres" : "PGlite"}, ${shelf.deps.storage.kind} storage; load ${load()}`);
  if (runs("o")) {
    for (const [rendition, size] of [
      ["360p", 400 * 1024],
      ["720p", 1536 * 1024],
    ] as const) {
      const seg = await benchSegments(shelf, rendition, size);
      console.log(
        `(o) segment ${fmt(size / 1024, 0)} KB: ${fmt(seg.subject, 0)} against ${fmt(seg.baseline, 0)} requests/s, ratio ${ratioText(seg)}; load ${load()}`,
      );
    }
  }
  if (runs("p")) {
    const v = await benchVideoUpload();
    console.log(`(p) upload 1 GB: ${JSON.stringify(v)}; load ${load()}`);
  }
  if (runs("r")) {
    const r = await benchTusUpload();
    console.log(`(r) tus upload ${r.sizeMB} MB in 8 MiB PATCHes: ${JSON.stringify(r)}; load ${load()}`);
  }
  if (runs("q")) {
    const t = await benchTranscode(shelf);
    console.log(`(q) transcode 60 s 1080p: ${JSON.stringify(t)}; load ${load()}`);
  }
} finally {
  await shelf.stop();
}
