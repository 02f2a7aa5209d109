// (t) The media edge as deployed against nginx, measured with wrk (a C client that leaves
// the cores to the servers): a cached WebP of ~14 KB, ~180 KB and ~280 KB, the same bytes
// and headers from each, the same client and request headers for every side.
//
//   bun bench/edge-nginx.ts [passes] [KB,KB,...]    needs nginx and wrk (Debian: apt-get install nginx wrk)
//
// shelf runs as an operator runs it (bench/serve-process.ts): `shelf serve` in its own
// process with its defaults, the access log on as it ships, its stdout a pipe read to the
// end; nginx as bench/baselines/nginx-edge.conf has it (1.22, one worker, sendfile) with a
// buffered access log (`combined buffer=64k flush=1s`). Beside it the same with the log off
// on both sides (a second node with ACCESS_LOG=off, nginx `access_log off`). Each pass runs
// every subject in turn and prints the load average before it; each figure is the median
// of the passes with their range. Requests per second move by a third on a busy 2-core
// machine; the CPU time each server process spent per request (its utime and stime in
// /proc over the run, divided by the requests wrk counted) moves far less, so both are
// given. Last, a cached variant (`?w=640`) against a cached original of about its size on
// the deployed node.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { imageOfAbout } from "./edge.ts";
import { median } from "./passes.ts";
import { photoLike } from "./photos.ts";
import type { Shelf } from "./server.ts";
import { cpuSecondsOf, freePort, type ServeProcess, startServeProcess } from "./serve-process.ts";

const ACCEPT = "image/webp,*/*";
const SECONDS = 4;
const CONNECTIONS = 32;
export const SIZES = [14 * 1024, 180 * 1024, 280 * 1024];

/** One wrk run against one server process: its requests a second, and its CPU per request. */
export interface Run {
  rps: number;
  /** Microseconds of the server process's CPU (user and system) per request answered. */
  cpuUs: number;
}

/** wrk -t1 (the other core stays with the server) on `url`, and `pid`'s CPU time over the run. */
async function wrk(url: string, pid: number): Promise<Run> {
  const before = cpuSecondsOf(pid);
  const proc = Bun.spawn(["wrk", "-t1", `-c${CONNECTIONS}`, `-d${SECONDS}s`, "-H", `Accept: ${ACCEPT}`, url], { stdout: "pipe", stderr: "inherit" });
  const out = await new Response(proc.stdout).text();
  if ((await proc.exited) !== 0) throw new Error(`wrk failed: ${out}`);
  const cpu = cpuSecondsOf(pid) - before;
  if (/Non-2xx/.test(out)) throw new Error(`wrk saw errors on ${url}:\n${out}`);
  const requests = Number(/(\d+) requests in/.exec(out)![1]);
  return { rps: Number(/Requests\/sec:\s+([\d.]+)/.exec(out)![1]), cpuUs: (cpu * 1e6) / requests };
}

/** nginx from bench/baselines/nginx-edge.conf serving `bytes` at /media/x.webp with `headers`, its access log on or off. */
async function startNginx(bytes: Uint8Array, headers: Headers, accessLog: boolean) {
  const root = mkdtempSync(join(tmpdir(), "shelf-nginx-"));
  mkdirSync(join(root, "www/media"), { recursive: true });
  mkdirSync(join(root, "tmp"));
  writeFileSync(join(root, "www/media/x.webp"), bytes);
  const port = freePort();
  const conf = readFileSync(new URL("./baselines/nginx-edge.conf", import.meta.url), "utf8")
    .replaceAll("@ROOT@", root)
    .replaceAll("@PORT@", String(port))
    .replace("@ACCESS_LOG@", accessLog ? `${root}/access.log combined buffer=64k flush=1s` : "off")
    .replace("@ETAG@", headers.get("etag")!)
    .replace("@CACHE_CONTROL@", headers.get("cache-control")!)
    .replace("@VARY@", headers.get("vary") ?? "Accept");
  writeFileSync(join(root, "nginx.conf"), conf);
  // master_process off: the process spawned is the one that serves (its CPU is the server's).
  const proc = Bun.spawn(["nginx", "-p", root, "-c", join(root, "nginx.conf")], { stdout: "inherit", stderr: "inherit" });
  const url = `http://127.0.0.1:${port}/media/x.webp`;
  for (let i = 0; ; i++) {
    const ok = await fetch(url).then(
      (r) => r.status === 200,
      () => false,
    );
    if (ok) break;
    if (i > 200 || proc.exitCode !== null) throw new Error("nginx did not start");
    await Bun.sleep(20);
  }
  return {
    url,
    pid: proc.pid,
    async stop() {
      proc.kill();
      await proc.exited;
      rmSync(root, { recursive: true, force: true });
    },
  };
}

const asShelf = (node: ServeProcess) => ({ origin: node.origin, key: node.token, edgeUrl: node.edgeUrl }) as unknown as Shelf;

/** One pass of a size: each side with its log on, then each with it off, and the load average before it. */
export interface EdgePass {
  load: number;
  on: { shelf: Run; nginx: Run };
  off: { shelf: Run; nginx: Run };
}

/**
 * The deployed edge against nginx at each of `sizes`, `passes` passes each after a warm-up:
 * `on` has both access logs on (shelf's as it ships, nginx's buffered), `off` neither.
 */
export async function benchEdgeDeployed(passes: number, sizes = SIZES) {
  const [logged, quiet] = await Promise.all([startServeProcess(), startServeProcess({ ACCESS_LOG: "off" })]);
  try {
    const results: { bytes: number; passes: EdgePass[] }[] = [];
    for (const target of sizes) {
      const a = await imageOfAbout(asShelf(logged), target);
      const b = await imageOfAbout(asShelf(quiet), target);
      // Each nginx serves the bytes and headers of the node it is compared with.
      const [nginxOn, nginxOff] = await Promise.all([startNginx(a.bytes, a.headers, true), startNginx(b.bytes, b.headers, false)]);
      try {
        const subjects = {
          shelfOn: () => wrk(a.url, logged.pid),
          nginxOn: () => wrk(nginxOn.url, nginxOn.pid),
          shelfOff: () => wrk(b.url, quiet.pid),
          nginxOff: () => wrk(nginxOff.url, nginxOff.pid),
        };
        for (const run of Object.values(subjects)) await run(); // warm-up
        const rows: EdgePass[] = [];
        for (let i = 0; i < passes; i++) {
          const load = loadavg()[0]!;
          const nginxOnRun = await subjects.nginxOn();
          const shelfOnRun = await subjects.shelfOn();
          const nginxOffRun = await subjects.nginxOff();
          const shelfOffRun = await subjects.shelfOff();
          rows.push({ load, on: { shelf: shelfOnRun, nginx: nginxOnRun }, off: { shelf: shelfOffRun, nginx: nginxOffRun } });
        }
        results.push({ bytes: a.bytes.length, passes: rows });
      } finally {
        await Promise.all([nginxOn.stop(), nginxOff.stop()]);
      }
    }
    const variant = await variantAgainstOriginal(logged, passes);
    return { sizes: results, variant };
  } finally {
    await Promise.all([logged.stop(), quiet.stop()]);
  }
}

/** A cached variant (`?w=640`) against the cached WebP of another image of about its size, on the same deployed node. */
async function variantAgainstOriginal(node: ServeProcess, passes: number) {
  const form = new FormData();
  form.append("file", new Blob([(await photoLike(3000, 2000)) as BlobPart], { type: "image/jpeg" }), "big.jpg");
  const res = await fetch(`${node.origin}/v1/images`, { method: "POST", headers: { authorization: `Bearer ${node.token}` }, body: form });
  if (res.status !== 201) throw new Error(`upload failed: ${res.status}`);
  const variantUrl = `${node.edgeUrl(((await res.json()) as { data: { url: string } }).data.url)}?w=640`;
  const made = await fetch(variantUrl, { headers: { accept: ACCEPT } });
  if (made.status !== 200) throw new Error(`variant: ${made.status}`);
  const variantBytes = (await made.arrayBuffer()).byteLength;
  const original = await imageOfAbout(asShelf(node), variantBytes);
  await wrk(variantUrl, node.pid);
  await wrk(original.url, node.pid);
  const rows: { load: number; variant: Run; original: Run }[] = [];
  for (let i = 0; i < passes; i++) {
    const load = loadavg()[0]!;
    const o = await wrk(original.url, node.pid);
    const v = await wrk(variantUrl, node.pid);
    rows.push({ load, variant: v, original: o });
  }
  return { variantBytes, originalBytes: original.bytes.length, passes: rows };
}

const fmt = (n: number, d = 2) => n.toFixed(d);
/** "0.912 (0.85-0.97)": the median of the per-pass figures and their range. */
const spread = (xs: number[], d = 3) => `${fmt(median(xs), d)} (${fmt(Math.min(...xs), d === 3 ? 2 : d)}-${fmt(Math.max(...xs), d === 3 ? 2 : d)})`;

/** The lines of one comparison: requests a second and CPU per request of each side, and their ratios. */
function compare(label: string, rows: { subject: Run; baseline: Run }[], names: [string, string]): string[] {
  const [s, b] = names;
  return [
    `  ${label}`,
    `    ${s} / ${b}, requests/s              ${spread(rows.map((r) => r.subject.rps / r.baseline.rps))}   (${fmt(median(rows.map((r) => r.subject.rps)), 0)} against ${fmt(median(rows.map((r) => r.baseline.rps)), 0)})`,
    `    CPU per request, ${s}; ${b}      ${spread(
      rows.map((r) => r.subject.cpuUs),
      1,
    )} us; ${spread(
      rows.map((r) => r.baseline.cpuUs),
      1,
    )} us`,
    `    ${b}'s CPU per request / ${s}'s     ${spread(rows.map((r) => r.baseline.cpuUs / r.subject.cpuUs))}   (1.0: as cheap as ${b})`,
  ];
}

const loads = (xs: { load: number }[]) => `load average ${fmt(Math.min(...xs.map((r) => r.load)))}-${fmt(Math.max(...xs.map((r) => r.load)))}`;

if (import.meta.main) {
  const passes = Number(Bun.argv[2] ?? 3);
  const command = `bun bench/edge-nginx.ts ${Bun.argv.slice(2).join(" ")}`.trim();
  const { sizes, variant } = await benchEdgeDeployed(passes, Bun.argv[3] ? Bun.argv[3].split(",").map((kb) => Number(kb) * 1024) : SIZES);
  console.log(`\n(t) ${command}: wrk -t1 -c${CONNECTIONS} -d${SECONDS}s -H 'Accept: ${ACCEPT}', ${passes} interleaved passes, medians (ranges)`);
  for (const { bytes, passes: rows } of sizes) {
    console.log(`\n  WebP of ${fmt(bytes / 1024, 1)} KB, ${loads(rows)}`);
    for (const r of rows)
      console.log(
        `    pass at load ${fmt(r.load)}: log on: shelf ${fmt(r.on.shelf.rps, 0)}, nginx ${fmt(r.on.nginx.rps, 0)} req/s; log off: shelf ${fmt(r.off.shelf.rps, 0)}, nginx ${fmt(r.off.nginx.rps, 0)} req/s`,
      );
    for (const line of compare(
      "access logs on (as deployed)",
      rows.map((r) => ({ subject: r.on.shelf, baseline: r.on.nginx })),
      ["shelf", "nginx"],
    ))
      console.log(line);
    for (const line of compare(
      "access logs off",
      rows.map((r) => ({ subject: r.off.shelf, baseline: r.off.nginx })),
      ["shelf", "nginx"],
    ))
      console.log(line);
    console.log(`    shelf log on / off, CPU per request     ${spread(rows.map((r) => r.on.shelf.cpuUs / r.off.shelf.cpuUs))}   (the line's cost)`);
  }
  console.log(
    `\n  cached variant ?w=640 (${fmt(variant.variantBytes / 1024, 1)} KB) against a cached original (${fmt(variant.originalBytes / 1024, 1)} KB), same deployed node, ${loads(variant.passes)}`,
  );
  for (const line of compare(
    "",
    variant.passes.map((r) => ({ subject: r.variant, baseline: r.original })),
    ["variant", "original"],
  ).slice(1))
    console.log(line);
}
