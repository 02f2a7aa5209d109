// The sliding-window counter both kv implementations share: one counter per fixed window
// ("bucket"), and the count of the last `windowMs` estimated from the current bucket and
// the previous one, whose requests are taken as evenly spread over it:
//
//   estimate = previous * (1 - elapsed / windowMs) + current
//
// It costs two counters per key instead of a log of every request, and it is exact for a
// steady stream of requests. Its error comes from uneven ones: requests bunched at the end
// of the previous bucket are undercounted (the worst case lets 2 * limit through in some
// span of `windowMs`, never more, since no bucket ever counts more than `limit`), bunched at
// its start they are overcounted (a request the exact window would take is refused).
import type { WindowResult } from "./types.ts";

/** The bucket `nowMs` falls in, its predecessor, and how far into it `nowMs` is. */
export function windowBuckets(key: string, windowMs: number, nowMs: number) {
  const bucket = Math.floor(nowMs / windowMs);
  return { bucket, current: `${key}:${bucket}`, previous: `${key}:${bucket - 1}`, elapsedMs: nowMs - bucket * windowMs };
}

/**
 * Judges one call from the two counts, `current` already including the call. Refused calls
 * are to be taken back out of `current` by the caller, so that, as with an exact window, a
 * client that keeps knocking while refused is not kept out longer for it.
 */
export function judgeWindow(limit: number, windowMs: number, elapsedMs: number, previous: number, current: number): WindowResult {
  // Scaled by windowMs so that the comparison with the limit is exact in integers.
  const left = windowMs - elapsedMs;
  const scaled = previous * left + current * windowMs;
  const allowed = scaled <= limit * windowMs;
  const counted = allowed ? current : current - 1;
  const estimate = (previous * left + counted * windowMs) / windowMs;
  // When refused: until one more call fits. Otherwise: until the estimate has dropped by one
  // call, the counterpart of "the oldest counted request leaves the window".
  const target = allowed ? Math.max(0, estimate - 1) : limit - 1;
  return {
    allowed,
    limit,
    remaining: Math.max(0, Math.floor(limit - estimate + 1e-9)),
    resetMs: Math.min(windowMs, msUntilBelow(target, windowMs, left, previous, counted)),
  };
}

/** Milliseconds until the estimate is at most `target` if no call is counted meanwhile. */
function msUntilBelow(target: number, windowMs: number, left: number, previous: number, current: number): number {
  if (current <= target) {
    // Within this bucket: the previous bucket's share decays to target - current.
    if (previous === 0) return 0;
    return Math.max(0, Math.ceil(left - ((target - current) * windowMs) / previous));
  }
  // Only in the next bucket, where this bucket's count decays in turn.
  return Math.ceil(left + windowMs * (1 - target / current));
}
