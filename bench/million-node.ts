// A shelf node of (y) on one of its databases: bench/api-process.ts in a process of its
// own, so its CPU is its own (read from /proc) and no client shares its thread.
import { startApiNode } from "./api-node.ts";

/** A seeded database of (y): its name and URL, how many users, and the measured user (number, id, an API key). */
export interface Prepared {
  name: string;
  url: string;
  users: number;
  u: number;
  userId: string;
  key: string;
  /** When the measured user's note 500 was last changed, as the database holds it: where the v2 pull starts. */
  note500At: string;
}

export async function startNode(db: Prepared, env: Record<string, string>) {
  const node = await startApiNode({ env: { ...env, DATABASE_URL: db.url } });
  return {
    db,
    origin: node.origin,
    /** The node's CPU time so far (user and system), in ms. */
    cpuMs: () => node.cpu.read(),
    stop: node.stop,
  };
}
export type Side = Awaited<ReturnType<typeof startNode>>;

/**
 * One run of (y)'s load process (million-load.ts, a process of its own) against `url`: how
 * many answers, over how long, each one's latency; throws when one was not 200.
 */
export async function runLoad(o: { url: string; key: string; seconds: number; concurrency: number; headers?: Record<string, string> }) {
  const proc = Bun.spawn(["bun", `${import.meta.dir}/million-load.ts`, JSON.stringify(o)], { stdout: "pipe", stderr: "inherit" });
  const out = await new Response(proc.stdout).text();
  if ((await proc.exited) !== 0) throw new Error(`load failed: ${out.slice(0, 300)}`);
  const r = JSON.parse(out) as { count: number; seconds: number; latencies: number[]; errors: number };
  if (r.errors) throw new Error(`${o.url}: ${r.errors} answers were not 200`);
  return r;
}
