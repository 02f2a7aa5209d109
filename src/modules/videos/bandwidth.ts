// An owner's video bandwidth state: ok, degraded past 100% of the plan's
// monthly media bandwidth, suspended past 120%. It is computed, never stored: from the
// month's media_bandwidth counter in the usage ledger (moved by the hourly attribution
// job) against the limit of the owner's plan now. So a plan upgrade takes effect as soon
// as the plan is written, and the month rollover as soon as the month changes (its counter
// starts at zero); each node keeps an answer for CACHE_TTL_MS, far inside the 1 to 2
// minutes allowed. Transitions (up) are told to the owner by the usage module, in the
// transaction of the attribution that moves the counter (recordBandwidthCrossings).
import type { Deps } from "../../core/deps.ts";
import { monthKey } from "../../infra/clock.ts";
import { TtlCache } from "../../infra/cache.ts";
import { mediaBandwidthMonth, videoBandwidthState } from "../usage/public.ts";

export type BandwidthState = ReturnType<typeof videoBandwidthState>;

/** One owner's state now; ok for an owner that no longer exists (nothing of theirs plays). */
async function bandwidthStateOf(deps: Pick<Deps, "db" | "plans" | "clock">, ownerId: string): Promise<BandwidthState> {
  const month = await mediaBandwidthMonth(deps.db, deps.plans, ownerId, deps.clock.now());
  return month ? videoBandwidthState(month.used, month.limit) : "ok";
}

export interface BandwidthStates {
  /** The owner's state, from this node's cache when it is at most CACHE_TTL_MS old. */
  of(ownerId: string): Promise<BandwidthState>;
}

export function createBandwidthStates(deps: Pick<Deps, "db" | "plans" | "clock">): BandwidthStates {
  const cache = new TtlCache<BandwidthState>(100_000, deps.clock.nowMs);
  return {
    async of(ownerId) {
      // The month is part of the key: the first request of a new month reads afresh.
      const key = `${monthKey(deps.clock.now())}:${ownerId}`;
      const hit = cache.get(key);
      if (hit) return hit.v;
      const state = await bandwidthStateOf(deps, ownerId);
      cache.set(key, state);
      return state;
    },
  };
}
