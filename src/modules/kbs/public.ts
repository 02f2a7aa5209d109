// The KB module's public surface: a KB the caller owns and its lock, and the KB side of
// documents the jobs use (conflict branches and tombstones). Loading it provides documents
// with what a document in a KB needs (kb-side.ts).
import "./kb-side.ts";

export { createKb, getKb, lockKb } from "./service.ts";
export { openBranch, pendingBranchDocIds } from "./branches.ts";
export { BRANCHES_EXPIRING, expireBranches, forceDiscardOverQuota, pruneResolvedBranches, warnExpiringBranches } from "./branch-expiry.ts";
export { pruneTombstones, tombstoneOwners } from "./tombstones.ts";
