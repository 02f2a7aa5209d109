// The key-value part: counters, limiter, leases and pub/sub. In process on one node,
// Redis when several nodes share state. Both implementations pass the same tests.
export interface WindowResult {
  allowed: boolean;
  limit: number;
  /** Requests still allowed in the current window after this one. */
  remaining: number;
  /** Milliseconds until one more call fits when refused; else until the count drops by one. */
  resetMs: number;
}

/** A token bucket's answer (bucket.ts). */
export interface BucketResult {
  allowed: boolean;
  /** Whole tokens left after this call. */
  remaining: number;
  /** When refused: milliseconds until the tokens it asked for are there; else 0. */
  retryAfterMs: number;
}

export interface Kv {
  readonly kind: "memory" | "redis";
  get(key: string): Promise<string | null>;
  set(key: string, value: string, ttlMs?: number): Promise<void>;
  del(key: string): Promise<void>;
  /** Atomically adds `by`; the expiry is set when the key is created. Returns the new value. */
  incr(key: string, by: number, ttlMs: number): Promise<number>;
  /** Atomically adds to one field of a hash (batched usage counters). */
  hincrby(key: string, field: string, by: number): Promise<void>;
  /**
   * Claims a hash of counters for processing that may fail: atomically renames `key` to
   * `claimKey` and returns its counters, unless `claimKey` still holds an earlier claim,
   * which is then returned as is (and `key` left alone). The caller deletes `claimKey`
   * (del) once the counters are safely elsewhere. {} when there is nothing to claim.
   */
  claimHash(key: string, claimKey: string): Promise<Record<string, number>>;
  /**
   * Sliding-window counter (window.ts): counts this call if the estimated count of the last
   * `windowMs` stays within `limit`. The windows are cut from `nowMs`, the caller's clock, so
   * that nodes sharing a Redis agree on them as closely as their clocks agree; without it
   * the in-process kv uses its own clock and Redis this node's wall clock.
   */
  slidingWindow(key: string, limit: number, windowMs: number, nowMs?: number): Promise<WindowResult>;
  /**
   * Token bucket (bucket.ts): takes `cost` tokens from the bucket at `key` (created full
   * with `capacity` tokens, refilled by `refillPerMinute` a minute) if it holds them, in
   * one atomic step. `nowMs` is the caller's clock, which every refill is measured on; the
   * key expires when the bucket would be full again.
   */
  tokenBucket(key: string, capacity: number, refillPerMinute: number, cost: number, nowMs: number): Promise<BucketResult>;
  /** Takes a lease; returns its token, or null when someone else holds it. */
  acquireLease(key: string, leaseMs: number): Promise<string | null>;
  /** Extends a lease still held with `token`; false when it was lost. */
  renewLease(key: string, token: string, leaseMs: number): Promise<boolean>;
  releaseLease(key: string, token: string): Promise<void>;
  publish(channel: string, message: string): Promise<void>;
  /** Returns a function that ends the subscription. */
  subscribe(channel: string, onMessage: (message: string) => void): Promise<() => Promise<void>>;
  ping(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Redis did not answer (down, restarting, the connection cut): the request was fine and
 * succeeds once it is back. The HTTP layer answers it with 503 and Retry-After, as it does
 * for the database; a command Redis refused (a script error) is not this.
 */
export class KvUnavailableError extends Error {
  constructor(cause: unknown) {
    super("the key-value store is unavailable", { cause });
    this.name = "KvUnavailableError";
  }
}
