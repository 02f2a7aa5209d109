// A shelf node of (y) on one of its databases: bench/api-process.ts in a process of its
// own, so its CPU is its own (read from /proc) and no client shares its thread.
import { readFileSync } from "node:fs";

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
  const proc = Bun.spawn(["bun", `${import.meta.dir}/api-process.ts`], {
    env: { ...process.env, ...env, DATABASE_URL: db.url },
    stdout: "pipe",
    stderr: "inherit",
  });
  const reader = proc.stdout.getReader();
  let text = "";
  while (!text.includes("\n")) {
    const { done, value } = await reader.read();
    if (done) throw new Error("the api process ended before it listened");
    text += new TextDecoder().decode(value);
  }
  reader.releaseLock();
  const { origin, pid } = JSON.parse(text.slice(0, text.indexOf("\n"))) as { origin: string; pid: number };
  return {
    db,
    origin,
    /** The node's CPU time so far (user and system), in ms. */
    cpuMs() {
      const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
      return (Number(fields[11]) + Number(fields[12])) * 10;
    },
    async stop() {
      proc.kill("SIGTERM");
      await proc.exited;
    },
  };
}
export type Side = Awaited<ReturnType<typeof startNode>>;
