// (p) A 1 GB video upload streamed to storage, measured on an api in its own process
// (bench/api-process.ts), so the figures are the server's alone: its RSS when idle, its
// peak while the upload streams (the kernel's high-water mark, VmHWM, reset before each
// upload, and samples every 20 ms), and the growth between them; and its MB/s against
// this process writing the same bytes to the same kind of storage directly (a folder on
// the same disk, or the same S3 bucket on real parts), and against a bare Bun.serve taking
// the same request and writing its body to a file unparsed (what HTTP alone costs here).
// Passes alternate the three.
import { type ApiNode, startApiNode } from "./api-node.ts";
import { readFileSync, writeFileSync } from "node:fs";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createFsStorage } from "../src/infra/storage/fs.ts";
import { createS3Storage } from "../src/infra/storage/s3.ts";
import type { Storage } from "../src/infra/storage/index.ts";
import { costOf, cpuOf, load1, ownCpu, processCpu } from "./cpu.ts";
import { median } from "./passes.ts";

const MB = 1024 * 1024;
const CHUNK = new Uint8Array(MB).fill(7);

/** `bytes` of filler in 1 MB chunks, after `head` when given (the file's first bytes). */
export function filler(bytes: number, head?: Uint8Array, before?: Uint8Array, after?: Uint8Array): ReadableStream<Uint8Array> {
  let sent = 0;
  return new ReadableStream({
    start(c) {
      if (before) c.enqueue(before);
      if (head) c.enqueue(head);
    },
    pull(c) {
      if (sent >= bytes) {
        if (after) c.enqueue(after);
        return c.close();
      }
      c.enqueue(CHUNK);
      sent += CHUNK.length;
    },
  });
}

/** A one-second MP4: the container check reads the upload's first bytes. */
export async function mp4Head(): Promise<Uint8Array> {
  const dir = mkdtempSync(join(tmpdir(), "shelf-bench-head-"));
  try {
    const out = join(dir, "h.mp4");
    await Bun.$`ffmpeg -v error -y -f lavfi -i testsrc=size=64x36:rate=5:duration=1 -c:v libx264 ${out}`.quiet();
    return new Uint8Array(await Bun.file(out).arrayBuffer());
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A process's resident set and its high-water mark, in bytes (Linux /proc). */
export function memoryOf(pid: number): { rss: number; hwm: number } {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, "m").exec(status)?.[1] ?? Number.NaN) * 1024;
  return { rss: kb("VmRSS"), hwm: kb("VmHWM") };
}

export type Api = ApiNode;

export const startApi = (bare = false): Promise<Api> => startApiNode({ bare });

function directStorage(): { storage: Promise<Storage>; cleanup(): void } {
  if (process.env.S3_BUCKET) {
    const storage = createS3Storage({
      bucket: process.env.S3_BUCKET,
      endpoint: process.env.S3_ENDPOINT,
      region: process.env.S3_REGION ?? "us-east-1",
      accessKeyId: process.env.S3_ACCESS_KEY_ID!,
      secretAccessKey: process.env.S3_SECRET_ACCESS_KEY!,
    });
    return { storage: Promise.resolve(storage), cleanup() {} };
  }
  const dir = mkdtempSync(join(tmpdir(), "shelf-bench-direct-"));
  return { storage: createFsStorage(dir), cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

export interface UploadPass {
  seconds: number;
  idleMB: number;
  peakMB: number;
  /** The highest of the 20 ms samples (the peak is the high-water mark when that is higher). */
  sampledMB: number;
}

export async function benchVideoUpload(sizeBytes = 1024 * MB, passes = 3) {
  const head = await mp4Head();
  const api = await startApi();
  const bare = await startApi(true);
  const direct = directStorage();
  const storage = await direct.storage;
  const enc = new TextEncoder();
  const boundary = "----shelfbenchvideo";

  async function upload(bytes: number, to = api): Promise<UploadPass> {
    // The peak of this upload only: the high-water mark is reset (clear_refs 5) first.
    writeFileSync(`/proc/${to.pid}/clear_refs`, "5");
    const idle = memoryOf(to.pid).rss;
    let peak = idle;
    const sampler = setInterval(() => {
      peak = Math.max(peak, memoryOf(to.pid).rss);
    }, 20);
    const t = performance.now();
    try {
      const res = await fetch(`${to.origin}/v1/videos`, {
        method: "POST",
        headers: { authorization: `Bearer ${to.key}`, "content-type": `multipart/form-data; boundary=${boundary}` },
        body: filler(
          bytes,
          head,
          enc.encode(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.mp4"\r\n\r\n`),
          enc.encode(`\r\n--${boundary}--\r\n`),
        ),
      });
      if (res.status !== 201) throw new Error(`video upload failed: ${res.status} ${await res.text()}`);
      await res.arrayBuffer();
      const seconds = (performance.now() - t) / 1000;
      const sampled = peak;
      peak = Math.max(peak, memoryOf(to.pid).hwm);
      // The originals stay until the api stops (its data folder, or the bucket on real parts).
      return { seconds, idleMB: idle / MB, peakMB: peak / MB, sampledMB: sampled / MB };
    } finally {
      clearInterval(sampler);
    }
  }

  async function directPut(bytes: number): Promise<number> {
    const t = performance.now();
    await storage.put("bench/direct-video", filler(bytes, head));
    const seconds = (performance.now() - t) / 1000;
    await storage.delete("bench/direct-video");
    return seconds;
  }

  try {
    // Warm both paths (the route's code, the store's client) with a small file.
    await upload(16 * MB);
    await directPut(16 * MB);
    await upload(16 * MB, bare);
    const small = await upload(128 * MB);
    const runs: { shelf: UploadPass; directS: number; bareS: number }[] = [];
    // CPU per MB of each side: this process (the client, or the direct write) and the api's (or the bare server's).
    const cpu = { shelf: cpuOf(ownCpu, processCpu(api.pid)), bare: cpuOf(ownCpu, processCpu(bare.pid)) };
    const us = { shelf: [] as number[], direct: [] as number[], bare: [] as number[] };
    const perMB = (ms: number) => (ms * 1000 * MB) / sizeBytes;
    const loads = [load1()];
    for (let i = 0; i < passes; i++) {
      let c = ownCpu.read();
      const directS = await directPut(sizeBytes);
      us.direct.push(perMB(ownCpu.read() - c));
      c = cpu.bare.read();
      const bareS = (await upload(sizeBytes, bare)).seconds;
      us.bare.push(perMB(cpu.bare.read() - c));
      c = cpu.shelf.read();
      runs.push({ shelf: await upload(sizeBytes), directS, bareS });
      us.shelf.push(perMB(cpu.shelf.read() - c));
      loads.push(load1());
    }
    const ratios = runs.map((r) => r.directS / r.shelf.seconds);
    const mb = sizeBytes / MB;
    return {
      storage: api.storage,
      shelfMBs: median(runs.map((r) => mb / r.shelf.seconds)),
      directMBs: median(runs.map((r) => mb / r.directS)),
      /** A bare Bun.serve writing the body to a file: what HTTP alone allows here. */
      bareMBs: median(runs.map((r) => mb / r.bareS)),
      bareRatio: median(runs.map((r) => r.bareS / r.shelf.seconds)),
      ratio: median(ratios),
      low: Math.min(...ratios),
      high: Math.max(...ratios),
      idleMB: Math.min(...runs.map((r) => r.shelf.idleMB)),
      peakMB: Math.max(...runs.map((r) => r.shelf.peakMB)),
      growthMB: Math.max(...runs.map((r) => r.shelf.peakMB - r.shelf.idleMB)),
      /** The same for a 128 MB file: growth that does not follow the file's size is buffers, not the file. */
      smallGrowthMB: small.peakMB - small.idleMB,
      passes,
      /** CPU per MB: shelf against the direct write, and against the bare server. */
      cpu: costOf(us.shelf, us.direct),
      bareCpu: costOf(us.shelf, us.bare),
      load: { low: Math.min(...loads), high: Math.max(...loads) },
      runs: runs.map((r) => ({
        shelfS: r.shelf.seconds,
        directS: r.directS,
        bareS: r.bareS,
        idleMB: r.shelf.idleMB,
        peakMB: r.shelf.peakMB,
        sampledMB: r.shelf.sampledMB,
      })),
    };
  } finally {
    await api.stop();
    await bare.stop();
    direct.cleanup();
  }
}
