// (d) GET /health (liveness) against a bare Bun.serve answering the same JSON with the same
// headers: what the route costs beyond the framework's floor, now that it touches no part.
import { inProcess, measuredInterleave } from "./cpu.ts";
import { httpPass } from "./http-load.ts";
import type { Shelf } from "./server.ts";

/** Requests/s of each side and their CPU per request (both servers in this process: bench/cpu.ts). */
export async function benchHealth(shelf: Shelf, passes = 3, seconds = 3) {
  const sample = await fetch(`${shelf.origin}/health`);
  const body = await sample.text();
  const contentType = sample.headers.get("content-type") ?? "application/json";
  const bare = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    fetch: () => new Response(body, { headers: { "content-type": contentType, "cache-control": "no-store", "x-request-id": crypto.randomUUID() } }),
  });
  try {
    const opts = { accept: "application/json", seconds };
    return await measuredInterleave(
      passes,
      { run: () => httpPass(`${shelf.origin}/health`, opts), cpu: inProcess() },
      { run: () => httpPass(`${bare.url.origin}/health`, opts), cpu: inProcess() },
    );
  } finally {
    await bare.stop(true);
  }
}
