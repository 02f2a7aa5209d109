// The documents module's public surface: the one relative-path rule, for every place a
// path enters (a direct upload into a KB here; sync ops, raw by path and the manifest).
export { normalizePath, pathProblemText } from "./path.ts";
// The row changes that move the books (usage, KB counts, history), for sync and KB deletes.
export { type Actor, hardDelete, moveDocument, replaceContent, softDelete } from "./row-changes.ts";
export { ackTombstones, pruneTombstones, tombstoneOwners, tombstonesBetween } from "./tombstones.ts";
export { assertDocumentCompliant, formatOf } from "./create.ts";
export { BatchBooks } from "./counter-moves.ts";
export {
  activeAtKbPath,
  type DescribedText,
  describeText,
  insertInKb,
  keptFrom,
  lockAtPath,
  lockAtPaths,
  manifestRows,
  pathsOfIds,
  purgeKbDocuments,
} from "./kb-documents.ts";
export { readContent, removeObjects, sha256Hex, storeContent, utf8Length } from "./content.ts";
export type { DocumentRow } from "./table.ts";
// Conflict branches: opened by sync under preserve_both, listed, read, adopted and
// discarded through the KB's conflicts endpoints, swept by the conflict-branches job.
export { handBranchesTo, openBranch, listBranches, pendingBranchDocIds, readBranch } from "./branches.ts";
export { acceptBranch, discardBranch } from "./branch-resolve.ts";
export { BRANCHES_EXPIRING, expireBranches, forceDiscardOverQuota, pruneResolvedBranches, warnExpiringBranches } from "./branch-expiry.ts";
// Its objects and counted rows, for the orphan sweep and usage verify.
export { storedDocuments } from "./stored-kind.ts";
