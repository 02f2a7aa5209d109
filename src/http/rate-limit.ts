// Per-user, per-minute tiers, a sliding-window counter kept in the kv. If Redis
// cannot be reached the limit is kept per process instead (logged), never a 500.
import type { Clock } from "../infra/clock.ts";
import type { Kv, WindowResult } from "../infra/kv/index.ts";
import { createMemoryKv } from "../infra/kv/index.ts";
import type { Log } from "../infra/log.ts";
import type { Metrics } from "../infra/metrics.ts";
import { DEFAULT_RATE_LIMITS, type RateLimits, type Tier } from "./rate-tiers.ts";
import { rateLimitHeaders, rateLimited } from "../core/errors.ts";

export type { Tier } from "./rate-tiers.ts";
const WINDOW_MS = 60_000;

export interface RateLimiter {
  /** Counts one request; throws 429 RATE_LIMITED when over. Returns the headers to send. */
  hit(userId: string, tier: Tier): Promise<Record<string, string>>;
}

/**
 * `limits`: the tiers' limits (config.rateLimits). `clock`: the app's clock, which the
 * windows are cut from, so that every node, and a test that moves the clock, agree on them.
 */
export function createRateLimiter(
  kv: Kv,
  log: Log,
  opts: { limits?: RateLimits; clock?: Pick<Clock, "nowMs">; metrics?: Pick<Metrics, "rateLimited"> } = {},
): RateLimiter {
  const { limits = DEFAULT_RATE_LIMITS, clock, metrics } = opts;
  const local = createMemoryKv({ clock });
  const now = clock ? () => clock.nowMs() : () => Date.now();
  let lastWarn = 0;
  return {
    async hit(userId, tier) {
      const key = `rl:${tier}:${userId}`;
      const limit = limits[tier];
      const t = now();
      let result: WindowResult;
      try {
        result = await kv.slidingWindow(key, limit, WINDOW_MS, t);
      } catch (err) {
        if (Date.now() - lastWarn > 60_000) {
          lastWarn = Date.now();
          log.warn("rate limiter falling back to per-process limits", { err });
        }
        result = await local.slidingWindow(key, limit, WINDOW_MS, t);
      }
      if (!result.allowed) {
        metrics?.rateLimited(tier);
        throw rateLimited(`rate limit of ${limit} ${tier} requests per minute exceeded`, { tier, limit }, result);
      }
      return rateLimitHeaders(result);
    },
  };
}
