// Every all-time usage counter against the sum of its rows (usage verify): the daily run
// only reports (counts and a log line per counter); repairing is an operator's decision,
// `shelf admin usage verify --fix`.
import { verifyUsage } from "./verify.ts";
import { type Job, result } from "../../core/job.ts";
import type { StoredKind } from "./verify.ts";

/** Usage verify over `storedKinds`, every kind of stored thing (the job registry lists them). */
export const usageVerifyJob = (storedKinds: readonly StoredKind[]): Job => ({
  name: "usage-verify",
  schedule: "50 3 * * *",
  description: "compares every user's storage and count counters with the sum of their rows and reports the differences",
  async run({ deps, log, signal }) {
    const { users, differences } = await verifyUsage(deps.db, storedKinds, { signal });
    for (const d of differences) log.warn("usage counter differs from its rows", { ...d });
    return result({ users, differences: differences.length }, (c) => `checked ${c.users} users: ${c.differences} counters differ from their rows`);
  },
});
