// Per-user token buckets on costly work, on top of the per-minute tiers (rate-limit.ts) and
// the plan's day and month counters: a user may burst up to a bucket's capacity, then goes
// on at its refill rate. Both numbers come from the user's plan (identity's plan table,
// looked up by the `rateOf` the wiring hands in: http/ imports no module). If Redis cannot
// be reached the buckets are kept per process instead (logged), never a 500.
import type { Clock } from "../infra/clock.ts";
import type { BucketResult, Kv } from "../infra/kv/index.ts";
import { createMemoryKv } from "../infra/kv/index.ts";
import type { Log } from "../infra/log.ts";
import type { Metrics } from "../infra/metrics.ts";
import { type AppError, rateLimited } from "../core/errors.ts";

/**
 * upload: each upload (image, video, audio, document, a tus upload's creation).
 * transcode: each video upload, which queues a transcode. syncOp: each op of a sync push.
 * mcpCall: each tool call of the hosted MCP server.
 */
export type BucketName = "upload" | "transcode" | "syncOp" | "mcpCall";

/** A bucket's size and refill; a capacity of -1 is no bucket. */
export interface BucketRate {
  capacity: number;
  refillPerMinute: number;
}

export interface Buckets {
  /**
   * Takes `cost` tokens from the user's bucket; throws 429 RATE_LIMITED (meta.bucket,
   * Retry-After when the tokens will be there) when it does not hold them.
   */
  take(userId: string, bucket: BucketName, cost?: number): Promise<void>;
}

const WHAT: Record<BucketName, string> = { upload: "uploads", transcode: "transcodes", syncOp: "sync ops", mcpCall: "MCP tool calls" };

/** The 429 of a refused take: RateLimit-Limit is the capacity, Retry-After the refill's wait. */
function bucketRefusal(bucket: BucketName, rate: BucketRate, cost: number, r: BucketResult): AppError {
  const message = `too many ${WHAT[bucket]} at once: a burst of ${rate.capacity}, then ${rate.refillPerMinute} a minute`;
  return rateLimited(
    message,
    { bucket, capacity: rate.capacity, refillPerMinute: rate.refillPerMinute, cost, retryAfterMs: r.retryAfterMs },
    { limit: rate.capacity, resetMs: r.retryAfterMs },
  );
}

export function createBuckets(
  kv: Kv,
  log: Log,
  opts: { clock: Pick<Clock, "nowMs">; rateOf: (userId: string, bucket: BucketName) => Promise<BucketRate>; metrics?: Pick<Metrics, "bucketRefused"> },
): Buckets {
  const { clock, rateOf, metrics } = opts;
  const local = createMemoryKv({ clock });
  let lastWarn = 0;
  return {
    async take(userId, bucket, cost = 1) {
      const rate = await rateOf(userId, bucket);
      if (rate.capacity < 0 || cost <= 0) return;
      const key = `tb:${bucket}:${userId}`;
      const t = clock.nowMs();
      let result: BucketResult;
      try {
        result = await kv.tokenBucket(key, rate.capacity, rate.refillPerMinute, cost, t);
      } catch (err) {
        if (Date.now() - lastWarn > 60_000) {
          lastWarn = Date.now();
          log.warn("token buckets falling back to per-process buckets", { err });
        }
        result = await local.tokenBucket(key, rate.capacity, rate.refillPerMinute, cost, t);
      }
      if (!result.allowed) {
        metrics?.bucketRefused(bucket);
        throw bucketRefusal(bucket, rate, cost, result);
      }
    },
  };
}
