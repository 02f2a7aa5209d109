// The edge's two in-process caches, both bounded:
// - records (what a kind's lookup answered for an id, null too), at most ENTRY_MAX per
//   kind, each trusted for CACHE_TTL_MS, then looked up again;
// - the bytes of small hot objects by object key, at most BYTES_MAX in all. Keys name
//   immutable bytes, so they never go stale; they are dropped with their object's record.
//   They are held as Blobs: a Response (or a range of it, Blob.slice) shares a Blob's
//   memory, where a Uint8Array body is copied on every response (22 us for 160 KB).

import { CACHE_TTL_MS, Lru } from "../../infra/cache.ts";
import type { ServedObject } from "./resolver.ts";

const ENTRY_MAX = 100_000;
/**
 * Objects up to this size are kept in memory once requested and answered from there; larger
 * ones are sent from their file where the store keeps files (embedded storage), else streamed
 * from storage. Bun writes a Blob in memory two to three times as fast as it sends a file
 * response at every size measured, 280 KB to 4 MB (docs/benchmarks.md, "The media edge
 * against nginx"), so the file is for what memory should not hold.
 */
export const HOT_OBJECT_MAX = 1024 * 1024;
const BYTES_MAX = 64 * 1024 * 1024;

type Entry = { v: ServedObject | null; at: number };

export function createEdgeCache(now: () => number = () => performance.now()) {
  // One LRU per kind, so a request's id is the key as it stands (no string built per
  // request). Entries are kept past their TTL until evicted or replaced: an invalidation
  // then still finds the object keys whose bytes it must drop.
  const records = new Map<string, Lru<Entry>>();
  const bytes = new Lru<Blob>(BYTES_MAX, (b) => b.size);
  const recordsOf = (kind: string) => {
    let lru = records.get(kind);
    if (!lru) records.set(kind, (lru = new Lru<Entry>(ENTRY_MAX)));
    return lru;
  };
  return {
    /** The cached answer, wrapped (a cached null is told from a miss); undefined once CACHE_TTL_MS old. */
    record(kind: string, id: string): { v: ServedObject | null } | undefined {
      const e = records.get(kind)?.get(id);
      return e && now() - e.at < CACHE_TTL_MS ? e : undefined;
    },
    setRecord(kind: string, id: string, v: ServedObject | null) {
      recordsOf(kind).set(id, { v, at: now() });
    },
    bytes: (key: string) => bytes.get(key),
    setBytes: (key: string, b: Uint8Array) => bytes.set(key, new Blob([b as Uint8Array<ArrayBuffer>])),
    /** Drops an object's record and the bytes of every variant it had. */
    drop(kind: string, id: string) {
      const lru = records.get(kind);
      const e = lru?.get(id);
      if (!e) return;
      lru!.delete(id);
      for (const variant of e.v?.variants ?? []) bytes.delete(variant.key);
    },
  };
}
