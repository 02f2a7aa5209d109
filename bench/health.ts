// (d) GET /health (liveness) against a bare Bun.serve answering the same JSON with the same
// headers: what the route costs beyond the framework's floor, now that it touches no part.
// The load comes from a separate process (bench/load.ts), as for the edge.
import type { Shelf } from "./server.ts";

const SECONDS = 5;
const CONCURRENCY = 32;

async function load(url: string, seconds = SECONDS): Promise<{ requests: number; seconds: number; errors: number }> {
  const proc = Bun.spawn(["bun", `${import.meta.dir}/load.ts`, url, String(seconds), String(CONCURRENCY), "application/json"], {
    stdout: "pipe",
    stderr: "inherit",
  });
  const out = await new Response(proc.stdout).text();
  if ((await proc.exited) !== 0) throw new Error(`load generator failed: ${out}`);
  return JSON.parse(out);
}

export async function benchHealth(shelf: Shelf) {
  const sample = await fetch(`${shelf.origin}/health`);
  const body = await sample.text();
  const contentType = sample.headers.get("content-type") ?? "application/json";
  const bare = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    fetch: () => new Response(body, { headers: { "content-type": contentType, "cache-control": "no-store", "x-request-id": crypto.randomUUID() } }),
  });
  try {
    const bareUrl = `${bare.url.origin}/health`;
    await load(`${shelf.origin}/health`, 1);
    await load(bareUrl, 1);
    const shelfRun = await load(`${shelf.origin}/health`);
    const bareRun = await load(bareUrl);
    if (shelfRun.errors || bareRun.errors) throw new Error(`errors during load: shelf ${shelfRun.errors}, bare ${bareRun.errors}`);
    const shelfRps = shelfRun.requests / shelfRun.seconds;
    const bareRps = bareRun.requests / bareRun.seconds;
    return { shelfRps, bareRps, ratio: shelfRps / bareRps };
  } finally {
    await bare.stop(true);
  }
}
