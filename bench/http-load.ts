// HTTP load from a separate process (bench/load.ts), so the client does not share the
// server's thread: requests per second at a given concurrency.

export interface LoadOptions {
  seconds?: number;
  concurrency?: number;
  accept?: string;
  /** Sent as `authorization: Bearer <key>` on every request. */
  bearer?: string;
  /** A JSON body: each request is a POST of it. */
  body?: string;
}

/** One run of the load: the requests answered 200 and their rate (requests per second). */
export async function httpPass(
  url: string,
  { seconds = 3, concurrency = 32, accept = "*/*", bearer = "", body = "" }: LoadOptions = {},
): Promise<{ ops: number; rate: number }> {
  const proc = Bun.spawn(["bun", `${import.meta.dir}/load.ts`, url, String(seconds), String(concurrency), accept, bearer, body], {
    stdout: "pipe",
    stderr: "inherit",
  });
  const out = await new Response(proc.stdout).text();
  if ((await proc.exited) !== 0) throw new Error(`load generator failed: ${out}`);
  const run = JSON.parse(out) as { requests: number; seconds: number; errors: number };
  if (run.errors) throw new Error(`${run.errors} requests to ${url} did not answer 200`);
  return { ops: run.requests, rate: run.requests / run.seconds };
}
