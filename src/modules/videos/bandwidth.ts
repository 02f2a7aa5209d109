// An owner's video bandwidth state: ok, degraded past 100% of the plan's
// monthly media bandwidth, suspended past 120%. It is computed, never stored: from the
// month's media_bandwidth counter in the usage ledger (moved by the hourly attribution
// job) against the limit of the owner's plan now. So a plan upgrade takes effect as soon
// as the plan is written, and the month rollover as soon as the month changes (its counter
// starts at zero); each node keeps an answer for CACHE_TTL_MS, far inside the 1 to 2
// minutes allowed. Transitions (up) are recorded by the attribution job, in the
// transaction that moves the counter (recordBandwidthCrossings).
import type { Deps } from "../../wiring/deps.ts";
import { monthKey } from "../../infra/clock.ts";
import { TtlCache } from "../../infra/cache.ts";
import type { DbOrTx } from "../../infra/db/index.ts";
import { getUser, type Plans } from "../identity/public.ts";
import { type Crossing, tellCrossings } from "../notifications/public.ts";
import { snapshotUsage, videoBandwidthState } from "../usage/public.ts";

export type BandwidthState = ReturnType<typeof videoBandwidthState>;

/** An owner's month: bytes attributed so far and the plan's limit (-1: none). */
async function monthOf(db: DbOrTx, plans: Plans, ownerId: string, now: Date): Promise<{ used: number; limit: number } | null> {
  const user = await getUser(db, ownerId);
  if (!user) return null;
  const usage = await snapshotUsage(db, ownerId, now);
  return { used: usage.media_bandwidth, limit: plans[user.plan].mediaBandwidthBytes };
}

/** One owner's state now; ok for an owner that no longer exists (nothing of theirs plays). */
async function bandwidthStateOf(deps: Pick<Deps, "db" | "plans" | "clock">, ownerId: string): Promise<BandwidthState> {
  const month = await monthOf(deps.db, deps.plans, ownerId, deps.clock.now());
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

/**
 * The marks whose crossing is told to the owner (100% degrades, 110% warns, 120%
 * suspends), as outbox messages for the notifications work.
 */
const MARKS = [
  { mark: 100, kind: "video_bandwidth_degraded" },
  { mark: 110, kind: "video_bandwidth_over_110" },
  { mark: 120, kind: "video_bandwidth_suspended" },
] as const;

export interface AddedBandwidth {
  ownerId: string;
  month: string;
  bytes: number;
}

/**
 * Records every mark an owner's media bandwidth crossed by `added` (bytes just added to
 * the ledger in `tx`, summed per owner and month): one outbox row per mark, in the same
 * transaction, under the month's quota marks (notifications), so a crossing is told once
 * per month however many attributions see it; the 100% one is also the media_bandwidth
 * quota's 100% message. Only the current month's marks: a late count of a past month
 * changes nothing that plays. Returns the kinds of the messages queued.
 */
export async function recordBandwidthCrossings(
  tx: DbOrTx,
  plans: Plans,
  added: readonly AddedBandwidth[],
  now: Date,
): Promise<{ ownerId: string; kind: string }[]> {
  const current = monthKey(now);
  const byOwner = new Map<string, number>();
  for (const a of added) if (a.month === current && a.bytes > 0) byOwner.set(a.ownerId, (byOwner.get(a.ownerId) ?? 0) + a.bytes);
  const crossed: Crossing[] = [];
  for (const [ownerId, bytes] of byOwner) {
    const month = await monthOf(tx, plans, ownerId, now);
    if (!month || month.limit < 0) continue;
    const before = month.used - bytes;
    for (const mark of MARKS) {
      const at = (month.limit * mark.mark) / 100;
      if (before <= at && month.used > at) {
        crossed.push({
          userId: ownerId,
          dimension: "media_bandwidth",
          period: current,
          mark: mark.mark,
          kind: mark.kind,
          payload: { month: current, used: month.used, limit: month.limit, state: videoBandwidthState(month.used, month.limit) },
        });
      }
    }
  }
  const told = await tellCrossings(tx, crossed, now);
  return told.map(({ userId, kind }) => ({ ownerId: userId, kind }));
}
