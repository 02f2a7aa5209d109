// CPU per operation of each side of a comparison, beside its rate. On a shared 2-core
// machine the rate moves with whatever else runs; the CPU time a side spends per request
// moves far less, so a regression shows in it when the rate's noise would hide it.
//
//   - work in this process (a server and its baseline both listening here, sharp, the
//     driver): ownCpu, process.cpuUsage() (every thread of the process: libvips' too);
//   - a server in another process: processCpu(pid), /proc/<pid>/stat utime + stime;
//   - child processes this one waited for (ffmpeg, tar): childrenCpu, /proc/self/stat
//     cutime + cstime (the load generators are children too: leave it out of HTTP sides);
//   - the database and Redis this process uses when they run on this machine: serversCpu
//     (the postmaster on DATABASE_URL's port and its backends, the redis-server on
//     REDIS_URL's), null on embedded parts. A backend that ends within a pass takes its
//     time with it: the benchmarks keep their pools open across passes.
// measuredInterleave runs the passes of bench/passes.ts with a meter per side and gives
// each side's CPU per operation and their ratio (baseline / subject: higher is better,
// as for the rates; 1.0 = the same cost) with the load average over the passes.
import { readdirSync, readFileSync } from "node:fs";
import { loadavg } from "node:os";
import { relative } from "node:path";
import { type Interleaved, interleave, median } from "./passes.ts";

/** A source of CPU time: milliseconds of user and system time so far. */
export interface CpuMeter {
  read(): number;
}

const CLOCK_TICK_MS = 10; // USER_HZ is 100 on Linux

/** The fields of /proc/<pid>/stat after the command's closing parenthesis (utime is [11], stime [12], cutime [13], cstime [14]). */
const statFields = (pid: number | "self") => readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");

/** This process, every thread: process.cpuUsage(). */
export const ownCpu: CpuMeter = {
  read() {
    const u = process.cpuUsage();
    return (u.user + u.system) / 1000;
  },
};

/** Another process, from /proc (in hundredths of a second). */
export function processCpu(pid: number): CpuMeter {
  return {
    read() {
      const f = statFields(pid);
      return (Number(f[11]) + Number(f[12])) * CLOCK_TICK_MS;
    },
  };
}

/** The children of this process that it has waited for (a spawned tool once it exited). */
export const childrenCpu: CpuMeter = {
  read() {
    const f = statFields("self");
    return (Number(f[13]) + Number(f[14])) * CLOCK_TICK_MS;
  },
};

const portOf = (url: string | undefined, fallback: string) => {
  if (!url) return null;
  try {
    return new URL(url).port || fallback;
  } catch {
    return null;
  }
};

/**
 * The Postgres and Redis this process talks to (DATABASE_URL's and REDIS_URL's ports),
 * found in /proc: the postmaster started with `-p <port>` and its children (the backends),
 * and the redis-server on that port. Others' servers on the same machine are left out.
 */
function ourServerPids(): number[] {
  const pgPort = portOf(process.env.DATABASE_URL, "5432");
  const redisPort = portOf(process.env.REDIS_URL, "6379");
  if (!pgPort && !redisPort) return [];
  const procs: { pid: number; ppid: number; comm: string; args: string[] }[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const comm = readFileSync(`/proc/${entry}/comm`, "utf8").trim();
      if (comm !== "postgres" && comm !== "redis-server") continue;
      const args = readFileSync(`/proc/${entry}/cmdline`, "utf8").split("\0");
      procs.push({ pid: Number(entry), ppid: Number(statFields(Number(entry))[1]), comm, args });
    } catch {
      // gone since listed, or not ours to read
    }
  }
  const portArg = (args: string[], flag: string, port: string) => args.some((a, i) => a === flag && args[i + 1] === port);
  const postmasters = new Set(procs.filter((p) => p.comm === "postgres" && pgPort && portArg(p.args, "-p", pgPort)).map((p) => p.pid));
  return procs
    .filter(
      (p) =>
        postmasters.has(p.pid) ||
        (p.comm === "postgres" && postmasters.has(p.ppid)) ||
        (p.comm === "redis-server" && redisPort && (portArg(p.args, "--port", redisPort) || p.args[0]!.endsWith(`:${redisPort}`))),
    )
    .map((p) => p.pid);
}

/** User and system CPU of the Postgres and Redis this process uses (ourServerPids), in ms; null when there are none (embedded parts). */
export function serversCpuMs(): number | null {
  const pids = ourServerPids();
  if (pids.length === 0) return null;
  let ms = 0;
  for (const pid of pids) {
    try {
      ms += processCpu(pid).read();
    } catch {
      // a backend that ended since listed: its time is no longer counted by anyone
    }
  }
  return ms;
}

/** The database and Redis this process uses, when they run on this machine (real parts); null on embedded parts. */
export const serversCpu: CpuMeter | null = serversCpuMs() === null ? null : { read: () => serversCpuMs() ?? 0 };

/** The sum of meters (absent ones left out). */
export const cpuOf = (...meters: (CpuMeter | null | undefined)[]): CpuMeter => {
  const present = meters.filter((m): m is CpuMeter => !!m);
  return { read: () => present.reduce((sum, m) => sum + m.read(), 0) };
};

/** The work of a side where it runs in this process, plus Postgres and Redis when they are on this machine. */
export const inProcess = (): CpuMeter => cpuOf(ownCpu, serversCpu);

/** The 1-minute load average now. */
export const load1 = () => loadavg()[0]!;

/** What one pass of a side did: operations (requests, images, files, pages) and their rate. */
export interface Pass {
  ops: number;
  rate: number;
}

/** A side of a comparison: what a pass runs, and what its CPU is read from. */
export interface Side {
  run: () => Promise<Pass>;
  cpu: CpuMeter;
}

export interface Cost {
  /** Medians over the passes (after the warm-up) of each side's CPU per operation, microseconds. */
  subjectUs: number;
  baselineUs: number;
  /** Median of the per-pass ratios baseline / subject (higher is better; 1.0 = the same cost), their lowest and highest. */
  ratio: number;
  low: number;
  high: number;
}

export interface Measured extends Interleaved {
  cpu: Cost;
  /** The 1-minute load average, lowest and highest, read before and after each pass. */
  load: { low: number; high: number };
}

/** CPU of each pass of `side` per operation, in us, pushed to `into`; its load averages to `loads`. */
function metered(side: Side, into: number[], loads: number[]) {
  return async () => {
    loads.push(load1());
    const before = side.cpu.read();
    const pass = await side.run();
    const used = side.cpu.read() - before;
    loads.push(load1());
    into.push(pass.ops > 0 ? (used * 1000) / pass.ops : Number.NaN);
    return pass.rate;
  };
}

/** interleave() of bench/passes.ts, with each side's CPU per operation and the load average. */
export async function measuredInterleave(passes: number, subject: Side, baseline: Side): Promise<Measured> {
  const s: number[] = [];
  const b: number[] = [];
  const loads: number[] = [];
  const rates = await interleave(passes, metered(subject, s, loads), metered(baseline, b, loads));
  return { ...rates, cpu: costOf(s.slice(1), b.slice(1)), load: { low: Math.min(...loads), high: Math.max(...loads) } };
}

/** Each side's CPU per operation (us) over the same passes, in the order run: the medians and the per-pass ratios baseline / subject. */
export function costOf(subjectUs: number[], baselineUs: number[]): Cost {
  const ratios = subjectUs.map((s, i) => baselineUs[i]! / s);
  return { subjectUs: median(subjectUs), baselineUs: median(baselineUs), ratio: median(ratios), low: Math.min(...ratios), high: Math.max(...ratios) };
}

const us = (n: number) => (n >= 100 ? n.toFixed(0) : n >= 10 ? n.toFixed(1) : n.toFixed(2));

/** "cpu/req shelf 412 us, baseline 380 us, ratio 0.922 (0.90-0.95)". */
export const costText = (c: Cost, unit = "req", names: [string, string] = ["shelf", "baseline"]) =>
  `cpu/${unit} ${names[0]} ${us(c.subjectUs)} us, ${names[1]} ${us(c.baselineUs)} us, ratio ${c.ratio.toFixed(3)} (${c.low.toFixed(2)}-${c.high.toFixed(2)})`;

/** "load 1.52-2.10". */
export const loadText = (l: { low: number; high: number }) => `load ${l.low.toFixed(2)}-${l.high.toFixed(2)}`;

/** The command this process runs, as typed from the repository's root: "bun bench/index.ts". */
export const commandText = () => ["bun", ...process.argv.slice(1).map((a, i) => (i === 0 ? relative(process.cwd(), a) || a : a))].join(" ");

/** The line a benchmark run starts with: its command and the load average when it starts. */
export const runText = () =>
  `${commandText()}   (load ${loadavg()
    .map((x) => x.toFixed(2))
    .join(" ")} at the start)`;
