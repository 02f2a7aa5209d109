// The library's public surface: what the job registry, the operator's CLI and the tests'
// fixtures use of documents and knowledge bases. Everything else stays inside the module.
// Its scheduled jobs, and its objects and counted rows for the orphan sweep and usage verify.
import type { NoteSite } from "./kbs/note-html.ts";
export { conflictBranchesJob } from "./kbs/conflict-branches.job.ts";
export { pruneTombstonesJob } from "./kbs/prune-tombstones.job.ts";
export { syncV1ReminderJob } from "./kbs/sync-v1-reminder.job.ts";
export { remindV1Callers } from "./sync/v1-callers.ts";
export { storedDocuments } from "./documents/stored-kind.ts";
export { storedKbFiles } from "./files/stored-kind.ts";
// A KB the caller owns and its lock, the one relative-path rule, and documents' and
// conflict branches' rows as fixtures make them.
export { createKb, getKb, lockKb } from "./kbs/service.ts";
export { normalizePath, pathProblemText } from "./documents/path.ts";
export { openBranch, pendingBranchDocIds } from "./kbs/branches.ts";
export { BRANCHES_EXPIRING } from "./kbs/branch-expiry.ts";
export { describeText } from "./documents/kb-documents.ts";
export { lockAtPath } from "./documents/kb-rows.ts";
export { replaceContent } from "./documents/row-changes.ts";
export { removeObjects, sha256Hex, storeContent, utf8Length } from "./documents/content.ts";
// What an account export copies of documents and knowledge bases.
export {
  documentsForExport,
  type ExportKb,
  kbEntriesForExport,
  kbsForExport,
  libraryExportTotals,
  type RevisionExport,
  revisionsForExport,
} from "./export.ts";
// The trash: deleted documents and KBs, restored or purged through the trash module.
export { documentTrashPage, expiredDocuments, purgeDocument, restoreDocument } from "./documents/trash.ts";
export { expiredKbs, kbTrashPage, restoreKb } from "./kbs/trash.ts";
export { purgeKb } from "./kbs/manage.ts";
// What an account import makes of documents and knowledge bases, and takes back when it fails.
export { documentIdOwners, importDocument, importKb, importKbFile, kbPathHolder } from "./import.ts";
export { deleteDocument } from "./documents/service.ts";
export { trashKb } from "./kbs/trash.ts";
// What a share link's page reads of a document or a KB folder.
export { getDocument } from "./documents/service.ts";
export { readContent } from "./documents/content.ts";
export { listFolder } from "./kb-paths/tree.ts";
// The words of a note a page's preview shows.
export { noteExcerpt } from "./kbs/note-excerpt.ts";
/**
 * A note rendered for a page with no script (kbs/note-html.ts). markdown-it and its plugins
 * are loaded at the first note shown, not when a node starts (test/ops/lazy-start.test.ts).
 */
export async function renderNoteHtml(source: string, imageOrigins: readonly string[], site?: NoteSite): Promise<string> {
  return (await import("./kbs/note-html.ts")).renderNoteHtml(source, imageOrigins, site);
}
export { kbEntryInFolder } from "./kbs/shared-entry.ts";
// What a published site reads of a KB folder: its entries, how its notes name each other, its search.
export { type KbFolderEntry, kbFolderEntries } from "./kbs/shared-entry.ts";
export { isTextDocument, LinkIndex } from "./kbs/note-links.ts";
export type { NoteSite } from "./kbs/note-html.ts";
export { searchDocuments } from "./documents/search.ts";
