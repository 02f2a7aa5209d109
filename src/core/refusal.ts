// A plan limit's refusal and its answers: the usage ledger (or another counter) throws a
// LimitRefusal saying which limit and the numbers, this says how a client hears it.
import { iso } from "../infra/clock.ts";
import { AppError, rateLimited } from "./errors.ts";

/**
 * A plan limit refused a need: what the usage ledger answers, as plain values. The HTTP
 * layer makes the response: 403 QUOTA_EXCEEDED, or 429 RATE_LIMITED when the count starts
 * again at `retryAt` (its RateLimit headers measured from `at`, the instant checked).
 * `userId` is whose counter refused: a full quota is told to its owner, against
 * `planLimit`, the plan's own limit, where `limit` allowed an overage (conflict branches).
 */
export class LimitRefusal extends Error {
  readonly planLimit: number;
  constructor(
    readonly userId: string,
    readonly dimension: string,
    readonly used: number,
    readonly limit: number,
    readonly at: Date,
    readonly retryAt?: Date,
    planLimit?: number,
  ) {
    super(`limit reached: ${dimension}`);
    this.name = "LimitRefusal";
    this.planLimit = planLimit ?? limit;
  }
}

/**
 * A need was refused, but by the time the ledger read the numbers to report, a delete had
 * made room: there is no true refusal to report, and the caller should try again.
 */
export class LimitRaced extends Error {
  constructor() {
    super("usage changed during the request; try again");
    this.name = "LimitRaced";
  }
}

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
