import { monthKey } from "../../infra/clock.ts";
import { planActive, type PlanLimits } from "../../plans.ts";
import type { Deps } from "../../deps.ts";
import type { User } from "../identity/public.ts";
import { snapshotUsage } from "./ledger.ts";
import type { Usage } from "./model.ts";

/** SPEC 3.3: over 100% of the monthly video bandwidth degrades playback, over 120% suspends it. */
export function videoBandwidthState(used: number, limit: number): "ok" | "degraded" | "suspended" {
  if (limit < 0) return "ok";
  if (used > limit * 1.2) return "suspended";
  if (used > limit) return "degraded";
  return "ok";
}

export async function getUsage(deps: Deps, user: User): Promise<Usage> {
  const now = deps.clock.now();
  const limits: PlanLimits = deps.plans[user.plan];
  const u = await snapshotUsage(deps.db, user.id, now);
  const monthYear = monthKey(now);
  return {
    plan: user.plan,
    planActive: planActive(user, now),
    image: {
      storage: { used: u.imageStorageBytes, limit: limits.imageStorageBytes },
      bandwidth: { used: u.imageBandwidthBytes, limit: limits.imageBandwidthBytes, monthYear },
    },
    video: {
      storage: { used: u.mediaStorageBytes, limit: limits.mediaStorageBytes },
      bandwidth: { used: u.mediaBandwidthBytes, limit: limits.mediaBandwidthBytes, monthYear },
      status: videoBandwidthState(u.mediaBandwidthBytes, limits.mediaBandwidthBytes),
    },
    doc: { count: { used: u.docCount, limit: limits.docCount } },
    planLimits: { docCount: limits.docCount },
    docs: { revisionCount: u.revisionCount, revisionBytes: u.revisionBytes },
    uploads: { day: { used: u.uploadsToday, limit: limits.uploadsPerDay }, month: { used: u.uploadsMonth, limit: limits.uploadsPerMonth } },
  };
}
