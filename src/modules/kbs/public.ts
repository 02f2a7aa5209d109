// The KB module's public surface: a KB the caller owns and its lock, conflict branches for
// tests and fixtures, and its scheduled jobs. Loading it provides documents with what a
// document in a KB needs (kb-side.ts).
import "./kb-side.ts";

export { createKb, getKb, lockKb } from "./service.ts";
export { openBranch, pendingBranchDocIds } from "./branches.ts";
export { BRANCHES_EXPIRING } from "./branch-expiry.ts";
export { conflictBranchesJob } from "./conflict-branches.job.ts";
export { pruneTombstonesJob } from "./prune-tombstones.job.ts";
export { syncV1ReminderJob } from "./sync-v1-reminder.job.ts";
export { remindV1Callers } from "./sync/v1-callers.ts";
