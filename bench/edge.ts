// (b) Edge GET throughput of a cached WebP (~160 KB and ~18 KB) against a Bun static
// route serving the same bytes with the same headers: the ceiling for bytes already in
// memory, where Bun answers without entering JavaScript at all.
import { sharp } from "../src/infra/sharp.ts";
import { inProcess, measuredInterleave } from "./cpu.ts";
import { httpPass } from "./http-load.ts";
import { photoLike } from "./photos.ts";
import type { Shelf } from "./server.ts";

const ACCEPT = "image/avif,image/webp,image/apng,image/*,*/*;q=0.8";

/** Uploads a photo whose WebP rendition is about `target` bytes; returns its edge URL and the WebP. */
export async function imageOfAbout(shelf: Shelf, target: number) {
  let mp = (0.8 * target) / (160 * 1024);
  for (let i = 0; i < 5; i++) {
    const width = Math.max(16, Math.round(Math.sqrt((mp * 1e6 * 3) / 2)));
    const photo = await photoLike(width, Math.round((width * 2) / 3));
    const form = new FormData();
    form.append("file", new Blob([photo as BlobPart], { type: "image/jpeg" }), "edge.jpg");
    const res = await fetch(`${shelf.origin}/v1/images`, { method: "POST", headers: { authorization: `Bearer ${shelf.key}` }, body: form });
    const { data } = (await res.json()) as { data: { url: string } };
    const url = shelf.edgeUrl(data.url);
    const webp = await fetch(url, { headers: { accept: ACCEPT } });
    const bytes = new Uint8Array(await webp.arrayBuffer());
    if (Math.abs(bytes.length - target) / target < 0.1 || i === 4) return { url, bytes, headers: webp.headers };
    mp *= target / bytes.length;
  }
  throw new Error("unreachable");
}

/** Requests/s of each side and their CPU per request (both servers in this process: bench/cpu.ts). */
export async function benchEdge(shelf: Shelf, target: number, passes = 5, seconds = 3) {
  const { url, bytes, headers } = await imageOfAbout(shelf, target);
  if ((await sharp(bytes).metadata()).format !== "webp") throw new Error("the edge did not serve WebP");
  const same = ["content-type", "etag", "cache-control", "vary", "accept-ranges", "x-content-type-options"];
  const h: Record<string, string> = {};
  for (const k of same) h[k] = headers.get(k)!;
  const bare = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    routes: { "/media/x.webp": new Response(bytes, { headers: h }) },
    fetch: () => new Response(null, { status: 404 }),
  });
  try {
    const opts = { accept: ACCEPT, seconds };
    const run = await measuredInterleave(
      passes,
      { run: () => httpPass(url, opts), cpu: inProcess() },
      { run: () => httpPass(`${bare.url.origin}/media/x.webp`, opts), cpu: inProcess() },
    );
    return { bytes: bytes.length, ...run };
  } finally {
    await bare.stop(true);
  }
}
