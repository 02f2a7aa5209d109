// (r) A resumable (tus) video upload of 1 GB in 8 MiB PATCHes against the direct
// multipart upload (POST /v1/videos) of the same bytes, to the same api in its own process
// (bench/api-process.ts): MB/s of each, their ratio, and the api's peak RSS while the tus
// upload runs (the kernel's high-water mark, reset first, and 20 ms samples). The tus
// figure includes what finishing costs: the file read back through the video pipeline to
// its own key. TUS_BENCH_MB sets the size (e.g. 128 for a quick try). Passes alternate.
import { writeFileSync } from "node:fs";
import { costOf, cpuOf, load1, ownCpu, processCpu } from "./cpu.ts";
import { median } from "./passes.ts";
import { type Api, filler, memoryOf, mp4Head, startApi } from "./video-upload.ts";

const MB = 1024 * 1024;
const CHUNK = 8 * MB;

const b64 = (s: string) => Buffer.from(s).toString("base64");

/** Runs `work` while watching `pid`'s memory: its time, and its RSS when idle and at peak. */
async function watched(pid: number, work: () => Promise<void>) {
  writeFileSync(`/proc/${pid}/clear_refs`, "5");
  const idle = memoryOf(pid).rss;
  let peak = idle;
  const sampler = setInterval(() => {
    peak = Math.max(peak, memoryOf(pid).rss);
  }, 20);
  const t = performance.now();
  try {
    await work();
    const seconds = (performance.now() - t) / 1000;
    return { seconds, idleMB: idle / MB, peakMB: Math.max(peak, memoryOf(pid).hwm) / MB };
  } finally {
    clearInterval(sampler);
  }
}

async function direct(api: Api, head: Uint8Array, bytes: number) {
  const boundary = "----shelfbenchtus";
  const enc = new TextEncoder();
  const res = await fetch(`${api.origin}/v1/videos`, {
    method: "POST",
    headers: { authorization: `Bearer ${api.key}`, "content-type": `multipart/form-data; boundary=${boundary}` },
    body: filler(
      bytes - head.length,
      head,
      enc.encode(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.mp4"\r\n\r\n`),
      enc.encode(`\r\n--${boundary}--\r\n`),
    ),
  });
  if (res.status !== 201) throw new Error(`direct upload failed: ${res.status} ${await res.text()}`);
  await res.arrayBuffer();
}

async function resumable(api: Api, first: Uint8Array, rest: Uint8Array, bytes: number) {
  const auth = { authorization: `Bearer ${api.key}`, "tus-resumable": "1.0.0" };
  const created = await fetch(`${api.origin}/v1/uploads`, {
    method: "POST",
    headers: { ...auth, "upload-length": String(bytes), "upload-metadata": `kind ${b64("video")},filename ${b64("big.mp4")}` },
  });
  if (created.status !== 201) throw new Error(`tus creation failed: ${created.status} ${await created.text()}`);
  const url = new URL(created.headers.get("location")!, api.origin).href;
  for (let offset = 0; offset < bytes; ) {
    const size = Math.min(CHUNK, bytes - offset);
    const body = (offset === 0 ? first : rest).subarray(0, size);
    const res = await fetch(url, {
      method: "PATCH",
      headers: { ...auth, "content-type": "application/offset+octet-stream", "upload-offset": String(offset) },
      body: body as Uint8Array<ArrayBuffer>,
    });
    if (res.status !== 204) throw new Error(`tus PATCH at ${offset} failed: ${res.status} ${await res.text()}`);
    offset = Number(res.headers.get("upload-offset"));
  }
}

export async function benchTusUpload(sizeBytes = Number(process.env.TUS_BENCH_MB ?? 1024) * MB, passes = 3) {
  const head = await mp4Head();
  const first = new Uint8Array(CHUNK).fill(7);
  first.set(head);
  const rest = new Uint8Array(CHUNK).fill(7);
  const api = await startApi();
  try {
    // Warm both routes.
    await direct(api, head, 16 * MB);
    await resumable(api, first, rest, 16 * MB);
    const runs: { directS: number; tusS: number; idleMB: number; peakMB: number; directPeakMB: number }[] = [];
    // CPU per MB of each side: the api's process and this one (the client) together.
    const cpu = cpuOf(ownCpu, processCpu(api.pid));
    const us = { tus: [] as number[], direct: [] as number[] };
    const loads = [load1()];
    for (let i = 0; i < passes; i++) {
      const c0 = cpu.read();
      const d = await watched(api.pid, () => direct(api, head, sizeBytes));
      const c1 = cpu.read();
      const r = await watched(api.pid, () => resumable(api, first, rest, sizeBytes));
      const c2 = cpu.read();
      loads.push(load1());
      us.direct.push(((c1 - c0) * 1000 * MB) / sizeBytes);
      us.tus.push(((c2 - c1) * 1000 * MB) / sizeBytes);
      runs.push({ directS: d.seconds, tusS: r.seconds, idleMB: r.idleMB, peakMB: r.peakMB, directPeakMB: d.peakMB });
    }
    const mb = sizeBytes / MB;
    const ratios = runs.map((r) => r.directS / r.tusS);
    return {
      storage: api.storage,
      sizeMB: mb,
      tusMBs: median(runs.map((r) => mb / r.tusS)),
      directMBs: median(runs.map((r) => mb / r.directS)),
      ratio: median(ratios),
      low: Math.min(...ratios),
      high: Math.max(...ratios),
      idleMB: Math.min(...runs.map((r) => r.idleMB)),
      peakMB: Math.max(...runs.map((r) => r.peakMB)),
      /** The direct upload's peak, for comparison. */
      directPeakMB: Math.max(...runs.map((r) => r.directPeakMB)),
      passes,
      cpu: costOf(us.tus, us.direct),
      load: { low: Math.min(...loads), high: Math.max(...loads) },
      runs: runs.map((r) => ({ directS: r.directS, tusS: r.tusS, peakMB: r.peakMB })),
    };
  } finally {
    await api.stop();
  }
}
