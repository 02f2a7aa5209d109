// The documents module's public surface: the one relative-path rule, for every place a
// path enters (a direct upload into a KB here; sync ops, raw by path and the manifest).
export { normalizePath, pathProblemText } from "./path.ts";
