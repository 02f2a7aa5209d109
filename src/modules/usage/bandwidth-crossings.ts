// The media bandwidth marks that change what plays: past 100% of the plan's monthly media
// bandwidth an owner's video playback degrades, past 120% it is suspended (the state is
// computed, never stored: videoBandwidthState). Each crossing upward is told to the owner
// once, in the transaction of the attribution that moved the counter: the edge's hourly
// bandwidth drain and the hosted provider's egress. Usage owns them because it owns the
// dimension and its quota marks; the videos module reads the state for playback.
import type { DbOrTx } from "../../infra/db/index.ts";
import { monthKey } from "../../infra/clock.ts";
import { getUser, type Plans } from "../identity/public.ts";
import { type Crossing, tellCrossings } from "../notifications/public.ts";
import { ledger } from "./ledger.ts";
import { emitCrossings } from "./notify.ts";
import { videoBandwidthState } from "./service.ts";

/** An owner's month: media bytes attributed so far and the plan's limit (-1: none); null for an owner that no longer exists. */
export async function mediaBandwidthMonth(db: DbOrTx, plans: Plans, ownerId: string, now: Date): Promise<{ used: number; limit: number } | null> {
  const user = await getUser(db, ownerId);
  if (!user) return null;
  const usage = await ledger.snapshot(db, ownerId, now);
  return { used: usage.media_bandwidth, limit: plans[user.plan].mediaBandwidthBytes };
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

interface AddedBandwidth {
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
    const month = await mediaBandwidthMonth(tx, plans, ownerId, now);
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
  await emitCrossings(tx, told, now);
  return told.map(({ userId, kind }) => ({ ownerId: userId, kind }));
}
