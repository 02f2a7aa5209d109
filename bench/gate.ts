// `make bench-gate` (bun bench/gate.ts): a quick set of comparisons whose CPU-per-request
// ratio holds steady on a busy 2-core machine, each against the ratio last recorded in
// bench/baselines/ratios.json; exits 1 when one falls more than the file's margin below
// it (bench/gate-check.ts). `bun bench/gate.ts --record` measures and rewrites the ratios
// (the margin is kept): after an intended change of cost, or a new baseline.
//   list      (g) GET /v1/images with an API key against the hand-written Bun.serve + driver
//   edge      (b) a cached ~18 KB WebP at the edge against a Bun static route of the same bytes
//   health    (d) GET /health against a bare Bun.serve answering the same JSON
//   manifest  (j) KB manifest pages of 1000 of 20,000 against the hand-written handler (bench/manifest-baseline.ts)
// The ratio is the baseline's CPU per request over shelf's (bench/cpu.ts): both sides
// listen in this process and the load comes from another, so other work on the machine
// moves the rates far more than it moves this. A comparison that falls below its floor is
// measured once more and judged on the better of its two runs: a regression falls twice.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { commandText, costText, loadText, type Measured, runText } from "./cpu.ts";
import { benchEdge } from "./edge.ts";
import { failed, judge, type RecordedRatios } from "./gate-check.ts";
import { benchHealth } from "./health.ts";
import { benchManifestHandler } from "./kbs.ts";
import { benchList } from "./list-baseline.ts";
import { ratioText } from "./passes.ts";
import { startShelf, UNLIMITED_SYNC } from "./server.ts";

const FILE = join(import.meta.dir, "baselines/ratios.json");
const PASSES = 5;
const SECONDS = 1.5;
/** The margin a new file starts with (the spread seen over runs: docs/benchmarks.md, "The gate"). */
const DEFAULT_MARGIN = 0.25;

/** A comparison on a server of its own, started and stopped around it. */
async function onShelf<T>(env: Record<string, string>, run: (shelf: Awaited<ReturnType<typeof startShelf>>) => Promise<T>) {
  const shelf = await startShelf(env);
  try {
    return await run(shelf);
  } finally {
    await shelf.stop();
  }
}

const comparisons: Record<string, { what: string; run: () => Promise<Measured> }> = {
  list: { what: "(g) GET /v1/images, 16 connections, against Bun.serve + driver", run: () => benchList(PASSES, SECONDS) },
  edge: {
    what: "(b) edge GET of an ~18 KB WebP, 32 connections, against a Bun static route",
    run: () => onShelf({}, (s) => benchEdge(s, 18 * 1024, PASSES, SECONDS)),
  },
  health: { what: "(d) GET /health, 32 connections, against a bare Bun.serve", run: () => onShelf({}, (s) => benchHealth(s, PASSES, SECONDS)) },
  manifest: {
    what: "(j) manifest pages of 1000 of 20,000, 8 connections, against the hand-written handler",
    run: () => onShelf(UNLIMITED_SYNC, (s) => benchManifestHandler(s, { passes: PASSES, seconds: SECONDS, docs: 20_000 })),
  },
};

function print(name: string, m: Measured, seconds: number) {
  console.log(`${name.padEnd(9)} ${comparisons[name]!.what} (${seconds.toFixed(0)} s)`);
  console.log(`          rate ratio ${ratioText(m)}; ${costText(m.cpu)}; ${loadText(m.load)}`);
}

const readRecorded = (): RecordedRatios | null => {
  try {
    return JSON.parse(readFileSync(FILE, "utf8")) as RecordedRatios;
  } catch {
    return null;
  }
};

const record = Bun.argv.includes("--record");
const started = performance.now();
console.log(runText());
const measured: Record<string, Measured> = {};
for (const name of Object.keys(comparisons)) {
  const t0 = performance.now();
  measured[name] = await comparisons[name]!.run();
  print(name, measured[name], (performance.now() - t0) / 1000);
}
const ratios = () => Object.fromEntries(Object.entries(measured).map(([name, m]) => [name, m.cpu.ratio]));
const loads = Object.values(measured).map((m) => m.load);
const load = loadText({ low: Math.min(...loads.map((l) => l.low)), high: Math.max(...loads.map((l) => l.high)) });

const previous = readRecorded();
if (record) {
  const file: RecordedRatios = {
    margin: previous?.margin ?? DEFAULT_MARGIN,
    recorded: { at: new Date().toISOString(), command: commandText(), load },
    ratios: Object.fromEntries(Object.entries(ratios()).map(([k, v]) => [k, Number(v.toFixed(3))])),
  };
  writeFileSync(FILE, `${JSON.stringify(file, null, 2)}\n`);
  console.log(`\nrecorded in bench/baselines/ratios.json (${load}, ${((performance.now() - started) / 1000).toFixed(0)} s)`);
  process.exit(0);
}
if (!previous) {
  console.log("\nno bench/baselines/ratios.json: bun bench/gate.ts --record makes it");
  process.exit(1);
}
// A comparison under its floor once more: the better of its two runs is judged.
for (const name of failed(judge(previous.ratios, ratios(), previous.margin))) {
  if (!comparisons[name]) continue;
  console.log(`${name}: under its floor, measured once more`);
  const t0 = performance.now();
  const again = await comparisons[name].run();
  print(name, again, (performance.now() - t0) / 1000);
  if (again.cpu.ratio > measured[name]!.cpu.ratio) measured[name] = again;
}
const verdicts = judge(previous.ratios, ratios(), previous.margin);
console.log(
  `\nCPU-per-request ratios (baseline / shelf) against bench/baselines/ratios.json (${previous.recorded.at}, ${previous.recorded.load}), margin ${previous.margin}`,
);
for (const v of verdicts) {
  const n = (x: number | null) => (x === null ? "-" : x.toFixed(3));
  console.log(`  ${v.ok ? "ok  " : "FAIL"} ${v.name.padEnd(9)} recorded ${n(v.recorded)}  measured ${n(v.measured)}  ${v.why}`);
}
const bad = failed(verdicts);
console.log(`bench gate: ${bad.length ? `FAILED (${bad.join(", ")})` : "ok"}, ${load}, ${((performance.now() - started) / 1000).toFixed(0)} s`);
process.exit(bad.length ? 1 : 0);
