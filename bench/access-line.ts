// What the access line costs a cached edge hit, in CPU: the edge's Bun route handler (the
// one a listening node runs) of an app with ACCESS_LOG=info against one with it off, on
// the same parts, called in a loop in this process, passes interleaved, timed by this
// process's CPU time (other work on the machine takes the cores away, not CPU time). The
// lines go through the log's own batching (src/infra/log-buffer.ts) to /dev/null, so the
// figure holds building the line, gathering it and its share of a batch's write; what
// sending a Response costs is not in it (bench/edge-nginx.ts measures the node whole).
//
//   bun bench/access-line.ts [passes]
import { openSync } from "node:fs";
import { loadavg } from "node:os";
import { createLog } from "../src/infra/log.ts";
import { lineBuffer, writeAll } from "../src/infra/log-buffer.ts";
import { createApp } from "../src/wiring/app.ts";
import { createServices } from "../src/wiring/services.ts";
import { imageOfAbout } from "./edge.ts";
import { median } from "./passes.ts";
import { type Shelf, startShelf } from "./server.ts";

const ACCEPT = "image/webp,*/*";
type Handler = (request: Request) => Response | Promise<Response>;

/** The edge's Bun route of an app on `shelf`'s parts, its access line on or off, its lines to /dev/null in batches. */
function edgeHandler(shelf: Shelf, on: boolean): Handler {
  const devNull = openSync("/dev/null", "w");
  const batches = lineBuffer((text) => writeAll(devNull, text));
  const log = createLog("info", {}, (line) => batches.write(line));
  const deps = { ...shelf.deps, log, config: { ...shelf.deps.config, ACCESS_LOG: on ? ("info" as const) : ("off" as const) } };
  const app = createApp(createServices(deps));
  const routes = (app.config.serve as { routes: Record<string, Handler> }).routes;
  return Object.entries(routes).find(([path]) => path.endsWith("/*"))![1];
}

/** Microseconds of this process's CPU per call of `handler` on `url`. */
async function cpuPerCall(handler: Handler, url: string, calls: number): Promise<number> {
  const request = new Request(url, { headers: { accept: ACCEPT } });
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

if (import.meta.main) {
  const passes = Number(Bun.argv[2] ?? 5);
  const r = await benchAccessLine(passes);
  const f = (n: number, d = 2) => n.toFixed(d);
  console.log(`access line on a cached 14 KB edge hit, the edge's route handler in process, ${passes} interleaved passes of 200,000 calls`);
  console.log(`  load average ${f(Math.min(...r.loads))}-${f(Math.max(...r.loads))}`);
  console.log(`  CPU per hit, line on ${f(r.on)} us, off ${f(r.off)} us; the line ${f(r.line)} us (${f(r.lineRange[0]!)}-${f(r.lineRange[1]!)})`);
}
