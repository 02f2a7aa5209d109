// The token bucket both kv implementations share (redis.ts runs the same steps as a Lua
// script). A bucket holds up to `capacity` tokens and gains `refillPerMinute` a minute; a
// call takes `cost` tokens if they are there, else is refused and told when they will be.
//
// Tokens are kept in 1/60000ths (one per millisecond of a minute), so that a refill of R a
// minute is exactly R units a millisecond: all of it is integer arithmetic, exact in a
// double, the same in JavaScript and in Redis's Lua, and Retry-After is exact to the
// millisecond. A bucket that is full is the same as no bucket: its key is dropped (the
// state expires at the instant it would be full), so idle users cost no memory.
import type { BucketResult } from "./types.ts";

/** Units of one token. */
const UNIT = 60_000;

/** A bucket's state: its tokens in units, at instant `at` (ms). */
export interface BucketState {
  units: number;
  at: number;
}

/**
 * One call against `state` (undefined: full) at `nowMs`. Returns the answer and the state
 * to keep, with `ttlMs` until it is full again (0: full now, drop the key). A cost above
 * the capacity needs a full bucket and empties it, so that it is not refused forever. A
 * `nowMs` before the state's instant (a clock that went back) refills nothing and keeps
 * the later instant.
 */
export function takeTokens(
  state: BucketState | undefined,
  capacity: number,
  refillPerMinute: number,
  cost: number,
  nowMs: number,
): { result: BucketResult; state: BucketState; ttlMs: number } {
  const full = capacity * UNIT;
  let units = full;
  let at = nowMs;
  if (state) {
    units = state.units;
    at = state.at;
    if (nowMs > at) {
      units = Math.min(full, units + (nowMs - at) * refillPerMinute);
      at = nowMs;
    }
  }
  const need = Math.min(capacity, cost) * UNIT;
  const allowed = units >= need;
  if (allowed) units -= need;
  const retryAfterMs = allowed ? 0 : Math.ceil((need - units) / refillPerMinute);
  return {
    result: { allowed, remaining: Math.floor(units / UNIT), retryAfterMs },
    state: { units, at },
    ttlMs: Math.ceil((full - units) / refillPerMinute),
  };
}
