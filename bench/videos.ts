// (p) A 1 GB video upload streamed to storage: the server's peak RSS above its idle RSS,
//     and its MB/s against writing the same bytes to the same storage directly.
// (q) The local provider's transcode of a 60-second 1080p clip (worker step: download,
//     probe, ladder, MP4, thumbnail, upload) against the same ffmpeg runs by hand.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { hlsRendition, ladderFor, mp4FromHls, probe, thumbnail } from "../src/modules/videos/providers/ffmpeg.ts";
import { createTranscodeWorker, createVideoProviders } from "../src/modules/videos/public.ts";
import type { Shelf } from "./server.ts";

const MB = 1024 * 1024;
const CHUNK = new Uint8Array(MB).fill(7);

/** A multipart body of one `file` part: an MP4 head, then `bytes` of filler, in 1 MB chunks. */
function videoBody(head: Uint8Array, bytes: number, boundary: string): ReadableStream<Uint8Array> {
  const enc = new TextEncoder();
  let sent = 0;
  return new ReadableStream({
    start(c) {
      c.enqueue(enc.encode(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.mp4"\r\n\r\n`));
      c.enqueue(head);
    },
    pull(c) {
      if (sent >= bytes) {
        c.enqueue(enc.encode(`\r\n--${boundary}--\r\n`));
        return c.close();
      }
      c.enqueue(CHUNK);
      sent += CHUNK.length;
    },
  });
}

function filler(bytes: number): ReadableStream<Uint8Array> {
  let sent = 0;
  return new ReadableStream({
    pull(c) {
      if (sent >= bytes) return c.close();
      c.enqueue(CHUNK);
      sent += CHUNK.length;
    },
  });
}

async function mp4Head(): Promise<Uint8Array> {
  const out = join(mkdtempSync(join(tmpdir(), "shelf-bench-head-")), "h.mp4");
  await Bun.$`ffmpeg -v error -y -f lavfi -i testsrc=size=64x36:rate=5:duration=1 -c:v libx264 ${out}`.quiet();
  return new Uint8Array(await Bun.file(out).arrayBuffer());
}

export async function benchVideoUpload(shelf: Shelf, sizeBytes = 1024 * MB) {
  const head = await mp4Head();
  Bun.gc(true);
  const idle = process.memoryUsage().rss;
  let peak = idle;
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 50);
  try {
    const boundary = "----shelfbenchvideo";
    let t = performance.now();
    const res = await fetch(`${shelf.origin}/v1/videos`, {
      method: "POST",
      headers: { authorization: `Bearer ${shelf.key}`, "content-type": `multipart/form-data; boundary=${boundary}` },
      body: videoBody(head, sizeBytes, boundary),
    });
    if (res.status !== 201) throw new Error(`video upload failed: ${res.status} ${await res.text()}`);
    const shelfS = (performance.now() - t) / 1000;
    t = performance.now();
    await shelf.deps.storage.put("bench/direct-video", filler(sizeBytes));
    const directS = (performance.now() - t) / 1000;
    await shelf.deps.storage.delete("bench/direct-video");
    return { shelfMBs: sizeBytes / MB / shelfS, directMBs: sizeBytes / MB / directS, ratio: directS / shelfS, idleMB: idle / MB, peakMB: peak / MB };
  } finally {
    clearInterval(sampler);
  }
}

export async function benchTranscode(shelf: Shelf, seconds = 60) {
  const dir = mkdtempSync(join(tmpdir(), "shelf-bench-transcode-"));
  try {
    const clip = join(dir, "clip.mp4");
    await Bun.$`ffmpeg -v error -y -f lavfi -i testsrc2=size=1920x1080:rate=30:duration=${seconds} -f lavfi -i sine=frequency=440:duration=${seconds} -c:v libx264 -preset ultrafast -pix_fmt yuv420p -c:a aac ${clip}`.quiet();
    const form = new FormData();
    form.set("file", Bun.file(clip), "clip.mp4");
    const up = await fetch(`${shelf.origin}/v1/videos`, { method: "POST", headers: { authorization: `Bearer ${shelf.key}` }, body: form });
    if (up.status !== 201) throw new Error(`upload failed: ${up.status}`);
    const deps = shelf.deps;
    const worker = createTranscodeWorker(deps, {
      providers: createVideoProviders(deps), // PUBLIC_URL has no port here: the callback goes to this server's origin.
      deliver: async (r) => fetch(`${shelf.origin}/webhooks/local`, { method: "POST", headers: r.headers, body: await r.text() }),
    });
    let t = performance.now();
    while (await worker.step());
    const shelfS = (performance.now() - t) / 1000;

    // By hand: the same ffmpeg runs, from a local file to a local folder.
    const ffmpeg = deps.config.FFMPEG_PATH;
    t = performance.now();
    const info = await probe(ffmpeg, clip);
    const ladder = ladderFor(info.height);
    for (const r of ladder) {
      await Bun.$`mkdir -p ${join(dir, r)}`;
      await hlsRendition(ffmpeg, clip, r, true, join(dir, r), () => {});
    }
    await mp4FromHls(ffmpeg, join(dir, ladder.at(-1)!, "index.m3u8"), join(dir, "direct.mp4"));
    await thumbnail(ffmpeg, clip, 5, join(dir, "thumb.jpg"));
    const byHandS = (performance.now() - t) / 1000;
    return { shelfS, byHandS, ratio: shelfS / byHandS, rungs: ladder.join(", ") };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
