// The answers to a plan limit's refusal (src/plans.ts): the ledger says which limit and the
// numbers, this says how a client hears it.
import { iso } from "../infra/clock.ts";
import { LimitRaced, LimitRefusal } from "../plans.ts";
import { AppError } from "./errors.ts";
import { rateLimited } from "./rate-limit.ts";

/**
 * 403 QUOTA_EXCEEDED with `meta.type`, `used` and `limit`; a count that starts
 * again at a known time is 429 RATE_LIMITED instead, its RateLimit headers describing that
 * count and Retry-After its reset. Undefined for anything that is not a refusal.
 */
export function refusalError(e: unknown): AppError | undefined {
  if (e instanceof LimitRaced) return new AppError("CONFLICT", e.message);
  if (!(e instanceof LimitRefusal)) return undefined;
  const meta = { type: e.dimension, used: e.used, limit: e.limit };
  if (!e.retryAt) return new AppError("QUOTA_EXCEEDED", `quota exceeded: ${e.dimension}`, meta);
  return rateLimited(
    `limit of ${e.limit} ${e.dimension.replaceAll("_", " ")} reached`,
    { ...meta, resetAt: iso(e.retryAt) },
    { limit: e.limit, resetMs: e.retryAt.getTime() - e.at.getTime() },
  );
}
