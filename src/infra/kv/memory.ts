// The embedded kv: one process, exact semantics of the Redis implementation.
import { randomUUID } from "node:crypto";
import type { Clock } from "../clock.ts";
import type { Kv, WindowResult } from "./types.ts";
import { type BucketState, takeTokens } from "./bucket.ts";
import { judgeWindow } from "./window.ts";

type Entry = { value: string; expiresAt: number };
/** A sliding-window counter's two buckets: `bucket` is the index of the current one. */
type Window = { bucket: number; current: number; previous: number; windowMs: number };

/**
 * `clock` is what TTLs, leases and windows are measured on: the wall clock unless given, so
 * that tests can expire them by moving a clock instead of waiting for them.
 */
export function createMemoryKv(opts: { clock?: Pick<Clock, "nowMs"> } = {}): Kv {
  const { clock } = opts;
  const now = clock ? () => clock.nowMs() : () => Date.now();
  const strings = new Map<string, Entry>();
  const hashes = new Map<string, Map<string, number>>();
  const windows = new Map<string, Window>();
  /** Token buckets that are not full, with the instant they would be. */
  const buckets = new Map<string, BucketState & { fullAt: number }>();
  // The latest instant a bucket call gave: buckets are swept on their callers' clock, which
  // may be another than this kv's (a test's clock set in the past must not empty them).
  let bucketNow = -Infinity;
  const channels = new Map<string, Set<(m: string) => void>>();

  const live = (key: string): Entry | undefined => {
    const e = strings.get(key);
    if (e && e.expiresAt <= now()) {
      strings.delete(key);
      return undefined;
    }
    return e;
  };
  const put = (key: string, value: string, ttlMs?: number) => strings.set(key, { value, expiresAt: ttlMs ? now() + ttlMs : Infinity });

  // Expired entries are dropped lazily on read and by this sweep, so memory stays bounded.
  const sweep = setInterval(() => {
    const t = now();
    for (const [k, e] of strings) if (e.expiresAt <= t) strings.delete(k);
    for (const [k, w] of windows) if ((w.bucket + 2) * w.windowMs <= t) windows.delete(k);
    for (const [k, b] of buckets) if (b.fullAt <= bucketNow) buckets.delete(k);
  }, 30_000);
  sweep.unref();

  return {
    kind: "memory",
    async get(key) {
      return live(key)?.value ?? null;
    },
    async set(key, value, ttlMs) {
      put(key, value, ttlMs);
    },
    async del(key) {
      strings.delete(key);
      hashes.delete(key);
      windows.delete(key);
      buckets.delete(key);
    },
    async incr(key, by, ttlMs) {
      const e = live(key);
      const next = (e ? Number(e.value) : 0) + by;
      if (e) e.value = String(next);
      else put(key, String(next), ttlMs);
      return next;
    },
    async hincrby(key, field, by) {
      let h = hashes.get(key);
      if (!h) hashes.set(key, (h = new Map()));
      h.set(field, (h.get(field) ?? 0) + by);
    },
    async claimHash(key, claimKey) {
      if (!hashes.has(claimKey)) {
        const h = hashes.get(key);
        if (!h) return {};
        hashes.delete(key);
        hashes.set(claimKey, h);
      }
      return Object.fromEntries(hashes.get(claimKey)!);
    },
    async slidingWindow(key, limit, windowMs, nowMs): Promise<WindowResult> {
      const t = nowMs ?? now();
      const bucket = Math.floor(t / windowMs);
      let w = windows.get(key);
      if (!w || w.windowMs !== windowMs || w.bucket < bucket - 1) windows.set(key, (w = { bucket, current: 0, previous: 0, windowMs }));
      else if (w.bucket === bucket - 1) Object.assign(w, { bucket, previous: w.current, current: 0 });
      // A time before the current bucket (a clock moved back) counts in the current bucket,
      // as if at its start: Redis would count it in an older bucket no later call reads.
      const elapsedMs = Math.max(0, t - w.bucket * windowMs);
      w.current++;
      const result = judgeWindow(limit, windowMs, elapsedMs, w.previous, w.current);
      if (!result.allowed) w.current--;
      return result;
    },
    async tokenBucket(key, capacity, refillPerMinute, cost, nowMs) {
      bucketNow = Math.max(bucketNow, nowMs);
      const { result, state, ttlMs } = takeTokens(buckets.get(key), capacity, refillPerMinute, cost, nowMs);
      if (ttlMs <= 0) buckets.delete(key);
      else buckets.set(key, { ...state, fullAt: nowMs + ttlMs });
      return result;
    },
    async acquireLease(key, leaseMs) {
      if (live(key)) return null;
      const token = randomUUID();
      put(key, token, leaseMs);
      return token;
    },
    async renewLease(key, token, leaseMs) {
      if (live(key)?.value !== token) return false;
      put(key, token, leaseMs);
      return true;
    },
    async releaseLease(key, token) {
      if (live(key)?.value === token) strings.delete(key);
    },
    async publish(channel, message) {
      for (const fn of channels.get(channel) ?? []) queueMicrotask(() => fn(message));
    },
    async subscribe(channel, onMessage) {
      let set = channels.get(channel);
      if (!set) channels.set(channel, (set = new Set()));
      set.add(onMessage);
      return async () => {
        set.delete(onMessage);
      };
    },
    async ping() {},
    async close() {
      clearInterval(sweep);
    },
  };
}
