// The v2 KB load generator, run as its own process (as bench/kb-load.ts for v1):
//   bun bench/kb-load-v2.ts '<json options>'
// manifest: each connection walks a KB's v2 manifest from `since` with include=tombstones,
// in pages of 1000, over and over (the last page carries the tombstones).
// sync: each connection pushes 200-op v2 batches of 2 KiB notes (sourceHash on every op)
// to its own KB, half new paths and half updates of paths it made (with their base).
// Prints {"count":N,"seconds":S,"latencies":[ms...],"errors":E} on stdout.
import { noteBatch } from "./kb-notes.ts";

interface Options {
  mode: "manifest" | "sync";
  origin: string;
  key: string;
  kbIds: string[];
  keys?: string[];
  since?: string;
  /** manifest: the tombstones the last page must carry. */
  tombstones?: number;
  seconds: number;
  concurrency: number;
  run: string;
}

const o = JSON.parse(Bun.argv[2]!) as Options;
const headersOf = (w: number) => ({ authorization: `Bearer ${o.keys?.[w] ?? o.key}`, "content-type": "application/json", "service-sync-version": "2" });
const end = performance.now() + o.seconds * 1000;
const latencies: number[] = [];
let errors = 0;
const started = performance.now();

async function manifestWorker(w: number) {
  const kbId = o.kbIds[w % o.kbIds.length]!;
  let cursor: string | null = null;
  while (performance.now() < end) {
    const url = `${o.origin}/v1/kbs/${kbId}/manifest?limit=1000&include=tombstones&since=${o.since}${cursor ? `&cursor=${cursor}` : ""}`;
    const t0 = performance.now();
    const res = await fetch(url, { headers: headersOf(0) });
    const body = (await res.json()) as { data: { items: unknown[]; nextCursor: string | null; tombstones?: unknown[] } };
    latencies.push(performance.now() - t0);
    const d = body.data;
    if (res.status !== 200 || (d.nextCursor ? d.items.length !== 1000 : d.tombstones?.length !== o.tombstones)) errors++;
    cursor = d?.nextCursor ?? null;
  }
}

async function syncWorker(w: number) {
  const kbId = o.kbIds[w]!;
  const known = new Map<string, string>();
  let n = 0;
  while (performance.now() < end) {
    const batch = noteBatch(`${o.run}/w${w}`, known, () => n++, 200);
    const ops = batch.map((b) => ({ op: "upsert", relativePath: b.path, content: b.content, sourceHash: b.hash, ...(b.base && { baseUpdatedAt: b.base }) }));
    const t0 = performance.now();
    const res = await fetch(`${o.origin}/v1/kbs/${kbId}/sync`, { method: "POST", headers: headersOf(w), body: JSON.stringify({ ops }) });
    const body = (await res.json()) as { data: { results: { status: string; relativePath: string; updatedAt: string }[] } };
    latencies.push(performance.now() - t0);
    if (res.status !== 200 || body.data.results.filter((r) => r.status === "applied").length !== ops.length) {
      errors++;
      continue;
    }
    for (const r of body.data.results) known.set(r.relativePath, r.updatedAt);
  }
}

const worker = o.mode === "manifest" ? manifestWorker : syncWorker;
await Promise.all(Array.from({ length: o.concurrency }, (_, w) => worker(w)));
console.log(JSON.stringify({ count: latencies.length, seconds: (performance.now() - started) / 1000, latencies, errors }));
