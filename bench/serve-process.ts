// A shelf node as an operator runs it: `shelf serve` (bun src/main.ts serve) in a process
// of its own, with its defaults (role `all`, LOG_LEVEL and ACCESS_LOG as they ship), on a
// fresh DATA_DIR, its stdout a pipe read to the end as a journal would (so it never
// blocks), and the CPU time of a process read from /proc. For the benchmarks that compare
// the deployed node with another server (bench/edge-nginx.ts).
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const ROOT = join(import.meta.dir, "..");

/** A process's CPU time so far (user and system), in seconds, from /proc/<pid>/stat (clock ticks of 1/100 s). */
export function cpuSecondsOf(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/** A free TCP port on loopback. */
export function freePort(): number {
  const s = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { data() {} } });
  const port = s.port;
  s.stop(true);
  return port;
}

export interface ServeProcess {
  origin: string;
  pid: number;
  /** A signed-in session's token of the node's first account (an admin). */
  token: string;
  /** The edge URL of `url` on this node. */
  edgeUrl(url: string): string;
  /** Bytes the node has written to its stdout so far. */
  stdoutBytes(): number;
  /** SIGTERM; resolves with its exit code, and all it wrote has been read. */
  stop(): Promise<number>;
}

/**
 * Starts `shelf serve` with `env` over its defaults (only where it listens and its data
 * folder are set) and makes its first account; resolves once it has.
 */
export async function startServeProcess(env: Record<string, string> = {}): Promise<ServeProcess> {
  const dataDir = mkdtempSync(join(tmpdir(), "shelf-serve-"));
  const port = freePort();
  const origin = `http://127.0.0.1:${port}`;
  const vars = {
    PATH: process.env.PATH ?? "",
    HOME: process.env.HOME ?? "",
    DATA_DIR: dataDir,
    HOST: "127.0.0.1",
    PORT: String(port),
    PUBLIC_URL: origin,
    ...env,
  };
  const child = Bun.spawn(["bun", "src/main.ts", "serve"], { cwd: ROOT, env: vars, stdout: "pipe", stderr: "inherit" });
  let bytes = 0;
  let text: string | undefined = "";
  let listening!: () => void;
  const ready = new Promise<void>((resolve) => {
    listening = resolve;
  });
  // The journal: every byte read as it comes; the first lines until the node says it is ready.
  const drained = (async () => {
    const decoder = new TextDecoder();
    for await (const chunk of child.stdout as ReadableStream<Uint8Array>) {
      bytes += chunk.byteLength;
      if (text !== undefined) {
        text += decoder.decode(chunk, { stream: true });
        if (text.includes('"msg":"ready"')) {
          text = undefined;
          listening();
        }
      }
    }
  })();
  await Promise.race([
    ready,
    child.exited.then((code) => {
      throw new Error(`shelf serve exited with ${code} during start`);
    }),
  ]);
  const res = await fetch(`${origin}/v1/auth/signup`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email: `bench-${crypto.randomUUID()}@example.test`, password: "bench password 123" }),
  });
  if (!res.ok) throw new Error(`signup failed: ${res.status} ${await res.text()}`);
  const token = ((await res.json()) as { data: { accessToken: string } }).data.accessToken;
  return {
    origin,
    pid: child.pid,
    token,
    edgeUrl: (url) => `${origin}${new URL(url).pathname}${new URL(url).search}`,
    stdoutBytes: () => bytes,
    async stop() {
      child.kill("SIGTERM");
      const code = await child.exited;
      await drained;
      rmSync(dataDir, { recursive: true, force: true });
      return code;
    },
  };
}
