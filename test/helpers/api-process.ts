// A second `shelf serve --role api` process on the test's parts (real parts only: it must
// share the database, kv and store with the test process).
import { testEnv } from "./context.ts";

export interface ApiProcess {
  child: ReturnType<typeof Bun.spawn>;
  /** http://127.0.0.1:<port> */
  base: string;
  /** SIGTERM, and its exit code once it has stopped (and all its stderr was handed to onStderr). */
  stop(): Promise<number>;
}

/**
 * Starts the process and resolves once it logs that it listens. `onStderr`: its warnings
 * and errors (one JSON line each), instead of the test's own stderr.
 */
export async function startApiProcess(extra: Record<string, string> = {}, opts: { onStderr?: (text: string) => void } = {}): Promise<ApiProcess> {
  const env = testEnv({ PORT: "0", LOG_LEVEL: "info", MIGRATE_ON_START: "false", ...extra });
  const { onStderr } = opts;
  const child = Bun.spawn(["bun", "src/main.ts", "serve", "--role", "api"], { env, stdout: "pipe", stderr: onStderr ? "pipe" : "inherit" });
  const stderrRead = onStderr
    ? (async () => {
        const decoder = new TextDecoder();
        for await (const chunk of child.stderr as ReadableStream<Uint8Array>) onStderr(decoder.decode(chunk, { stream: true }));
      })()
    : Promise.resolve();
  const reader = (child.stdout as ReadableStream<Uint8Array>).getReader();
  let buffered = "";
  let url: string | undefined;
  while (!url) {
    const { value, done } = await reader.read();
    if (done) throw new Error("the api process exited during start");
    buffered += new TextDecoder().decode(value);
    url = /"msg":"api listening","url":"([^"]+)"/.exec(buffered)?.[1];
  }
  // Keep draining its log so the pipe never fills and blocks the process.
  void (async () => {
    while (!(await reader.read()).done);
  })();
  return {
    child,
    base: url.replace("0.0.0.0", "127.0.0.1").replace(/\/$/, ""),
    async stop() {
      child.kill("SIGTERM");
      const code = await child.exited;
      await stderrRead;
      return code;
    },
  };
}
