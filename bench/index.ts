// `make bench`: prints the figures of the benchmarks (not a test: no pass/fail).
//   (a) upload throughput against raw sharp, 4 in flight      target ratio >= 0.90
//   (b) edge GET of a cached WebP against a Bun static route      target ratio >= 0.75 (160 KB), >= 0.6 (18 KB)
//   (c) images list pages at 100,000 images against 100, and a small library beside
//       a large one against alone                                 target ratio <= 1.5
//   (d) GET /health (liveness) against bare Bun.serve, same JSON
//   (e) rate-limiter cost in Redis CPU per call (needs REDIS_URL)   target <= 10 us
//   (f) the compiled binary (dist/): size, first and later start to /ready, idle RSS
//       targets: first start < 2 s, later starts < 0.5 s
//   (g) authenticated GET /v1/images against a hand-written list    target ratio >= 0.80
//   (h) the same list on embedded parts against Postgres (needs DATABASE_URL)  target >= 0.5
//   (i) POST /v1/docs of ~200 KB Markdown with 20 inline images, against 20 image uploads and the text
//   (j) KB manifest pages of 1000 of 100,000 documents, 8 connections, against the bare page query   target >= 0.5x, p99 <= 50 ms
//   (k) 100-op v1 sync pushes of 2 KiB notes (4 users), against the bare upserts                     target >= 0.4x
//   (l) v2 incremental manifest (since cursor, include=tombstones), pages of 1000 of 100,000 documents, 8 connections   target >= 0.5x, p99 <= 50 ms
//   (m) 200-op v2 sync pushes of 2 KiB notes (4 users), against the bare upserts                     target >= 0.4x, p99 <= 50 ms
//   (n) `shelf sync` of a folder of 10,000 notes: first push, a sync that finds nothing (target: one 304), a second folder's pull
//   (u) `shelf sync` of a notes vault of 10,000 notes and 1,000 attachments: first push against plain parallel uploads of the same bytes   target ratio >= 0.8; a sync that finds nothing (target: one 304); a second folder's pull
//   (p) a 1 GB video upload streamed to storage, the api in its own process: idle and peak RSS, MB/s against writing the bytes directly   targets: peak < 100 MB, ratio >= 0.7
//   (q) local transcode of a 60-second 1080p clip against the same ffmpeg runs by hand
//   (r) a 1 GB resumable (tus) upload in 8 MiB PATCHes against the direct multipart upload: MB/s ratio, api peak RSS   (TUS_BENCH_MB: another size)
//   (s) read_document through the hosted MCP server against GET /v1/kbs/:id/raw of the same document, 8 connections
//   (o) playback edge GET of an HLS segment (400 KB and 1.5 MB, from their file) against a Bun static route   target ratio >= 0.75
//   (v) the whole-account export (the worker zipping 400 originals, 550 MB, into folder storage) against tar -cf of the same files   target ratio >= 0.7; peak RSS flat as the account grows
//   (t) not here (needs nginx and wrk): bun bench/edge-nginx.ts, `shelf serve` as deployed (access log on) against nginx with a buffered access log
//   (w) image sizes on the URL: a cached variant at the edge against the original's hit   target ratio >= 0.9;
//       first-time variants against bare sharp doing the same resize   target ratio >= 0.9;
//       the Library's grid bytes for 1,000 photos against the full images'   target < 0.1
//   (x) a cached edge GET (~18 KB WebP) with metrics on against metrics off   target ratio >= 0.97
import { cpus } from "node:os";
import { sharpVersions } from "../src/infra/sharp.ts";
import { printBinary } from "./binary.ts";
import { type Cost, costText, loadText, runText } from "./cpu.ts";
import { benchDocs } from "./docs.ts";
import { benchEdge } from "./edge.ts";
import { benchExport } from "./export.ts";
import { printExport } from "./export-print.ts";
import { printEmbeddedLists } from "./embedded-lists.ts";
import { benchHealth } from "./health.ts";
import { benchKbs, type KbFigures } from "./kbs.ts";
import { benchKbsV2 } from "./kbs-v2.ts";
import { benchLimiter } from "./limiter.ts";
import { printMetricsCost } from "./metrics.ts";
import { printMcp } from "./mcp.ts";
import { benchList } from "./list-baseline.ts";
import { benchSegments } from "./segments.ts";
import { benchSyncFolder } from "./sync-folder.ts";
import { printVaultSync } from "./vault-sync.ts";
import { benchLists } from "./lists.ts";
import { ratioText } from "./passes.ts";
import { photoSet } from "./photos.ts";
import { startShelf, UNLIMITED_SYNC } from "./server.ts";
import { benchTusUpload } from "./tus-upload.ts";
import { benchUpload } from "./upload.ts";
import { printVariants } from "./variants-only.ts";
import { benchVideoUpload } from "./video-upload.ts";
import { benchTranscode } from "./videos.ts";

const fmt = (n: number, d = 1) => n.toFixed(d);

console.log(`shelf benchmarks: bun ${Bun.version}, sharp ${sharpVersions().sharp} / libvips ${sharpVersions().libvips}, ${cpus().length} cpus`);
console.log(runText());
// Beside each throughput ratio: each side's CPU per operation and their ratio (baseline /
// shelf: higher is better, 1.0 = the same cost), and the load average over its passes (bench/cpu.ts).
const cost = (x: { cpu: Cost; load: { low: number; high: number } }, unit: string, names?: [string, string]) =>
  console.log(`    ${costText(x.cpu, unit, names)}, ${loadText(x.load)}`);
const shelf = await startShelf();
try {
  const photos = await photoSet();
  console.log(`\n(a) upload: ${photos.length} photos (${photos.map((p) => `${p.name} ${fmt(p.bytes.length / 1e6)} MB`).join(", ")}), 4 in flight`);
  const up = await benchUpload(shelf, photos);
  console.log(`    shelf POST /v1/images  ${fmt(up.shelfRate, 2)} images/s`);
  console.log(`    raw sharp              ${fmt(up.sharpRate, 2)} images/s`);
  console.log(
    `    ratio                  ${fmt(up.ratio, 3)}   (target >= 0.90; median of ${up.passes.length} passes: ${up.passes.map((r) => fmt(r, 2)).join(" ")})`,
  );
  cost(up, "image", ["shelf", "sharp"]);

  for (const [target, goal] of [
    [160 * 1024, 0.75],
    [18 * 1024, 0.6],
  ] as const) {
    const edge = await benchEdge(shelf, target);
    console.log(`\n(b) edge GET of a cached WebP of ${fmt(edge.bytes / 1024)} KB, 32 connections from a separate process`);
    console.log(`    shelf edge             ${fmt(edge.subject, 0)} requests/s`);
    console.log(`    Bun static route       ${fmt(edge.baseline, 0)} requests/s`);
    console.log(`    ratio                  ${ratioText(edge)}   (target >= ${goal})`);
    cost(edge, "req");
  }

  await printVariants(shelf);
  await printMetricsCost(shelf);

  for (const [rendition, size] of [
    ["360p", 400 * 1024],
    ["720p", 1536 * 1024],
  ] as const) {
    const seg = await benchSegments(shelf, rendition, size);
    console.log(`\n(o) playback edge GET of a ${rendition} HLS segment of ${fmt(size / 1024, 0)} KB, public video, 32 connections from a separate process`);
    console.log(`    shelf playback edge    ${fmt(seg.subject, 0)} requests/s`);
    console.log(`    Bun static route       ${fmt(seg.baseline, 0)} requests/s`);
    console.log(`    ratio                  ${ratioText(seg)}   (target >= 0.75)`);
    cost(seg, "req");
  }

  const vup = await benchVideoUpload();
  console.log(`\n(p) POST /v1/videos of 1 GB, streamed (chunked) to ${vup.storage} storage, against storage.put of the same bytes; the api in its own process`);
  console.log(`    shelf                  ${fmt(vup.shelfMBs, 0)} MB/s`);
  console.log(`    direct storage.put     ${fmt(vup.directMBs, 0)} MB/s`);
  console.log(`    bare Bun.serve to file ${fmt(vup.bareMBs, 0)} MB/s   (HTTP alone; shelf / bare ${fmt(vup.bareRatio, 3)})`);
  console.log(`    ratio                  ${fmt(vup.ratio, 3)} (${fmt(vup.low, 2)}-${fmt(vup.high, 2)}, ${vup.passes} passes)   (target >= 0.7)`);
  console.log(
    `    api RSS                ${fmt(vup.idleMB, 0)} MB idle, ${fmt(vup.peakMB, 0)} MB peak, growth ${fmt(vup.growthMB, 0)} MB (${fmt(vup.smallGrowthMB, 0)} MB for 128 MB)   (target: peak < 100 MB)`,
  );
  cost(vup, "MB", ["shelf", "direct"]);
  console.log(`    ${costText(vup.bareCpu, "MB", ["shelf", "bare Bun.serve"])}   (each side: the server's process and this one)`);

  const tus = await benchTusUpload();
  console.log(
    `\n(r) resumable upload (tus) of ${fmt(tus.sizeMB, 0)} MB in 8 MiB PATCHes to ${tus.storage} storage, against POST /v1/videos of the same bytes; the api in its own process`,
  );
  console.log(`    tus                    ${fmt(tus.tusMBs, 0)} MB/s`);
  console.log(`    direct multipart       ${fmt(tus.directMBs, 0)} MB/s`);
  console.log(`    ratio                  ${fmt(tus.ratio, 3)} (${fmt(tus.low, 2)}-${fmt(tus.high, 2)}, ${tus.passes} passes)`);
  console.log(`    api RSS                ${fmt(tus.idleMB, 0)} MB idle, ${fmt(tus.peakMB, 0)} MB peak during the tus upload`);
  cost(tus, "MB", ["tus", "multipart"]);

  const tr = await benchTranscode(shelf);
  console.log(`\n(q) local provider transcode of a 60 s 1080p clip (${tr.rungs}, MP4, thumbnail), against the same ffmpeg runs by hand`);
  console.log(`    shelf worker step      ${fmt(tr.shelfS, 1)} s`);
  console.log(`    ffmpeg by hand         ${fmt(tr.byHandS, 1)} s   (mean of a run before and one after: ${tr.byHandRuns.map((x) => fmt(x, 1)).join(", ")} s)`);
  console.log(`    ratio                  ${fmt(tr.ratio, 3)}   (time; 1.0 = no overhead)`);
  cost(tr, "transcode", ["worker", "by hand"]);

  const health = await benchHealth(shelf);
  console.log("\n(d) GET /health (liveness: no part touched), 32 connections from a separate process");
  console.log(`    shelf /health          ${fmt(health.subject, 0)} requests/s`);
  console.log(`    bare Bun.serve         ${fmt(health.baseline, 0)} requests/s`);
  console.log(`    ratio                  ${ratioText(health)}`);
  cost(health, "req");

  await printMcp();

  const docs = await benchDocs(shelf);
  console.log(`\n(i) POST /v1/docs, ${fmt(docs.size / 1024, 0)} KB of Markdown with 20 inline JPEGs (rewriteImages), one at a time`);
  console.log(`    shelf, rewriting       ${fmt(docs.subject, 2)} documents/s`);
  console.log(`    20 POST /v1/images + the text   ${fmt(docs.baseline, 2)} documents/s`);
  console.log(`    ratio                  ${ratioText(docs)}`);
  cost(docs, "document", ["shelf", "uploads and text"]);
} finally {
  await shelf.stop();
}

// Its own server: exports unlimited a day, and the files of its accounts.
printExport(await benchExport());

// Its own server: the tiers' limits and the sync-op bucket raised so the load measures the routes, not the limits.
const kbShelf = await startShelf(UNLIMITED_SYNC);
try {
  const kbs = await benchKbs(kbShelf);
  const ms = (n: number) => `${fmt(n, 1)} ms`;
  const cpuText = (x: KbFigures) =>
    `this process: shelf ${fmt(x.subjectCpuMs, 2)} ms, handler ${fmt(x.baselineCpuMs, 2)} ms` +
    (x.subjectServersCpuMs === null || x.baselineServersCpuMs === null
      ? ""
      : `; Postgres and Redis: ${fmt(x.subjectServersCpuMs, 2)} ms, ${fmt(x.baselineServersCpuMs, 2)} ms`);
  console.log(`\n(j) GET /v1/kbs/:id/manifest, pages of 1000 of 100,000 documents, 8 connections (${kbs.db})`);
  console.log(`    shelf                  ${fmt(kbs.manifest.subject, 1)} pages/s   p99 ${ms(kbs.manifest.subjectP99)}   (target p99 <= 50 ms)`);
  console.log(`    bare page query        ${fmt(kbs.manifest.baseline, 1)} pages/s   p99 ${ms(kbs.manifest.baselineP99)}`);
  console.log(`    ratio                  ${ratioText(kbs.manifest)}   (target >= 0.5)`);
  cost(kbs.manifest, "page", ["shelf", "bare query"]);
  console.log(
    `    hand-written Bun.serve ${fmt(kbs.manifestHandler.baseline, 1)} pages/s   p99 ${ms(kbs.manifestHandler.baselineP99)}   (bench/manifest-baseline.ts; shelf ${fmt(kbs.manifestHandler.subject, 1)} pages/s, p99 ${ms(kbs.manifestHandler.subjectP99)})`,
  );
  console.log(`    ratio to the handler   ${ratioText(kbs.manifestHandler)}   (target >= 1.0, p99 within 1.2x)`);
  console.log(`    CPU per page           ${cpuText(kbs.manifestHandler)}`);
  cost(kbs.manifestHandler, "page", ["shelf", "handler"]);
  const push = kbs.push;
  if (push) {
    console.log(`\n(k) POST /v1/kbs/:id/sync, 100 upserts of 2 KiB a batch (half new, half updated), 4 users at once (${kbs.db})`);
    console.log(`    shelf                  ${fmt(push.subject, 2)} batches/s   p99 ${ms(push.subjectP99)}`);
    console.log(`    bare upserts           ${fmt(push.baseline, 2)} batches/s   p99 ${ms(push.baselineP99)}`);
    console.log(`    ratio                  ${ratioText(push)}   (target >= 0.4)`);
    cost(push, "batch", ["shelf", "bare upserts"]);
  }
  const v2 = await benchKbsV2(kbShelf);
  console.log(
    `\n(l) GET /v1/kbs/:id/manifest v2 from a since cursor with include=tombstones, pages of 1000 of 100,000 documents and 1000 tombstones, 8 connections (${v2.db})`,
  );
  console.log(`    shelf                  ${fmt(v2.manifest.subject, 1)} pages/s   p99 ${ms(v2.manifest.subjectP99)}   (target p99 <= 50 ms)`);
  console.log(`    bare page and tombstone queries   ${fmt(v2.manifest.baseline, 1)} pages/s   p99 ${ms(v2.manifest.baselineP99)}`);
  console.log(`    ratio                  ${ratioText(v2.manifest)}   (target >= 0.5)`);
  cost(v2.manifest, "page", ["shelf", "bare queries"]);
  console.log(`\n(m) POST /v1/kbs/:id/sync v2, 200 upserts of 2 KiB a batch (half new, half updated), 4 users at once (${v2.db})`);
  console.log(`    shelf                  ${fmt(v2.push.subject, 2)} batches/s   p99 ${ms(v2.push.subjectP99)}   (target p99 <= 50 ms)`);
  console.log(`    bare upserts           ${fmt(v2.push.baseline, 2)} batches/s   p99 ${ms(v2.push.baselineP99)}`);
  console.log(`    ratio                  ${ratioText(v2.push)}   (target >= 0.4)`);
  cost(v2.push, "batch", ["shelf", "bare upserts"]);
  const folder = await benchSyncFolder(kbShelf);
  console.log(`\n(n) shelf sync of a folder of ${folder.notes} notes of ~1 KB (${folder.db})`);
  console.log(
    `    first push             ${fmt(folder.firstPush, 2)} s in ${folder.firstRequests} requests   (bare SQL of the same rows, 200 a statement: ${fmt(folder.bare, 2)} s)`,
  );
  cost(folder, "note", ["first push", "bare SQL"]);
  console.log(`    no-change sync         ${fmt(folder.idle * 1000, 1)} ms in ${folder.idleRequests} request(s)   (target: one 304)`);
  console.log(`    second folder's pull   ${fmt(folder.pull, 2)} s in ${folder.pullRequests} requests`);
  await printVaultSync(kbShelf);
} finally {
  await kbShelf.stop();
}

const lists = await benchLists();
console.log(`\n(c) images list, 20 a page (${lists.db}): medians in ms over interleaved rounds`);
console.log(
  `    first page             ${fmt(lists.first.small, 2)} ms at 100 images  ${fmt(lists.first.big, 2)} ms at 100,000  ratio ${fmt(lists.first.ratio, 2)}   (target <= 1.5)`,
);
console.log(
  `    page ~50% in           ${fmt(lists.deep.small, 2)} ms at 100 images  ${fmt(lists.deep.big, 2)} ms at 100,000  ratio ${fmt(lists.deep.ratio, 2)}   (target <= 1.5)`,
);
const [before, after] = lists.beside.alone!;
console.log(
  `    100-image library      ${fmt(lists.beside.small, 2)} ms alone (${fmt(before, 2)} before, ${fmt(after, 2)} after)  ${fmt(lists.beside.big, 2)} ms beside 100,000  ratio ${fmt(lists.beside.ratio, 2)}   (target <= 1.5)`,
);

await benchLimiter(process.env.REDIS_URL);

const list = await benchList();
console.log(`\n(g) GET /v1/images?limit=20 with an API key (${list.db}, ${list.kv} kv), 16 connections from a separate process`);
console.log(`    shelf                  ${fmt(list.subject, 0)} requests/s`);
console.log(`    Bun.serve + driver     ${fmt(list.baseline, 0)} requests/s   (key by hash, one window call, a 20-row page and the total; same body)`);
console.log(`    ratio                  ${ratioText(list)}   (target >= 0.80)`);
cost(list, "req", ["shelf", "hand-written"]);

await printBinary();
await printEmbeddedLists();
