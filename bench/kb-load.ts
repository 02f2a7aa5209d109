// The KB load generator, run as its own process so it does not share the server's thread:
//   bun bench/kb-load.ts '<json options>'
// manifest: each connection walks a KB's manifest in pages of 1000, over and over.
// sync: each connection pushes 100-op v1 batches of 2 KiB notes to its own KB, half of
// them new paths and half updates of paths it made (with their baseUpdatedAt).
// Prints {"count":N,"seconds":S,"latencies":[ms...],"errors":E} on stdout.
import { noteBatch } from "./kb-notes.ts";

interface Options {
  mode: "manifest" | "sync";
  origin: string;
  key: string;
  kbIds: string[];
  /** sync: each connection's own credential (its own user), else `key` for all. */
  keys?: string[];
  seconds: number;
  concurrency: number;
  /** sync: where this run's paths start, so passes never collide. */
  run: string;
}

const o = JSON.parse(Bun.argv[2]!) as Options;
const headersOf = (w: number) => ({ authorization: `Bearer ${o.keys?.[w] ?? o.key}`, "content-type": "application/json" });
const headers = headersOf(0);
const end = performance.now() + o.seconds * 1000;
const latencies: number[] = [];
let errors = 0;
const started = performance.now();

async function manifestWorker(w: number) {
  const kbId = o.kbIds[w % o.kbIds.length]!;
  let cursor: string | null = null;
  while (performance.now() < end) {
    const url = `${o.origin}/v1/kbs/${kbId}/manifest?limit=1000${cursor ? `&cursor=${cursor}` : ""}`;
    const t0 = performance.now();
    const res = await fetch(url, { headers });
    const body = (await res.json()) as { data: { items: unknown[]; nextCursor: string | null } };
    latencies.push(performance.now() - t0);
    if (res.status !== 200 || (body.data.nextCursor && body.data.items.length !== 1000)) errors++;
    cursor = body.data?.nextCursor ?? null;
  }
}

async function syncWorker(w: number) {
  const kbId = o.kbIds[w]!;
  const known = new Map<string, string>();
  let n = 0;
  while (performance.now() < end) {
    const batch = noteBatch(`${o.run}/w${w}`, known, () => n++);
    const ops = batch.map((b) => ({ op: "upsert", relativePath: b.path, content: b.content, sourceHash: b.hash, ...(b.base && { baseUpdatedAt: b.base }) }));
    const t0 = performance.now();
    const res = await fetch(`${o.origin}/v1/kbs/${kbId}/sync`, { method: "POST", headers: headersOf(w), body: JSON.stringify({ ops }) });
    const body = (await res.json()) as { data: { applied: { relativePath: string; updatedAt: string }[] } };
    latencies.push(performance.now() - t0);
    if (res.status !== 200 || body.data.applied.length !== ops.length) {
      errors++;
      continue;
    }
    for (const a of body.data.applied) known.set(a.relativePath, a.updatedAt);
  }
}

const worker = o.mode === "manifest" ? manifestWorker : syncWorker;
await Promise.all(Array.from({ length: o.concurrency }, (_, w) => worker(w)));
console.log(JSON.stringify({ count: latencies.length, seconds: (performance.now() - started) / 1000, latencies, errors }));
