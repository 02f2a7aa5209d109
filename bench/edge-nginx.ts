// (t) The media edge against nginx and a Bun static route, measured with wrk (a C client
// that leaves the cores to the servers): a cached WebP of ~14 KB and of ~280 KB, the same
// bytes and headers from each, 32 connections, passes interleaved, the load average
// printed beside each pass.
//
//   bun bench/edge-nginx.ts [passes]       needs nginx and wrk (Debian: apt-get install nginx wrk)
//
// The baselines: bench/baselines/nginx-edge.conf (nginx 1.22, one worker, sendfile) and a
// Bun.serve static route holding the bytes (Bun answers it without entering JavaScript),
// and beside it the least a JavaScript route can do for the same answer.
// The shelf node runs in this process on embedded parts, like the rest of `make bench`.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { imageOfAbout } from "./edge.ts";
import { median } from "./passes.ts";
import { startShelf } from "./server.ts";

const ACCEPT = "image/avif,image/webp,image/apng,image/*,*/*;q=0.8";
const SECONDS = 3;
const CONNECTIONS = 32;

function freePort(): number {
  const s = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { data() {} } });
  const port = s.port;
  s.stop(true);
  return port;
}

/** wrk's requests per second on `url` (1 thread: the other core stays with the server). */
async function wrk(url: string): Promise<number> {
  const proc = Bun.spawn(["wrk", "-t1", `-c${CONNECTIONS}`, `-d${SECONDS}s`, "-H", `accept: ${ACCEPT}`, url], { stdout: "pipe", stderr: "inherit" });
  const out = await new Response(proc.stdout).text();
  if ((await proc.exited) !== 0) throw new Error(`wrk failed: ${out}`);
  if (/Non-2xx/.test(out)) throw new Error(`wrk saw errors on ${url}:\n${out}`);
  return Number(/Requests\/sec:\s+([\d.]+)/.exec(out)![1]);
}

/** nginx from bench/baselines/nginx-edge.conf, serving `bytes` at /media/x.webp with `headers`. */
async function startNginx(bytes: Uint8Array, headers: Headers) {
  const root = mkdtempSync(join(tmpdir(), "shelf-nginx-"));
  mkdirSync(join(root, "www/media"), { recursive: true });
  mkdirSync(join(root, "tmp"));
  writeFileSync(join(root, "www/media/x.webp"), bytes);
  const port = freePort();
  const conf = readFileSync(new URL("./baselines/nginx-edge.conf", import.meta.url), "utf8")
    .replaceAll("@ROOT@", root)
    .replaceAll("@PORT@", String(port))
    .replace("@ETAG@", headers.get("etag")!)
    .replace("@CACHE_CONTROL@", headers.get("cache-control")!)
    .replace("@VARY@", headers.get("vary") ?? "Accept");
  writeFileSync(join(root, "nginx.conf"), conf);
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
    async stop() {
      proc.kill();
      await proc.exited;
      rmSync(root, { recursive: true, force: true });
    },
  };
}

export async function benchEdgeNginx(target: number, passes: number) {
  const shelf = await startShelf();
  try {
    const { url, bytes, headers } = await imageOfAbout(shelf, target);
    const same: Record<string, string> = {};
    for (const k of ["content-type", "etag", "cache-control", "vary", "accept-ranges", "x-content-type-options"]) same[k] = headers.get(k)!;
    const blob = new Blob([bytes as Uint8Array<ArrayBuffer>]);
    const whole = new Headers({ ...same, "content-length": String(bytes.length) });
    const bare = Bun.serve({
      port: 0,
      hostname: "127.0.0.1",
      routes: {
        "/media/x.webp": new Response(bytes, { headers: same }),
        // The least a JavaScript route can do for the same answer: the bytes and headers
        // made ready beforehand, and a request id. The ceiling of any edge written in
        // JavaScript on this Bun, beside the static route that never enters it.
        "/js/x.webp": (req) => {
          const res = new Response(blob, { headers: whole });
          res.headers.set("x-request-id", req.headers.get("x-request-id") ?? crypto.randomUUID());
          return res;
        },
      },
      fetch: () => new Response(null, { status: 404 }),
    });
    const nginx = await startNginx(bytes, headers);
    try {
      const subjects = { shelf: url, nginx: nginx.url, bun: `${bare.url.origin}/media/x.webp`, js: `${bare.url.origin}/js/x.webp` } as const;
      for (const u of Object.values(subjects)) await wrk(u); // warm-up
      const rows: { shelf: number; nginx: number; bun: number; js: number; load: number }[] = [];
      for (let i = 0; i < passes; i++) {
        const load = loadavg()[0]!;
        const n = await wrk(subjects.nginx);
        const b = await wrk(subjects.bun);
        const j = await wrk(subjects.js);
        const s = await wrk(subjects.shelf);
        rows.push({ shelf: s, nginx: n, bun: b, js: j, load });
      }
      return { bytes: bytes.length, rows };
    } finally {
      await nginx.stop();
      await bare.stop(true);
    }
  } finally {
    await shelf.stop();
  }
}

const fmt = (n: number, d = 2) => n.toFixed(d);
const range = (xs: number[]) => `${fmt(median(xs), 3)} (${fmt(Math.min(...xs))}-${fmt(Math.max(...xs))})`;

if (import.meta.main) {
  const passes = Number(Bun.argv[2] ?? 5);
  for (const target of [14 * 1024, 280 * 1024]) {
    const { bytes, rows } = await benchEdgeNginx(target, passes);
    console.log(`\n(t) edge GET of a cached WebP of ${fmt(bytes / 1024, 1)} KB, wrk -t1 -c${CONNECTIONS} -d${SECONDS}s, ${passes} interleaved passes`);
    for (const r of rows) {
      console.log(
        `    load ${fmt(r.load)}   nginx ${fmt(r.nginx, 0)}   Bun static ${fmt(r.bun, 0)}   minimal JS route ${fmt(r.js, 0)}   shelf ${fmt(r.shelf, 0)} req/s   shelf/nginx ${fmt(r.shelf / r.nginx, 3)}   shelf/Bun ${fmt(r.shelf / r.bun, 3)}`,
      );
    }
    console.log(`    shelf / nginx          ${range(rows.map((r) => r.shelf / r.nginx))}   (target >= 0.8)`);
    console.log(`    shelf / Bun static     ${range(rows.map((r) => r.shelf / r.bun))}   (target >= 0.9 at 14 KB)`);
    console.log(`    minimal JS / static    ${range(rows.map((r) => r.js / r.bun))}   (the ceiling of a route in JavaScript)`);
    console.log(`    shelf / minimal JS     ${range(rows.map((r) => r.shelf / r.js))}`);
    console.log(`    load average           ${fmt(Math.min(...rows.map((r) => r.load)))}-${fmt(Math.max(...rows.map((r) => r.load)))}`);
  }
}
