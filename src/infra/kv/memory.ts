// The embedded kv: one process, exact semantics of the Redis implementation.
import { randomUUID } from "node:crypto";
import type { Clock } from "../clock.ts";
import type { Kv, WindowResult } from "./types.ts";

type Entry = { value: string; expiresAt: number };

/**
 * `clock` is what TTLs, leases and windows are measured on: the wall clock unless given, so
 * that tests can expire them by moving a clock instead of waiting for them.
 */
export function createMemoryKv(opts: { clock?: Pick<Clock, "nowMs"> } = {}): Kv {
  const { clock } = opts;
  const now = clock ? () => clock.nowMs() : () => Date.now();
  const strings = new Map<string, Entry>();
  const hashes = new Map<string, Map<string, number>>();
  const windows = new Map<string, number[]>();
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
    for (const [k, hits] of windows) if (hits.length === 0 || hits[hits.length - 1]! < t - 3_600_000) windows.delete(k);
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
    async slidingWindow(key, limit, windowMs): Promise<WindowResult> {
      const t = now();
      let hits = windows.get(key);
      if (!hits) windows.set(key, (hits = []));
      let drop = 0;
      while (drop < hits.length && hits[drop]! <= t - windowMs) drop++;
      if (drop) hits.splice(0, drop);
      const allowed = hits.length < limit;
      if (allowed) hits.push(t);
      const oldest = hits[0] ?? t;
      return { allowed, limit, remaining: Math.max(0, limit - hits.length), resetMs: Math.max(0, oldest + windowMs - t) };
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
