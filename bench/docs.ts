// (f) POST /v1/docs of a ~200 KB Markdown holding 20 inline images (rewriteImages), against
// what a client does without rewriting: the same 20 images as POST /v1/images, then the
// text with their URLs as POST /v1/docs. One document at a time; documents per second.
import { sharp } from "../src/infra/sharp.ts";
import { inProcess, measuredInterleave } from "./cpu.ts";
import type { Shelf } from "./server.ts";

const IMAGES = 20;
const DOCS_PER_PASS = 8;

async function pictures(): Promise<Uint8Array[]> {
  return await Promise.all(
    Array.from({ length: IMAGES }, (_, i) =>
      sharp({ create: { width: 12, height: 10, channels: 3, background: "black", noise: { type: "gaussian", mean: 100 + i, sigma: 40 } } })
        .resize(96, 80)
        .jpeg({ quality: 80 })
        .toBuffer(),
    ),
  );
}

/** ~200 KB of Markdown: prose between the images, unique per call so no upload is a duplicate. */
function markdown(images: readonly string[], tag: string): string {
  const imageBytes = images.reduce((n, u) => n + u.length, 0);
  const prose = "Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor. ";
  const per = Math.max(0, Math.floor((200 * 1024 - imageBytes) / images.length / prose.length));
  const parts = [`# Bench ${tag}\n`];
  for (const [i, url] of images.entries()) parts.push(`## Part ${i}\n\n${prose.repeat(per)}\n\n![figure ${i}](${url})\n`);
  return parts.join("\n");
}

async function post(shelf: Shelf, key: string, path: string, init: RequestInit, expected: number) {
  const res = await fetch(`${shelf.origin}${path}`, { ...init, headers: { authorization: `Bearer ${key}`, ...init.headers } });
  const text = await res.text();
  if (res.status !== expected) throw new Error(`${path}: ${res.status} ${text.slice(0, 200)}`);
  return JSON.parse(text).data;
}

const postDoc = (shelf: Shelf, key: string, body: object) =>
  post(shelf, key, "/v1/docs", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) }, 201);

export async function benchDocs(shelf: Shelf, passes = 3) {
  const pics = await pictures();
  const inline = pics.map((p) => `data:image/jpeg;base64,${Buffer.from(p).toString("base64")}`);
  const size = Buffer.byteLength(markdown(inline, "x"));

  /** Documents per second over one pass, each pass as a new user (the upload rate tier is not what is measured). */
  const rewriting = async () => {
    const key = await shelf.newKey();
    const started = performance.now();
    for (let d = 0; d < DOCS_PER_PASS; d++) {
      const out = await postDoc(shelf, key, { filename: "bench.md", content: markdown(inline, crypto.randomUUID()), rewriteImages: true });
      if (out.rewrittenCount !== IMAGES) throw new Error(`rewrote ${out.rewrittenCount} images`);
    }
    return { ops: DOCS_PER_PASS, rate: DOCS_PER_PASS / ((performance.now() - started) / 1000) };
  };
  const separately = async () => {
    // 21 uploads a document: more than the per-minute upload tier allows one user, so a
    // user a document, made before the clock starts (making one hashes a password).
    const keys = await Promise.all(Array.from({ length: DOCS_PER_PASS }, () => shelf.newKey()));
    const started = performance.now();
    for (const key of keys) {
      const urls: string[] = [];
      for (const p of pics) {
        const form = new FormData();
        form.append("file", new Blob([p as BlobPart], { type: "image/jpeg" }), "figure.jpg");
        urls.push((await post(shelf, key, "/v1/images", { method: "POST", body: form }, 201)).url);
      }
      await postDoc(shelf, key, { filename: "bench.md", content: markdown(urls, crypto.randomUUID()) });
    }
    return { ops: DOCS_PER_PASS, rate: DOCS_PER_PASS / ((performance.now() - started) / 1000) };
  };
  // CPU per document of each side: the server and the requests' client are both in this process.
  return { size, ...(await measuredInterleave(passes, { run: rewriting, cpu: inProcess() }, { run: separately, cpu: inProcess() })) };
}
