// Per-user, per-minute tiers (SPEC 8), a sliding window kept in the kv. If Redis cannot be
// reached the limit is kept per process instead (logged), never a 500.
import type { Kv, WindowResult } from "../infra/kv/index.ts";
import { createMemoryKv } from "../infra/kv/index.ts";
import type { Log } from "../infra/log.ts";
import { AppError } from "./errors.ts";

export const TIER_LIMITS = { read: 600, mutation: 120, upload: 60 } as const;
export type Tier = keyof typeof TIER_LIMITS;
const WINDOW_MS = 60_000;

export interface RateLimiter {
  /** Counts one request; throws 429 RATE_LIMITED when over. Returns the headers to send. */
  hit(userId: string, tier: Tier): Promise<Record<string, string>>;
}

function rateLimitHeaders(r: WindowResult): Record<string, string> {
  return {
    "ratelimit-limit": String(r.limit),
    "ratelimit-remaining": String(r.remaining),
    "ratelimit-reset": String(Math.ceil(r.resetMs / 1000)),
  };
}

/**
 * The one 429 of every limiter (SPEC 7): RateLimit-Limit, RateLimit-Remaining (0) and
 * RateLimit-Reset describe the limit that refused, Retry-After says when to come back.
 */
export function rateLimited(message: string, meta: Record<string, unknown>, r: { limit: number; resetMs: number }): AppError {
  const headers = rateLimitHeaders({ allowed: false, limit: r.limit, remaining: 0, resetMs: r.resetMs });
  return new AppError("RATE_LIMITED", message, meta, { ...headers, "retry-after": String(Math.max(1, Math.ceil(r.resetMs / 1000))) });
}

export function createRateLimiter(kv: Kv, log: Log): RateLimiter {
  const local = createMemoryKv();
  let lastWarn = 0;
  return {
    async hit(userId, tier) {
      const key = `rl:${tier}:${userId}`;
      const limit = TIER_LIMITS[tier];
      let result: WindowResult;
      try {
        result = await kv.slidingWindow(key, limit, WINDOW_MS);
      } catch (err) {
        if (Date.now() - lastWarn > 60_000) {
          lastWarn = Date.now();
          log.warn("rate limiter falling back to per-process limits", { err });
        }
        result = await local.slidingWindow(key, limit, WINDOW_MS);
      }
      if (!result.allowed) throw rateLimited(`rate limit of ${limit} ${tier} requests per minute exceeded`, { tier, limit }, result);
      return rateLimitHeaders(result);
    },
  };
}
