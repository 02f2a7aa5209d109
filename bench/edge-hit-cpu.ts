// The CPU of a cached edge hit in JavaScript, two comparisons: the edge's Bun route handler
// (the one a listening node runs) called in a loop in this process, passes interleaved,
// timed by this process's CPU time (other work on the machine takes the cores away, not
// CPU time). What sending a Response costs is not in it (bench/edge-nginx.ts measures the
// node whole).
//   - the access line: an app with ACCESS_LOG=info against one with it off, on the same
//     parts; the lines go through the log's own batching (src/infra/log-buffer.ts) to
//     /dev/null, so the figure holds building a line, gathering it and its share of a write;
//   - a cached variant (`?w=640`) against the cached WebP of an original of about its size.
//
//   bun bench/edge-hit-cpu.ts [passes]
import { openSync } from "node:fs";
import { loadavg } from "node:os";
import { createLog } from "../src/infra/log.ts";
import { lineBuffer, writeAll } from "../src/infra/log-buffer.ts";
import { createApp } from "../src/wiring/app.ts";
import { createServices } from "../src/wiring/services.ts";
import { imageOfAbout } from "./edge.ts";
import { median } from "./passes.ts";
import { photoLike } from "./photos.ts";
import { type Shelf, startShelf } from "./server.ts";

const ACCEPT = "image/webp,*/*";
type Handler = (request: Request) => Response | Promise<Response>;

/** The edge's Bun route of an app on `shelf`'s parts, its access line on or off, its lines to /dev/null in batches. */
function edgeHandler(shelf: Shelf, on: boolean): Handler {
  const devNull = openSync("/dev/null", "w");
  const batches = lineBuffer((text) => writeAll(devNull, text));
  const log = createLog("info", {}, (line) => batches.write(line));
  const deps = { ...shelf.deps, log, config: { ...shelf.deps.config, ACCESS_LOG: on ? ("info" as const) : ("off" as const) } };
  return edgeRoute(deps);
}

/** The media edge's Bun route handler of an app built on `deps` (what serves MEDIA_URL/*, no Elysia in front). */
export function edgeRoute(deps: Shelf["deps"]): Handler {
  const app = createApp(createServices(deps));
  const routes = (app.config.serve as { routes: Record<string, Handler> }).routes;
  return Object.entries(routes).find(([path]) => path.endsWith("/*"))![1];
}

/**
 * Microseconds of this process's CPU per call of `handler` on `url` (its first answer, which
 * fills the caches, left out): CPU time, not the wall clock, so that other work on the
 * machine taking the cores away between calls does not count.
 */
export async function cpuPerCall(handler: Handler, url: string, calls: number, accept = ACCEPT): Promise<number> {
  const request = new Request(url, { headers: { accept } });
  if ((await handler(request)).status !== 200) throw new Error("the edge did not answer 200");
  const before = process.cpuUsage();
  for (let i = 0; i < calls; i++) {
    const res = handler(request);
    if (res instanceof Promise) await res;
  }
  const used = process.cpuUsage(before);
  return (used.user + used.system) / calls;
}

/** The access line's CPU per cached hit: each side's microseconds per call (medians) and the per-pass differences. */
export async function benchAccessLine(passes = 5, calls = 200_000) {
  const shelf = await startShelf();
  try {
    const { url } = await imageOfAbout(shelf, 14 * 1024);
    const on = edgeHandler(shelf, true);
    const off = edgeHandler(shelf, false);
    await cpuPerCall(off, url, calls);
    await cpuPerCall(on, url, calls);
    const rows: { on: number; off: number; load: number }[] = [];
    for (let i = 0; i < passes; i++) {
      const load = loadavg()[0]!;
      const o = await cpuPerCall(off, url, calls);
      rows.push({ off: o, on: await cpuPerCall(on, url, calls), load });
    }
    return {
      on: median(rows.map((r) => r.on)),
      off: median(rows.map((r) => r.off)),
      line: median(rows.map((r) => r.on - r.off)),
      lineRange: [Math.min(...rows.map((r) => r.on - r.off)), Math.max(...rows.map((r) => r.on - r.off))],
      loads: rows.map((r) => r.load),
    };
  } finally {
    await shelf.stop();
  }
}

/** A cached variant's CPU per hit against a cached original's of about its size, through one app. */
export async function benchVariantHit(passes = 5, calls = 200_000) {
  const shelf = await startShelf();
  try {
    const form = new FormData();
    form.append("file", new Blob([(await photoLike(3000, 2000)) as BlobPart], { type: "image/jpeg" }), "big.jpg");
    const res = await fetch(`${shelf.origin}/v1/images`, { method: "POST", headers: { authorization: `Bearer ${shelf.key}` }, body: form });
    const variant = `${shelf.edgeUrl(((await res.json()) as { data: { url: string } }).data.url)}?w=640`;
    const original = await imageOfAbout(shelf, 58 * 1024);
    const handler = edgeHandler(shelf, false);
    await cpuPerCall(handler, variant, calls);
    await cpuPerCall(handler, original.url, calls);
    const rows: { variant: number; original: number; load: number }[] = [];
    for (let i = 0; i < passes; i++) {
      const load = loadavg()[0]!;
      const o = await cpuPerCall(handler, original.url, calls);
      rows.push({ original: o, variant: await cpuPerCall(handler, variant, calls), load });
    }
    return {
      variant: median(rows.map((r) => r.variant)),
      original: median(rows.map((r) => r.original)),
      extra: median(rows.map((r) => r.variant - r.original)),
      loads: rows.map((r) => r.load),
    };
  } finally {
    await shelf.stop();
  }
}

if (import.meta.main) {
  const passes = Number(Bun.argv[2] ?? 5);
  const r = await benchAccessLine(passes);
  const f = (n: number, d = 2) => n.toFixed(d);
  console.log(`access line on a cached 14 KB edge hit, the edge's route handler in process, ${passes} interleaved passes of 200,000 calls`);
  console.log(`  load average ${f(Math.min(...r.loads))}-${f(Math.max(...r.loads))}`);
  console.log(`  CPU per hit, line on ${f(r.on)} us, off ${f(r.off)} us; the line ${f(r.line)} us (${f(r.lineRange[0]!)}-${f(r.lineRange[1]!)})`);
  const v = await benchVariantHit(passes);
  console.log(`cached variant ?w=640 against a cached original of about its size, the same handler, ${passes} interleaved passes`);
  console.log(`  load average ${f(Math.min(...v.loads))}-${f(Math.max(...v.loads))}`);
  console.log(`  CPU per hit, variant ${f(v.variant)} us, original ${f(v.original)} us; the variant's extra ${f(v.extra)} us`);
}
