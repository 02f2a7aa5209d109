// (d) GET /health (liveness) against a bare Bun.serve answering the same JSON with the same
// headers: what the route costs beyond the framework's floor, now that it touches no part.
import { requestsPerSecond } from "./http-load.ts";
import { interleave } from "./passes.ts";
import type { Shelf } from "./server.ts";

export async function benchHealth(shelf: Shelf, passes = 3) {
  const sample = await fetch(`${shelf.origin}/health`);
  const body = await sample.text();
  const contentType = sample.headers.get("content-type") ?? "application/json";
  const bare = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    fetch: () => new Response(body, { headers: { "content-type": contentType, "cache-control": "no-store", "x-request-id": crypto.randomUUID() } }),
  });
  try {
    const opts = { accept: "application/json" };
    return await interleave(
      passes,
      () => requestsPerSecond(`${shelf.origin}/health`, opts),
      () => requestsPerSecond(`${bare.url.origin}/health`, opts),
    );
  } finally {
    await bare.stop(true);
  }
}
