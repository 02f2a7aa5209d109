// Drops tombstones past their owner's plan retention (30 days on trial and pro,
// 90 on pro_plus): owner by owner, each owner's boundary from the plan they have now.
// Idempotent: a run stopped half-way leaves only tombstones the next run deletes.
import { pruneTombstones as prune, tombstoneOwners } from "./tombstones.ts";
import { getUser, PLAN_NAMES } from "../../identity/public.ts";
import { type Job, result } from "../../../core/job.ts";

const DAY_MS = 86_400_000;

export const pruneTombstonesJob: Job = {
  name: "prune-tombstones",
  schedule: "23 3 * * *",
  description: "deletes KB tombstones older than their owner's plan retention",
  async run({ deps, signal }) {
    const now = deps.clock.nowMs();
    const shortest = Math.min(...PLAN_NAMES.map((p) => deps.plans[p].tombstoneRetentionDays));
    let deleted = 0;
    let owners = 0;
    for (const ownerId of await tombstoneOwners(deps.db, new Date(now - shortest * DAY_MS))) {
      if (signal.aborted) break;
      const user = await getUser(deps.db, ownerId);
      if (!user) continue;
      deleted += await prune(deps.db, ownerId, new Date(now - deps.plans[user.plan].tombstoneRetentionDays * DAY_MS));
      owners++;
    }
    return result({ deleted, owners }, (c) => `deleted ${c.deleted} tombstones of ${c.owners} users`);
  },
};
