// The bounded in-process caches: an LRU by weight, and a cache whose entries are served
// for CACHE_TTL_MS at most. Every per-node cache of shared state (API keys, sessions,
// edge image records) uses the latter, so no node acts on state older than that.

/** How long a node may act on a cached copy of shared state (revocations take effect within 5 s). */
export const CACHE_TTL_MS = 5_000;

/**
 * Least recently used first: a Map iterates in insertion order, so a hit re-inserts its
 * entry, but only once the entry is in the older half (by insertion count): a hit in the
 * newer half is far from eviction already, and the hottest entries (an edge hit, a cached
 * key) are then one Map lookup instead of a lookup, a delete and an insert.
 */
export class Lru<V> {
  private map = new Map<string, { v: V; seq: number }>();
  private weight = 0;
  private seq = 0;
  constructor(
    private readonly maxWeight: number,
    private readonly weigh: (v: V) => number = () => 1,
  ) {}
  get(key: string): V | undefined {
    const e = this.map.get(key);
    if (e === undefined) return undefined;
    if (this.seq - e.seq > this.map.size >> 1) {
      this.map.delete(key);
      e.seq = ++this.seq;
      this.map.set(key, e);
    }
    return e.v;
  }
  set(key: string, v: V) {
    this.delete(key);
    const w = this.weigh(v);
    if (w > this.maxWeight) return;
    this.map.set(key, { v, seq: ++this.seq });
    this.weight += w;
    for (const [k, old] of this.map) {
      if (this.weight <= this.maxWeight) break;
      this.map.delete(k);
      this.weight -= this.weigh(old.v);
    }
  }
  delete(key: string) {
    const e = this.map.get(key);
    if (e === undefined) return;
    this.map.delete(key);
    this.weight -= this.weigh(e.v);
  }
  /** Drops every entry whose value matches: a walk of the whole cache, for rare events. */
  deleteWhere(matches: (v: V) => boolean) {
    for (const [key, e] of this.map) if (matches(e.v)) this.delete(key);
  }
}

/** Entries are served for CACHE_TTL_MS after they were set, then read again by the caller. */
export class TtlCache<V> {
  private readonly lru: Lru<{ v: V; at: number }>;
  constructor(
    maxEntries: number,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.lru = new Lru(maxEntries);
  }
  /** The cached value wrapped (so a cached null or false is told from a miss). */
  get(key: string): { v: V } | undefined {
    const e = this.lru.get(key);
    if (e && this.now() - e.at < CACHE_TTL_MS) return e;
    if (e) this.lru.delete(key);
    return undefined;
  }
  set(key: string, v: V) {
    this.lru.set(key, { v, at: this.now() });
  }
  delete(key: string) {
    this.lru.delete(key);
  }
  /** Drops every entry whose value matches (an account's, when it is deleted). */
  deleteWhere(matches: (v: V) => boolean) {
    this.lru.deleteWhere((e) => matches(e.v));
  }
}
