// `shelf serve` on a port that is taken refuses to start, naming the port, unless the
// operator lets processes share it (REUSE_PORT=true on each). Elysia's listen() asked Bun
// for SO_REUSEPORT by default, so any number of processes started on one port without a
// word and split its connections. Real processes on embedded parts, each in its own
// DATA_DIR; every wait is on a process's output or exit.
import { afterAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { tempDir, testEnv } from "../helpers/context.ts";

// Three processes start in a test: on a busy machine that takes far longer than 5 s.
setDefaultTimeout(60_000);

const started: ReturnType<typeof Bun.spawn>[] = [];

afterAll(async () => {
  for (const proc of started) proc.kill("SIGKILL");
  await Promise.all(started.map((p) => p.exited));
});

type Outcome = { listening: true } | { listening: false; code: number; stderr: string };

/** Starts `shelf serve --role api` on 127.0.0.1:`port`; resolves once it listens or has exited. */
function serve(port: number, extra: Record<string, string> = {}): Promise<Outcome> {
  const env = testEnv({
    DATA_DIR: tempDir(),
    DATABASE_URL: "",
    REDIS_URL: "",
    S3_BUCKET: "",
    S3_ACCESS_KEY_ID: "",
    S3_SECRET_ACCESS_KEY: "",
    PORT: String(port),
    HOST: "127.0.0.1",
    LOG_LEVEL: "info",
    ...extra,
  });
  const proc = Bun.spawn(["bun", "src/main.ts", "serve", "--role", "api"], { env, stdout: "pipe", stderr: "pipe" });
  started.push(proc);
  const stderr = new Response(proc.stderr).text();
  const listening = (async () => {
    let out = "";
    const decoder = new TextDecoder();
    for await (const chunk of proc.stdout as ReadableStream<Uint8Array>) {
      out += decoder.decode(chunk, { stream: true });
      if (out.includes('"msg":"api listening"')) return true;
    }
    return false;
  })();
  const exited = proc.exited.then(async (code) => ({ listening: false as const, code, stderr: await stderr }));
  // Whichever comes first; a process that closed its output without listening is judged by its exit.
  return Promise.race([listening.then((l): Outcome | Promise<Outcome> => (l ? { listening: true } : exited)), exited]);
}

const refusal = (port: number) => `shelf: port ${port} on 127.0.0.1 is already in use`;

describe("shelf serve on a port that is taken", () => {
  test("another server holds it: the start is refused with a message naming the port, exit code 1", async () => {
    const holder = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response("someone else") });
    try {
      const outcome = await serve(holder.port!);
      expect(outcome).toEqual({ listening: false, code: 1, stderr: expect.stringContaining(refusal(holder.port!)) });
      expect((outcome as { stderr: string }).stderr).not.toContain("    at "); // a message, not a stack
    } finally {
      holder.stop(true);
    }
  });

  test("shelf processes share a port only when each sets REUSE_PORT=true; one that does not is refused", async () => {
    const probe = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { data() {} } });
    const port = probe.port;
    probe.stop(true);
    expect(await serve(port, { REUSE_PORT: "true" })).toEqual({ listening: true });
    const plain = await serve(port);
    expect(plain).toEqual({ listening: false, code: 1, stderr: expect.stringContaining(refusal(port)) });
    expect(await serve(port, { REUSE_PORT: "true" })).toEqual({ listening: true });
    expect((await fetch(`http://127.0.0.1:${port}/health`)).status).toBe(200);
  });
});
