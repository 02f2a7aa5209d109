// The KB load generator, run as its own process so it does not share the server's thread:
//   bun bench/kb-load.ts '<json options>'
// manifest: each connection walks a KB's manifest in pages of 1000, over and over; in v2
// from `since` with include=tombstones (the last page carries the tombstones).
// sync: each connection pushes batches of 2 KiB notes to its own KB (100 ops in v1, 200 in
// v2), half of them new paths and half updates of paths it made (with their base).
// Prints {"count":N,"seconds":S,"latencies":[ms...],"errors":E} on stdout.
import { noteBatch } from "./kb-notes.ts";

interface Options {
  mode: "manifest" | "sync";
  /** The sync protocol: 1 (default) or 2. */
  version?: 1 | 2;
  origin: string;
  key: string;
  kbIds: string[];
  /** sync: each connection's own credential (its own user), else `key` for all. */
  keys?: string[];
  /** v2 manifest: the cursor the walk starts after, and the tombstones its last page must carry. */
  since?: string;
  tombstones?: number;
  seconds: number;
  concurrency: number;
  /** sync: where this run's paths start, so passes never collide. */
  run: string;
}

const o = JSON.parse(Bun.argv[2]!) as Options;
const v2 = o.version === 2;
const headersOf = (w: number) => ({
  authorization: `Bearer ${o.keys?.[w] ?? o.key}`,
  "content-type": "application/json",
  ...(v2 && { "service-sync-version": "2" }),
});
const headers = headersOf(0);
const end = performance.now() + o.seconds * 1000;
const latencies: number[] = [];
let errors = 0;
const started = performance.now();

interface Page {
  items: unknown[];
  nextCursor: string | null;
  tombstones?: unknown[];
}

async function manifestWorker(w: number) {
  const kbId = o.kbIds[w % o.kbIds.length]!;
  const from = v2 ? `&include=tombstones&since=${o.since}` : "";
  let cursor: string | null = null;
  while (performance.now() < end) {
    const url: string = `${o.origin}/v1/kbs/${kbId}/manifest?limit=1000${from}${cursor ? `&cursor=${cursor}` : ""}`;
    const t0 = performance.now();
    const res: Response = await fetch(url, { headers });
    const d: Page = ((await res.json()) as { data: Page }).data;
    latencies.push(performance.now() - t0);
    const lastPageRight = !v2 || d?.tombstones?.length === o.tombstones;
    if (res.status !== 200 || (d.nextCursor ? d.items.length !== 1000 : !lastPageRight)) errors++;
    cursor = d?.nextCursor ?? null;
  }
}

/** The paths a push applied with their new times: v1 lists them, v2 answers per op. */
function appliedOf(data: { applied?: { relativePath: string; updatedAt: string }[]; results?: { status: string; relativePath: string; updatedAt: string }[] }) {
  return v2 ? (data.results ?? []).filter((r) => r.status === "applied") : (data.applied ?? []);
}

async function syncWorker(w: number) {
  const kbId = o.kbIds[w]!;
  const known = new Map<string, string>();
  let n = 0;
  while (performance.now() < end) {
    const batch = noteBatch(`${o.run}/w${w}`, known, () => n++, v2 ? 200 : 100);
    const ops = batch.map((b) => ({ op: "upsert", relativePath: b.path, content: b.content, sourceHash: b.hash, ...(b.base && { baseUpdatedAt: b.base }) }));
    const t0 = performance.now();
    const res = await fetch(`${o.origin}/v1/kbs/${kbId}/sync`, { method: "POST", headers: headersOf(w), body: JSON.stringify({ ops }) });
    const applied = appliedOf(((await res.json()) as { data: Parameters<typeof appliedOf>[0] }).data ?? {});
    latencies.push(performance.now() - t0);
    if (res.status !== 200 || applied.length !== ops.length) {
      errors++;
      continue;
    }
    for (const a of applied) known.set(a.relativePath, a.updatedAt);
  }
}

const worker = o.mode === "manifest" ? manifestWorker : syncWorker;
await Promise.all(Array.from({ length: o.concurrency }, (_, w) => worker(w)));
console.log(JSON.stringify({ count: latencies.length, seconds: (performance.now() - started) / 1000, latencies, errors }));
