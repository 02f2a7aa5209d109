// Conflict branches left pending: owners are told 7 days before a branch's
// auto-discard (an outbox message), branches are discarded at 30 days, and those pending
// 14 days are force-discarded while their owner is over the storage quota; resolved rows
// go 60 days after their branch was opened. Each sweep marks what it did in the
// transaction that does it, so a run is safe to repeat.
import { expireBranches, forceDiscardOverQuota, pruneResolvedBranches, warnExpiringBranches } from "./branch-expiry.ts";
import { type Job, result } from "../../../core/job.ts";

export const conflictBranchesJob: Job = {
  name: "conflict-branches",
  schedule: "23 * * * *",
  description:
    "warns of conflict branches 7 days before their auto-discard, discards them at 30 days, and at 14 days while their owner is over quota; deletes resolved ones opened 60 days ago",
  async run({ deps, signal }) {
    // Force-discard first: a branch it takes needs no warning.
    const forced = await forceDiscardOverQuota(deps, signal);
    const expired = await expireBranches(deps, signal);
    const warned = await warnExpiringBranches(deps, signal);
    const pruned = await pruneResolvedBranches(deps);
    return result(
      {
        forceDiscarded: forced.branches,
        forceDiscardedUsers: forced.users,
        expired: expired.branches,
        warned: warned.branches,
        warnedUsers: warned.users,
        pruned,
      },
      (c) =>
        `force-discarded ${c.forceDiscarded} branches of ${c.forceDiscardedUsers} users over quota, discarded ${c.expired} expired, warned ${c.warnedUsers} users of ${c.warned}, deleted ${c.pruned} resolved`,
    );
  },
};
