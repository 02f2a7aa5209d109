import type { Deps } from "../../core/deps.ts";
import { type PlanLimits, planActive, type User } from "../identity/public.ts";
import { DIMENSIONS } from "./dimensions.ts";
import { ledger } from "./ledger.ts";
import type { Usage } from "./model.ts";
import { usageReport } from "./report.ts";

/** Over 100% of the monthly video bandwidth degrades playback, over 120% suspends it. */
export function videoBandwidthState(used: number, limit: number): "ok" | "degraded" | "suspended" {
  if (limit < 0) return "ok";
  if (used > limit * 1.2) return "suspended";
  if (used > limit) return "degraded";
  return "ok";
}

export async function getUsage(deps: Deps, user: User): Promise<Usage> {
  const now = deps.clock.now();
  const limits: PlanLimits = deps.plans[user.plan];
  const snapshot = await ledger.snapshot(deps.db, user.id, now);
  return usageReport(
    DIMENSIONS,
    { snapshot, limits, now },
    {
      plan: user.plan,
      planActive: planActive(user, now),
      "video.status": videoBandwidthState(snapshot.media_bandwidth, limits.mediaBandwidthBytes),
      "planLimits.docCount": limits.docCount,
      "planLimits.revisionBytes": limits.revisionBytes,
    },
  ) as Usage;
}
