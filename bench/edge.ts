// (b) Edge GET throughput for a cached WebP of ~160 KB against a bare Bun.serve returning
// the same bytes with the same headers. The load comes from a separate process
// (bench/load.ts), so the client does not share the server's thread.
import { sharp } from "../src/infra/sharp.ts";
import { photoLike } from "./photos.ts";
import type { Shelf } from "./server.ts";

const SECONDS = 5;
const CONCURRENCY = 32;
const ACCEPT = "image/avif,image/webp,image/apng,image/*,*/*;q=0.8";

async function load(url: string, seconds = SECONDS): Promise<{ requests: number; seconds: number; bytes: number; errors: number }> {
  const proc = Bun.spawn(["bun", `${import.meta.dir}/load.ts`, url, String(seconds), String(CONCURRENCY), ACCEPT], { stdout: "pipe", stderr: "inherit" });
  const out = await new Response(proc.stdout).text();
  if ((await proc.exited) !== 0) throw new Error(`load generator failed: ${out}`);
  return JSON.parse(out);
}

/** Uploads a photo whose WebP rendition is about `target` bytes; returns its edge URL and the WebP. */
async function imageOfAbout(shelf: Shelf, target: number) {
  let mp = 0.8;
  for (let i = 0; i < 4; i++) {
    const width = Math.round(Math.sqrt((mp * 1e6 * 3) / 2));
    const photo = await photoLike(width, Math.round((width * 2) / 3));
    const form = new FormData();
    form.append("file", new Blob([photo as BlobPart], { type: "image/jpeg" }), "edge.jpg");
    const res = await fetch(`${shelf.origin}/v1/images`, { method: "POST", headers: { authorization: `Bearer ${shelf.key}` }, body: form });
    const { data } = (await res.json()) as { data: { url: string } };
    const url = shelf.edgeUrl(data.url);
    const webp = await fetch(url, { headers: { accept: ACCEPT } });
    const bytes = new Uint8Array(await webp.arrayBuffer());
    if (Math.abs(bytes.length - target) / target < 0.1 || i === 3) return { url, bytes, headers: webp.headers };
    mp *= target / bytes.length;
  }
  throw new Error("unreachable");
}

export async function benchEdge(shelf: Shelf, target = 160 * 1024) {
  const { url, bytes, headers } = await imageOfAbout(shelf, target);
  if ((await sharp(bytes).metadata()).format !== "webp") throw new Error("the edge did not serve WebP");
  const same = ["content-type", "etag", "cache-control", "vary", "accept-ranges", "x-content-type-options"];
  const bare = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    fetch: () => {
      const h: Record<string, string> = { "x-request-id": crypto.randomUUID() };
      for (const k of same) h[k] = headers.get(k)!;
      return new Response(bytes, { headers: h });
    },
  });
  try {
    const bareUrl = `${bare.url.origin}/media/x.webp`;
    await load(url, 1); // warm: the edge's record and bytes caches, both connection pools
    await load(bareUrl, 1);
    const edge = await load(url);
    const raw = await load(bareUrl);
    if (edge.errors || raw.errors) throw new Error(`errors during load: edge ${edge.errors}, bare ${raw.errors}`);
    const edgeRps = edge.requests / edge.seconds;
    const bareRps = raw.requests / raw.seconds;
    return { bytes: bytes.length, edgeRps, bareRps, ratio: edgeRps / bareRps };
  } finally {
    await bare.stop(true);
  }
}
