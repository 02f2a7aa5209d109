// The documents module's public surface: the one path rule, and the row changes a KB sync
// builds on (each keeps counters and history in the caller's transaction).
export { normalizePath, pathKey, pathProblemText, type NormalizedPath, type PathProblem } from "./path.ts";
export { hardDelete, lockDocument, replaceContent, softDelete, type Actor, type NextContent } from "./rows.ts";
