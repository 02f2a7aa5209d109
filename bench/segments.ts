// (o) Playback edge GET of an HLS segment of a public, ready video against a Bun static
// route serving the same file with the same headers. Two sizes: a 360p segment (~400 KB)
// and a 720p one (~1.5 MB): the first within HOT_OBJECT_MAX, which the edge keeps in
// memory (as the baseline's static route does), the second over it, which the edge sends
// from its file on each request on embedded storage (as the baseline's route does).
import { join } from "node:path";
import { newId } from "../src/infra/ids.ts";
import { HOT_OBJECT_MAX } from "../src/modules/edge/cache.ts";
import { hlsPrefix } from "../src/modules/videos/layout.ts";
import { videos } from "../src/modules/videos/table.ts";
import { inProcess, measuredInterleave } from "./cpu.ts";
import { httpPass } from "./http-load.ts";
import type { Shelf } from "./server.ts";

/** A ready video of the shelf's user whose `rendition` has one segment of `size` random bytes; its edge URL and file. */
async function videoWithSegment(shelf: Shelf, rendition: "360p" | "720p", size: number) {
  const { deps, userId } = shelf;
  const id = newId();
  const prefix = hlsPrefix({ id, ownerId: userId });
  const segment = crypto.getRandomValues(new Uint8Array(size));
  await deps.storage.put(`${prefix}master.m3u8`, new TextEncoder().encode(`#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=800000\n${rendition}/index.m3u8\n`));
  await deps.storage.put(`${prefix}${rendition}/index.m3u8`, new TextEncoder().encode("#EXTM3U\n#EXTINF:6.0,\nseg_00000.ts\n#EXT-X-ENDLIST\n"));
  await deps.storage.put(`${prefix}${rendition}/seg_00000.ts`, segment);
  const now = deps.clock.now();
  await deps.db.insert(videos).values({
    id,
    ownerId: userId,
    title: "bench",
    filename: "bench.mp4",
    status: "ready",
    sizeBytes: size,
    container: "mp4",
    durationSeconds: 6,
    renditions: [rendition],
    provider: "local",
    createdAt: now,
    updatedAt: now,
    readyAt: now,
  });
  return { url: `${shelf.origin}/media/v/${id}/${rendition}/seg_00000.ts`, file: join(deps.config.DATA_DIR, "objects", `${prefix}${rendition}/seg_00000.ts`) };
}

export async function benchSegments(shelf: Shelf, rendition: "360p" | "720p", size: number, passes = 5) {
  const { url, file } = await videoWithSegment(shelf, rendition, size);
  const first = await fetch(url);
  if (first.status !== 200 || (await first.arrayBuffer()).byteLength !== size) throw new Error(`the edge did not serve the segment: ${first.status}`);
  const h: Record<string, string> = {};
  for (const k of ["content-type", "etag", "cache-control", "accept-ranges", "x-content-type-options"]) h[k] = first.headers.get(k)!;
  // Kept in memory where the edge keeps it, sent from its file on each request where the edge does that.
  const body = size <= HOT_OBJECT_MAX ? new Response(await Bun.file(file).bytes(), { headers: h }) : undefined;
  const bare = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    routes: { "/seg.ts": body ?? (() => new Response(Bun.file(file), { headers: h })) },
    fetch: () => new Response(null, { status: 404 }),
  });
  try {
    const opts = { accept: "*/*", seconds: 3 };
    const run = await measuredInterleave(
      passes,
      { run: () => httpPass(url, opts), cpu: inProcess() },
      { run: () => httpPass(`${bare.url.origin}/seg.ts`, opts), cpu: inProcess() },
    );
    return { bytes: size, ...run };
  } finally {
    await bare.stop(true);
  }
}
