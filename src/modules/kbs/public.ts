// The KB module's public surface: a KB the caller owns and its lock, and its scheduled jobs
// (tombstones, conflict branches). Loading it provides documents
// with what a document in a KB needs (kb-side.ts).
import "./kb-side.ts";

export { createKb, getKb, lockKb } from "./service.ts";
export { openBranch, pendingBranchDocIds } from "./branches.ts";
export { BRANCHES_EXPIRING } from "./branch-expiry.ts";
// Its scheduled jobs, for the registry (jobs/index.ts).
export { conflictBranchesJob, pruneTombstones } from "./jobs.ts";
