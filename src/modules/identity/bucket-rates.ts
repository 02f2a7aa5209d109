// The size of a user's token buckets (uploads, transcodes, sync ops, MCP tool calls): their
// plan's burst and refill. The plan is cached as the guard caches credentials (5 s, then
// 10 s here): a charged request costs no database read, and a plan change holds on every
// node within seconds.
import type { Deps } from "../../core/deps.ts";
import type { PlanName } from "../../core/plans.ts";
import type { BucketName, BucketRate } from "../../http/buckets.ts";
import { TtlCache } from "../../infra/cache.ts";
import { requireUser } from "./users.ts";

const PLAN_CACHE_MS = 10_000;

export function bucketRates(deps: Deps): (userId: string, bucket: BucketName) => Promise<BucketRate> {
  const plansOf = new TtlCache<PlanName>(PLAN_CACHE_MS, () => deps.clock.nowMs());
  return async (userId, bucket) => {
    let plan = plansOf.get(userId)?.v;
    if (!plan) {
      plan = (await requireUser(deps.db, userId)).plan;
      plansOf.set(userId, plan);
    }
    const limits = deps.plans[plan];
    return { capacity: limits[`${bucket}Burst`], refillPerMinute: limits[`${bucket}RefillPerMinute`] };
  };
}
