// (f) The compiled binary (dist/ from `make build`) on embedded parts, as an operator
// starts it: its size (executable + lib/), the time from spawn to GET /ready = 200 on a
// fresh DATA_DIR (first start: the database is created) and on a reused one (later
// starts), and its resident memory once started, after a few requests, idle.
//
//   bun bench/binary.ts [dist-dir]     (also section (f) of `make bench`)
//
// Targets (issue 10): first start < 2 s, later starts < 0.5 s. Start times move with what
// else the machine runs: the 1-minute load average before the starts is printed with them.
// SHELF_START_TRACE=1 on one start shows where its time goes (docs/operators.md, "Roles and the binary").
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { median } from "./passes.ts";

const fmtMs = (xs: number[]) => `${median(xs).toFixed(0)} ms (${Math.min(...xs).toFixed(0)}-${Math.max(...xs).toFixed(0)}, ${xs.length} starts)`;
const mb = (bytes: number) => `${(bytes / 1024 ** 2).toFixed(1)} MB`;

interface Started {
  proc: ReturnType<typeof Bun.spawn>;
  origin: string;
  ms: number;
}

function freePort(): number {
  const s = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { data() {} } });
  const port = s.port;
  s.stop(true);
  return port;
}

/** Spawns `shelf serve` on `dataDir` and resolves once GET /ready answers 200. */
async function start(shelf: string, dataDir: string, timeoutMs = 60_000): Promise<Started> {
  const port = freePort();
  const origin = `http://127.0.0.1:${port}`;
  const t0 = performance.now();
  // Only what the binary needs: no DATABASE_URL / REDIS_URL / S3_* (embedded parts).
  const proc = Bun.spawn([shelf, "serve"], {
    env: {
      PATH: process.env.PATH ?? "/usr/bin:/bin",
      HOME: dataDir,
      TMPDIR: tmpdir(),
      DATA_DIR: dataDir,
      PORT: String(port),
      HOST: "127.0.0.1",
      LOG_LEVEL: "error",
    },
    stdout: "ignore",
    stderr: "pipe",
  });
  while (performance.now() - t0 < timeoutMs) {
    if (proc.exitCode !== null) throw new Error(`shelf exited ${proc.exitCode}: ${await new Response(proc.stderr as ReadableStream).text()}`);
    const status = await fetch(`${origin}/ready`).then(
      (r) => r.status,
      () => 0,
    );
    if (status === 200) return { proc, origin, ms: performance.now() - t0 };
    await Bun.sleep(5);
  }
  proc.kill("SIGKILL");
  throw new Error(`/ready not 200 after ${timeoutMs} ms`);
}

async function stop(s: Started): Promise<void> {
  s.proc.kill("SIGTERM");
  await s.proc.exited;
}

/** Resident set size of a process in bytes (Linux /proc; null elsewhere). */
function rssOf(pid: number): number | null {
  try {
    const kb = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1];
    return kb ? Number(kb) * 1024 : null;
  } catch {
    return null;
  }
}

function sizeOf(path: string): number {
  const st = statSync(path);
  if (!st.isDirectory()) return st.size;
  return readdirSync(path).reduce((sum, f) => sum + sizeOf(join(path, f)), 0);
}

/** The 1-minute load average (Linux /proc; null elsewhere): others' work moves start times. */
function loadAverage(): number | null {
  try {
    return Number(readFileSync("/proc/loadavg", "utf8").split(" ")[0]);
  } catch {
    return null;
  }
}

interface BinaryFigures {
  exeBytes: number;
  libBytes: number;
  firstMs: number[];
  laterMs: number[];
  /** The load average before each start. */
  loads: number[];
  /** After start and 20 unauthenticated requests, 2 s idle. */
  rssIdle: number | null;
  /** After a sign-up, an API key and 20 authenticated list pages, 2 s idle. */
  rssAfterLists: number | null;
}

async function benchBinary(dist = resolve(import.meta.dir, "../dist"), starts = 5): Promise<BinaryFigures | null> {
  const shelf = join(dist, "shelf");
  try {
    statSync(shelf);
  } catch {
    return null;
  }
  const scratch = mkdtempSync(join(tmpdir(), "shelf-bench-binary-"));
  try {
    const firstMs: number[] = [];
    const laterMs: number[] = [];
    const loads: number[] = [];
    const noteLoad = () => {
      const load = loadAverage();
      if (load !== null) loads.push(load);
    };
    const reused = join(scratch, "reused");
    for (let i = 0; i < starts; i++) {
      noteLoad();
      const s = await start(shelf, join(scratch, `fresh-${i}`));
      firstMs.push(s.ms);
      await stop(s);
    }
    // The first start on `reused` creates it (not counted); the next ones are later starts.
    await stop(await start(shelf, reused));
    for (let i = 0; i < starts; i++) {
      noteLoad();
      const s = await start(shelf, reused);
      laterMs.push(s.ms);
      await stop(s);
    }

    const s = await start(shelf, reused);
    let rssIdle: number | null = null;
    let rssAfterLists: number | null = null;
    try {
      for (let i = 0; i < 10; i++) {
        await (await fetch(`${s.origin}/ready`)).arrayBuffer();
        await (await fetch(`${s.origin}/health`)).arrayBuffer();
      }
      await Bun.sleep(2000);
      rssIdle = rssOf(s.proc.pid);
      const email = `bench-${crypto.randomUUID()}@example.test`;
      const signup = (await (
        await fetch(`${s.origin}/v1/auth/signup`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ email, password: "bench password 123" }),
        })
      ).json()) as { data?: { accessToken?: string }; accessToken?: string };
      const jwt = signup.data?.accessToken ?? signup.accessToken;
      const keyRes = (await (
        await fetch(`${s.origin}/v1/api-keys`, {
          method: "POST",
          headers: { authorization: `Bearer ${jwt}`, "content-type": "application/json" },
          body: JSON.stringify({ name: "bench" }),
        })
      ).json()) as { data?: { key?: string }; key?: string };
      const key = keyRes.data?.key ?? keyRes.key;
      for (let i = 0; i < 20; i++) {
        const r = await fetch(`${s.origin}/v1/images?limit=20`, { headers: { authorization: `Bearer ${key}` } });
        if (r.status !== 200) throw new Error(`GET /v1/images answered ${r.status}: ${await r.text()}`);
        await r.arrayBuffer();
      }
      await Bun.sleep(2000);
      rssAfterLists = rssOf(s.proc.pid);
    } finally {
      await stop(s);
    }
    return {
      exeBytes: sizeOf(shelf),
      libBytes: sizeOf(join(dist, "lib")),
      firstMs,
      laterMs,
      loads,
      rssIdle,
      rssAfterLists,
    };
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

export async function printBinary(dist?: string, starts?: number): Promise<void> {
  console.log("\n(f) the compiled binary (dist/) on embedded parts: size, time from spawn to GET /ready = 200, idle RSS");
  const f = await benchBinary(dist, starts);
  if (!f) {
    console.log("    dist/shelf not found: run `make build` first (about 20 s), then `make bench` again");
    return;
  }
  console.log(`    size                   ${mb(f.exeBytes)} executable + ${mb(f.libBytes)} lib/`);
  console.log(`    first start            ${fmtMs(f.firstMs)}   (new DATA_DIR; target < 2000 ms)`);
  console.log(`    later start            ${fmtMs(f.laterMs)}   (same DATA_DIR; target < 500 ms)`);
  if (f.loads.length) console.log(`    load average           ${Math.min(...f.loads).toFixed(2)}-${Math.max(...f.loads).toFixed(2)} (1 min) before the starts`);
  if (f.rssIdle !== null) console.log(`    idle RSS               ${mb(f.rssIdle)} after start and 20 requests, 2 s idle`);
  if (f.rssAfterLists !== null) console.log(`    idle RSS               ${mb(f.rssAfterLists)} after a sign-up, an API key and 20 list pages, 2 s idle`);
}

if (import.meta.main) await printBinary(Bun.argv[2] ? resolve(Bun.argv[2]) : undefined);
