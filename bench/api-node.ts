// Starts bench/api-process.ts (a shelf api, or with `bare` the bare upload server, in a
// process of its own) and reads the line it prints once it listens: its origin, API key,
// pid and storage, with a meter of its CPU (bench/cpu.ts) and its stop.
import { type CpuMeter, processCpu } from "./cpu.ts";

export interface ApiNode {
  origin: string;
  key: string;
  pid: number;
  storage: string;
  cpu: CpuMeter;
  stop(): Promise<void>;
}

/** `env`: added to this process's environment for the node (limits raised, another database, metrics on). */
export async function startApiNode(opts: { bare?: boolean; env?: Record<string, string | undefined> } = {}): Promise<ApiNode> {
  const proc = Bun.spawn(["bun", `${import.meta.dir}/api-process.ts`, ...(opts.bare ? ["bare"] : [])], {
    env: { ...process.env, ...opts.env },
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
  const info = JSON.parse(text.slice(0, text.indexOf("\n"))) as Omit<ApiNode, "cpu" | "stop">;
  return {
    ...info,
    cpu: processCpu(info.pid),
    async stop() {
      proc.kill("SIGTERM");
      await proc.exited;
    },
  };
}
