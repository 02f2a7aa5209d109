// (v) The whole-account export (POST /v1/backup, written by the worker) against `tar` of the
// same files, in the same run: an account of images (random bytes, 64 KB to 4 MB, as a
// photo library's originals are) whose originals sit in the folder store; the export zips them (with
// their SHA-256s and the manifest) into the same store, and `tar -cf` copies the same
// originals to a file on the same disk. Throughput is MB/s of originals, passes alternating
// the two. Memory is this process's high-water mark while the worker writes an export
// (VmHWM, reset before it: clear_refs 5) over its RSS before, for an account and for one
// four times as large: flat as the account grows, and against tar's own peak (maxRSS).
import { existsSync, writeFileSync } from "node:fs";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { newImageId } from "../src/infra/ids.ts";
import { createExportWorker } from "../src/modules/backup/public.ts";
import { images } from "../src/modules/images/table.ts";
import { childrenCpu, cpuOf, type Measured, measuredInterleave, ownCpu } from "./cpu.ts";
import { memoryOf } from "./video-upload.ts";
import { startShelf } from "./server.ts";

const MB = 1024 * 1024;
type Shelf = Awaited<ReturnType<typeof startShelf>>;

/** `count` originals of one user, stored and recorded as images; their bytes in all. */
async function fillAccount(shelf: Shelf, userId: string, count: number): Promise<number> {
  const { deps } = shelf;
  let total = 0;
  const block = crypto.getRandomValues(new Uint8Array(4 * MB));
  for (let i = 0; i < count; i++) {
    // Sizes from 64 KB to 4 MB, more small than large (about 1.4 MB on average).
    const r = ((i * 7919) % 97) / 96;
    const bytes = block.subarray(0, Math.round(64 * 1024 + r * r * (4 * MB - 64 * 1024)));
    const id = newImageId();
    await deps.storage.put(`images/${userId}/${id}/original.png`, bytes);
    const now = new Date(Date.UTC(2026, 0, 1) + i * 1000);
    await deps.db.insert(images).values({
      id,
      ownerId: userId,
      filename: `photo-${i % 50}.png`,
      format: "png",
      width: 100,
      height: 100,
      size: bytes.length,
      createdAt: now,
      updatedAt: now,
    });
    total += bytes.length;
  }
  return total;
}

async function exportOnce(shelf: Shelf, key: string, worker: ReturnType<typeof createExportWorker>) {
  const res = await fetch(`${shelf.origin}/v1/backup`, {
    method: "POST",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    body: JSON.stringify({ kinds: ["images"] }),
  });
  const id = ((await res.json()) as { data: { id: string } }).data.id;
  const before = memoryOf(process.pid).rss;
  writeFileSync(`/proc/${process.pid}/clear_refs`, "5");
  const started = performance.now();
  while (await worker.step()) {}
  const seconds = (performance.now() - started) / 1000;
  const peak = memoryOf(process.pid).hwm;
  const done = await fetch(`${shelf.origin}/v1/backup/${id}`, { headers: { authorization: `Bearer ${key}` } });
  const e = ((await done.json()) as { data: { state: string; progress: { bytesDone: number }; archiveBytes: number } }).data;
  if (e.state !== "ready") throw new Error(`the export ended ${e.state}`);
  // The archive is removed between passes, as the store would after its expiry.
  await fetch(`${shelf.origin}/v1/backup/${id}`, { method: "DELETE", headers: { authorization: `Bearer ${key}` } });
  return { seconds, bytes: e.progress.bytesDone, archiveBytes: e.archiveBytes, growth: peak - before };
}

/** tar's own peak is what GNU time says of it (maxRSS of a spawn counts the forked parent's pages); 0 without it. */
const TIME = "/usr/bin/time";

async function tarOnce(objects: string, userId: string, out: string) {
  const timed = existsSync(TIME);
  const started = performance.now();
  const tar = ["tar", "-cf", out, "-C", objects, `images/${userId}`];
  const proc = Bun.spawn(timed ? [TIME, "-f", "%M", ...tar] : tar, { stdout: "ignore", stderr: "pipe" });
  const [code, err] = await Promise.all([proc.exited, new Response(proc.stderr).text()]);
  if (code !== 0) throw new Error(`tar failed: ${err}`);
  const seconds = (performance.now() - started) / 1000;
  const maxRss = timed ? Number(err.trim().split("\n").at(-1)) * 1024 : 0;
  rmSync(out, { force: true });
  return { seconds, maxRss };
}

export interface ExportFigures {
  /** MB/s of originals, and CPU per MB of each side: this process (the worker) and the tools it waited for (tar). */
  throughput: Measured;
  mb: number;
  files: number;
  smallGrowthMB: number;
  largeGrowthMB: number;
  tarPeakMB: number;
}

export async function benchExport(files = 400): Promise<ExportFigures> {
  const shelf = await startShelf({ PLAN_OVERRIDES: JSON.stringify({ pro_plus: { exportsPerDay: -1 } }), RATE_LIMITS: JSON.stringify({ mutation: 1_000_000 }) });
  const scratch = mkdtempSync(join(tmpdir(), "shelf-bench-tar-"));
  try {
    const worker = createExportWorker(shelf.deps);
    const objects = join(shelf.deps.config.DATA_DIR, "objects");
    const small = await shelf.newUserKey();
    await fillAccount(shelf, small.userId, Math.round(files / 4));
    const large = { userId: shelf.userId, key: shelf.key };
    const bytes = await fillAccount(shelf, large.userId, files);
    let tarPeak = 0;
    const cpu = cpuOf(ownCpu, childrenCpu);
    const throughput = await measuredInterleave(
      3,
      {
        cpu,
        run: async () => {
          const e = await exportOnce(shelf, large.key, worker);
          return { ops: e.bytes / MB, rate: e.bytes / MB / e.seconds };
        },
      },
      {
        cpu,
        run: async () => {
          const t = await tarOnce(objects, large.userId, join(scratch, "out.tar"));
          tarPeak = Math.max(tarPeak, t.maxRss);
          return { ops: bytes / MB, rate: bytes / MB / t.seconds };
        },
      },
    );
    const smallRun = await exportOnce(shelf, small.key, worker);
    const largeRun = await exportOnce(shelf, large.key, worker);
    return {
      throughput,
      mb: bytes / MB,
      files,
      smallGrowthMB: smallRun.growth / MB,
      largeGrowthMB: largeRun.growth / MB,
      tarPeakMB: tarPeak / MB,
    };
  } finally {
    await shelf.stop();
    rmSync(scratch, { recursive: true, force: true });
  }
}

if (import.meta.main) {
  console.log((await import("./cpu.ts")).runText());
  const { printExport } = await import("./export-print.ts");
  printExport(await benchExport(Number(process.env.EXPORT_BENCH_FILES ?? 400)));
}
