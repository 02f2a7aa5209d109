// The documents module's public surface: the one relative-path rule, for every place a
// path enters (a direct upload into a KB here; sync ops, raw by path and the manifest),
// and what the KB side (the kbs module, which depends on this one) needs of a document.
export { normalizePath, pathProblemText } from "./path.ts";
// The row changes that move the books (usage, KB counts, history), for sync and KB deletes.
export { type Actor, hardDelete, lockDocument, moveDocument, replaceContent, softDelete } from "./row-changes.ts";
export type { Books, UsageNeed } from "./counters.ts";
export { insertRows, updateRows } from "./bulk-write.ts";
export { pruneHistory } from "./history.ts";
export { assertDocumentCompliant, formatOf } from "./create.ts";
// What a document in a KB needs of its KB, provided by kbs as it loads.
export { type Gone, type KbDelta, provideKbSide } from "./kb-side.ts";
export {
  activeAtKbPath,
  activeInKbSql,
  type DescribedText,
  describeText,
  documentOf,
  insertInKb,
  keptFrom,
  lockAtPath,
  lockAtPaths,
  type ManifestRow,
  manifestRows,
  pathsOfIds,
  purgeKbDocuments,
  replacedAfter,
} from "./kb-documents.ts";
export { readContent, removeObjects, sha256Hex, storeContent, type StoredContent, utf8Length } from "./content.ts";
export type { DocumentRow } from "./table.ts";
// Its objects and counted rows, for the orphan sweep and usage verify.
export { storedDocuments } from "./stored-kind.ts";
// The compile check of a Typst text (a sync push reports it as an upload does), and its model.
export { typstWarnings } from "./typst.ts";
export { TypstIssue } from "./model.ts";
