// A throwaway Postgres cluster a test owns: it can stop the server under traffic and start
// it again, which the shared one of scripts/real-parts.sh must never do. Made as that
// script makes its own (initdb in a temporary folder, a free port, a unix socket beside it;
// as root, run as the `postgres` user, since Postgres refuses to run as root).
import { chownSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** The newest server binaries: PG_BIN, Debian's /usr/lib/postgresql/<version>/bin, or initdb on PATH; undefined when absent. */
export function findPgBin(): string | undefined {
  const has = (dir: string) => Bun.file(join(dir, "initdb")).size > 0 && Bun.file(join(dir, "pg_ctl")).size > 0;
  if (process.env.PG_BIN) return has(process.env.PG_BIN) ? process.env.PG_BIN : undefined;
  let versions: string[] = [];
  try {
    versions = readdirSync("/usr/lib/postgresql").sort((a, b) => Number(b) - Number(a));
  } catch {
    /* not Debian's layout */
  }
  for (const v of versions) if (has(`/usr/lib/postgresql/${v}/bin`)) return `/usr/lib/postgresql/${v}/bin`;
  const onPath = Bun.which("initdb");
  return onPath ? join(onPath, "..") : undefined;
}

export interface PgCluster {
  /** postgres://postgres@127.0.0.1:<port>/postgres */
  url: string;
  /** Starts the server (again), returning once it accepts connections. */
  start(): Promise<void>;
  /** `pg_ctl stop -m immediate`: every backend killed at once, as a crash or a pulled plug would. */
  stopImmediately(): Promise<void>;
  /** `pg_ctl stop -m fast`: open transactions rolled back, clients disconnected, a clean shutdown (an operator's restart). */
  stopFast(): Promise<void>;
  /** Stops the server if it runs and removes its folder. */
  dispose(): Promise<void>;
}

function freePort(): number {
  const s = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { data() {} } });
  const port = s.port;
  s.stop(true);
  return port;
}

export async function startPgCluster(bin: string): Promise<PgCluster> {
  const asRoot = process.getuid?.() === 0;
  const work = mkdtempSync(join(tmpdir(), "shelf-pg-"));
  const data = join(work, "data");
  const socket = join(work, "socket");
  mkdirSync(data);
  mkdirSync(socket);
  if (asRoot) {
    const pg = Bun.spawnSync(["id", "-u", "postgres"]);
    const uid = Number(pg.stdout.toString().trim());
    if (pg.exitCode !== 0 || !uid) throw new Error("running as root needs a 'postgres' user for the Postgres server");
    const gid = Number(Bun.spawnSync(["id", "-g", "postgres"]).stdout.toString().trim());
    for (const dir of [work, data, socket]) chownSync(dir, uid, gid);
  }
  const run = async (args: string[]) => {
    const cmd = asRoot ? ["runuser", "-u", "postgres", "--", ...args] : args;
    const proc = Bun.spawn(cmd, { stdout: "pipe", stderr: "pipe" });
    const [code, out, err] = await Promise.all([proc.exited, new Response(proc.stdout).text(), new Response(proc.stderr).text()]);
    if (code !== 0) throw new Error(`${args.slice(0, 2).join(" ")} exited ${code}: ${(err || out).slice(-2000)}`);
  };
  const port = freePort();
  await run([`${bin}/initdb`, "-D", data, "-U", "postgres", "--auth=trust", "--encoding=UTF8", "--no-locale", "--no-sync"]);
  // fsync off: a stopped server loses nothing the OS already has, and only the OS crashing
  // would lose what was not synced. synchronous_commit stays on: a commit is acknowledged
  // once its WAL is written, which is what "nothing acknowledged is lost" rests on.
  const options = `-p ${port} -k ${socket} -c listen_addresses=127.0.0.1 -c fsync=off -c full_page_writes=off`;
  let running = false;
  const cluster: PgCluster = {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    async start() {
      await run([`${bin}/pg_ctl`, "-D", data, "-l", join(socket, "postgres.log"), "-w", "-t", "60", "-o", options, "start"]);
      running = true;
    },
    async stopImmediately() {
      await run([`${bin}/pg_ctl`, "-D", data, "-m", "immediate", "-w", "stop"]);
      running = false;
    },
    async stopFast() {
      await run([`${bin}/pg_ctl`, "-D", data, "-m", "fast", "-w", "stop"]);
      running = false;
    },
    async dispose() {
      if (running) await cluster.stopImmediately().catch(() => {});
      rmSync(work, { recursive: true, force: true });
    },
  };
  try {
    await cluster.start();
  } catch (e) {
    await cluster.dispose();
    throw e;
  }
  return cluster;
}
