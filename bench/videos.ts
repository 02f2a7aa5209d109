// (q) The local provider's transcode of a 60-second 1080p clip (worker step: download,
//     probe, ladder, MP4, thumbnail, upload) against the same ffmpeg runs by hand, run
//     before and after it.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { hlsRendition, ladderFor, mp4FromHls, probe, thumbnail } from "../src/modules/videos/providers/ffmpeg.ts";
import { createTranscodeWorker, createVideoProviders } from "../src/modules/videos/public.ts";
import { childrenCpu, costOf, cpuOf, load1, ownCpu } from "./cpu.ts";
import type { Shelf } from "./server.ts";

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
    // By hand: the same ffmpeg runs, from a local file to a local folder.
    const ffmpeg = deps.config.FFMPEG_PATH;
    let rungs = "";
    // CPU of each side: this process and the ffmpeg runs it waited for.
    const cpu = cpuOf(ownCpu, childrenCpu);
    const handCpu: number[] = [];
    async function byHand(): Promise<number> {
      const c0 = cpu.read();
      const out = mkdtempSync(join(dir, "hand-"));
      const t = performance.now();
      const info = await probe(ffmpeg, clip);
      const ladder = ladderFor(info.height);
      rungs = ladder.join(", ");
      for (const r of ladder) {
        await Bun.$`mkdir -p ${join(out, r)}`;
        await hlsRendition(ffmpeg, clip, r, true, join(out, r), () => {});
      }
      // As the worker decides: an MP4 that browsers play as it is (H.264/AAC) is its own direct MP4.
      if (info.videoCodec === "h264" && (info.audioCodec === null || info.audioCodec === "aac")) await Bun.write(join(out, "direct.mp4"), Bun.file(clip));
      else await mp4FromHls(ffmpeg, join(out, ladder.at(-1)!, "index.m3u8"), join(out, "direct.mp4"));
      await thumbnail(ffmpeg, clip, 5, join(out, "thumb.jpg"));
      const s = (performance.now() - t) / 1000;
      handCpu.push(cpu.read() - c0);
      rmSync(out, { recursive: true, force: true });
      return s;
    }
    // By hand before and after the worker, so a change in the machine's load during the
    // minutes each side takes weighs on both: the worker's time against their mean.
    const loads = [load1()];
    const before = await byHand();
    const t = performance.now();
    const c0 = cpu.read();
    while (await worker.step());
    const shelfCpu = cpu.read() - c0;
    const shelfS = (performance.now() - t) / 1000;
    const after = await byHand();
    loads.push(load1());
    const byHandS = (before + after) / 2;
    // One transcode a side: CPU per transcode in us, the by-hand side the mean of its two runs.
    const cost = costOf([shelfCpu * 1000], [((handCpu[0]! + handCpu[1]!) / 2) * 1000]);
    return {
      shelfS,
      byHandS,
      byHandRuns: [before, after],
      ratio: shelfS / byHandS,
      rungs,
      cpu: cost,
      load: { low: Math.min(...loads), high: Math.max(...loads) },
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
