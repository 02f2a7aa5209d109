// The edge's two in-process caches, both bounded:
// - image records (who owns it, public or not, sizes, ETags), at most ENTRY_MAX of them,
//   each trusted for CACHE_TTL_MS only, then read again from the database;
// - the bytes of small hot objects, at most BYTES_MAX in all. Objects are immutable per
//   key, so bytes never go stale; they are dropped when their image is deleted.
export const CACHE_TTL_MS = 5_000;
const ENTRY_MAX = 100_000;
/** Objects up to this size are kept in memory once requested; larger ones stream from storage. */
export const HOT_OBJECT_MAX = 1024 * 1024;
const BYTES_MAX = 64 * 1024 * 1024;

/** Least recently used first: a Map iterates in insertion order, so a hit re-inserts. */
export class Lru<V> {
  private map = new Map<string, V>();
  private weight = 0;
  constructor(
    private readonly maxWeight: number,
    private readonly weigh: (v: V) => number = () => 1,
  ) {}
  get(key: string): V | undefined {
    const v = this.map.get(key);
    if (v !== undefined) {
      this.map.delete(key);
      this.map.set(key, v);
    }
    return v;
  }
  set(key: string, v: V) {
    this.delete(key);
    const w = this.weigh(v);
    if (w > this.maxWeight) return;
    this.map.set(key, v);
    this.weight += w;
    for (const [k, old] of this.map) {
      if (this.weight <= this.maxWeight) break;
      this.map.delete(k);
      this.weight -= this.weigh(old);
    }
  }
  delete(key: string) {
    const v = this.map.get(key);
    if (v === undefined) return;
    this.map.delete(key);
    this.weight -= this.weigh(v);
  }
  deleteWhere(pred: (key: string) => boolean) {
    for (const k of [...this.map.keys()]) if (pred(k)) this.delete(k);
  }
  get size() {
    return this.map.size;
  }
}

export interface EdgeImage {
  id: string;
  ownerId: string;
  format: "jpeg" | "png" | "gif" | "webp" | "avif" | "svg";
  isPublic: boolean;
  size: number;
  webpSize: number | null;
}

export function createEdgeCache(now: () => number = () => performance.now()) {
  // null is cached too (unknown ids), so a flood of misses does not reach the database.
  const records = new Lru<{ v: EdgeImage | null; at: number }>(ENTRY_MAX);
  const bytes = new Lru<Uint8Array>(BYTES_MAX, (b) => b.length);
  return {
    record(id: string): { v: EdgeImage | null } | undefined {
      const e = records.get(id);
      if (e && now() - e.at < CACHE_TTL_MS) return e;
      if (e) records.delete(id);
      return undefined;
    },
    setRecord(id: string, v: EdgeImage | null) {
      records.set(id, { v, at: now() });
    },
    bytes: (key: string) => bytes.get(key),
    setBytes: (key: string, b: Uint8Array) => bytes.set(key, b),
    /** Drops an image's record and its bytes (its keys all contain `/<id>/`). */
    drop(id: string) {
      records.delete(id);
      bytes.deleteWhere((k) => k.includes(`/${id}/`));
    },
  };
}
export type EdgeCache = ReturnType<typeof createEdgeCache>;
