// (x) The metrics' cost on the hot path: a cached edge GET of an ~18 KB WebP from a node
// with metrics on (METRICS_TOKEN: every request counted by route and status class, the
// edge's lookup and bytes by kind) against the same GET from a node with them off, both
// in this process, passes interleaved. The small image is the edge's fastest answer, where
// a fixed cost per request weighs most. Over HTTP on a shared 2-core machine one pass
// moves by a third, so the same hit is also measured in process: the edge's own handler
// (the Bun route a listening node runs) called in a loop, on and off in turn, timed by
// this process's CPU time: the difference is the metrics' CPU alone. `bun bench/metrics.ts` alone; `make bench` too.
import { startApiNode } from "./api-node.ts";
import { costText, inProcess, loadText, measuredInterleave, runText } from "./cpu.ts";
import { imageOfAbout } from "./edge.ts";
import { cpuPerCall, edgeRoute } from "./edge-hit-cpu.ts";
import { httpPass } from "./http-load.ts";
import { interleave, ratioText } from "./passes.ts";
import { type Shelf, startShelf } from "./server.ts";

const ACCEPT = "image/avif,image/webp,image/apng,image/*,*/*;q=0.8";
const fmt = (n: number, d = 1) => n.toFixed(d);

const handlers = new WeakMap<Shelf, ReturnType<typeof edgeRoute>>();

/** Cached hits per second of CPU through the edge's Bun route handler of an app on `shelf`'s parts. */
async function hitsPerSecond(shelf: Shelf, url: string, calls = 100_000): Promise<number> {
  let handler = handlers.get(shelf);
  if (!handler) handlers.set(shelf, (handler = edgeRoute(shelf.deps)));
  return 1e6 / (await cpuPerCall(handler, url, calls, ACCEPT));
}

/** A shelf api in a process of its own (bench/api-node.ts), with metrics on or off. */
async function apiProcess(metrics: boolean) {
  const node = await startApiNode({ env: { METRICS_TOKEN: metrics ? "bench-metrics-token-0123456789" : "" } });
  const shelf = { origin: node.origin, key: node.key, edgeUrl: (url: string) => `${node.origin}${new URL(url).pathname}` } as Shelf;
  return {
    shelf,
    /** The process's CPU time so far (user and system), in seconds. */
    cpuSeconds: () => node.cpu.read() / 1000,
    stop: node.stop,
  };
}

/** Requests the server answered per second of its own CPU, under the same load as httpPass. */
async function requestsPerCpuSecond(api: Awaited<ReturnType<typeof apiProcess>>, url: string): Promise<number> {
  const before = api.cpuSeconds();
  const proc = Bun.spawn(["bun", `${import.meta.dir}/load.ts`, url, "3", "32", ACCEPT], { stdout: "pipe", stderr: "inherit" });
  const out = await new Response(proc.stdout).text();
  if ((await proc.exited) !== 0) throw new Error(`load generator failed: ${out}`);
  const run = JSON.parse(out) as { requests: number; errors: number };
  if (run.errors) throw new Error(`${run.errors} requests to ${url} did not answer 200`);
  return run.requests / (api.cpuSeconds() - before);
}

/**
 * Over HTTP, each node in a process of its own: requests per second of that process's
 * CPU (from /proc, in hundredths of a second), which other work on the machine moves far
 * less than requests per second of the wall clock.
 */
async function printMetricsCpu(passes = 5) {
  const [on, off] = await Promise.all([apiProcess(true), apiProcess(false)]);
  try {
    const [counted, bare] = await Promise.all([imageOfAbout(on.shelf, 18 * 1024), imageOfAbout(off.shelf, 18 * 1024)]);
    const run = await interleave(
      passes,
      () => requestsPerCpuSecond(on, counted.url),
      () => requestsPerCpuSecond(off, bare.url),
    );
    console.log("    over HTTP, each node in a process of its own, per second of the server process's CPU");
    console.log(`    metrics on             ${fmt(run.subject, 0)} requests/s   (${fmt(1e6 / run.subject, 1)} us of CPU each)`);
    console.log(`    metrics off            ${fmt(run.baseline, 0)} requests/s   (${fmt(1e6 / run.baseline, 1)} us of CPU each)`);
    console.log(`    ratio                  ${ratioText(run)}   (target >= 0.97)`);
  } finally {
    await Promise.all([on.stop(), off.stop()]);
  }
}

export async function printMetricsCost(off: Shelf, passes = 5) {
  const on = await startShelf({ METRICS_TOKEN: "bench-metrics-token-0123456789" });
  try {
    const [counted, bare] = await Promise.all([imageOfAbout(on, 18 * 1024), imageOfAbout(off, 18 * 1024)]);
    const opts = { accept: ACCEPT, seconds: 3 };
    const run = await measuredInterleave(
      passes,
      { run: () => httpPass(counted.url, opts), cpu: inProcess() },
      { run: () => httpPass(bare.url, opts), cpu: inProcess() },
    );
    console.log(`\n(x) metrics on the hot path: a cached edge GET of a ${fmt(counted.bytes.length / 1024)} KB WebP, 32 connections from a separate process`);
    console.log(`    metrics on             ${fmt(run.subject, 0)} requests/s`);
    console.log(`    metrics off            ${fmt(run.baseline, 0)} requests/s`);
    console.log(`    ratio                  ${ratioText(run)}   (target >= 0.97)`);
    console.log(`    ${costText(run.cpu, "req", ["on", "off"])}   (both nodes in this process), ${loadText(run.load)}`);
    const handlerRun = await interleave(
      passes * 2,
      async () => hitsPerSecond(on, counted.url),
      async () => hitsPerSecond(off, bare.url),
    );
    console.log("    the edge's handler called in process (no network), the same hit, per second of this process's CPU");
    console.log(`    metrics on             ${fmt(handlerRun.subject, 0)} hits/s   (${fmt(1e6 / handlerRun.subject, 2)} us of CPU each)`);
    console.log(`    metrics off            ${fmt(handlerRun.baseline, 0)} hits/s   (${fmt(1e6 / handlerRun.baseline, 2)} us of CPU each)`);
    console.log(`    ratio                  ${ratioText(handlerRun)}   (target >= 0.97)`);
  } finally {
    await on.stop();
  }
  await printMetricsCpu(passes);
}

if (import.meta.main) {
  console.log(runText());
  const shelf = await startShelf();
  try {
    await printMetricsCost(shelf);
  } finally {
    await shelf.stop();
  }
}
