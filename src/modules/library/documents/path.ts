// The one relative-path rule: every path that enters the service (a direct
// upload into a KB, sync ops, raw by path, the manifest) goes through normalizePath, so
// two spellings of one name are one path everywhere.
//
// Letter case: a path is stored as given (after NFC) but is unique within its KB by its
// case-folded form (pathKey). A client on a case-insensitive file system (macOS, Windows)
// can hold only one of "Notes.md" and "notes.md"; if the server kept both, that client
// would silently lose one on its next pull. So the second spelling is refused while the
// first is active, and a soft-deleted document is recreated under the new spelling.
import { hasBidiControl, hasControlChar, hasInvisibleInIdentifier } from "../../../core/text.ts";

/** Why a path was refused, for the error message. */
export type PathProblem =
  | "ill-formed"
  | "empty"
  | "leading-slash"
  | "backslash"
  | "dot-dot"
  | "dot"
  | "empty-segment"
  | "too-long"
  | "segment-too-long"
  | "control-character"
  | "bidi-control"
  | "invisible-character";

const MAX_PATH_LENGTH = 1024;
const MAX_SEGMENT_LENGTH = 255;

const PROBLEM_TEXT: Record<PathProblem, string> = {
  "ill-formed": "the path is not well-formed Unicode (it holds a lone surrogate)",
  empty: "the path is empty",
  "leading-slash": "the path must be relative (no leading /)",
  backslash: "the path may not contain a backslash",
  "dot-dot": "the path may not contain a .. segment",
  dot: "the path may not contain a . segment (it would name the same file as the path without it)",
  "empty-segment": "the path may not contain an empty segment (//, or a trailing /)",
  "too-long": `the path may have at most ${MAX_PATH_LENGTH} characters`,
  "segment-too-long": `each segment of the path may have at most ${MAX_SEGMENT_LENGTH} characters`,
  "control-character": "the path may not contain NUL or control characters",
  "bidi-control": "the path may not contain bidirectional control characters (U+200E, U+200F, U+061C, U+202A-U+202E, U+2066-U+2069)",
  "invisible-character":
    "the path may not contain invisible characters: zero-width and other format characters (such as U+200B, U+00AD, U+2060, U+FEFF), U+2028 or U+2029, or a zero-width joiner outside the letters it joins",
};

export const pathProblemText = (p: PathProblem) => PROBLEM_TEXT[p];

export type NormalizedPath = { ok: true; path: string; key: string } | { ok: false; problem: PathProblem };

/** Characters are counted as code points, so an emoji is one character, as a user counts it. */
const length = (s: string) => {
  let n = 0;
  for (const _ of s) n++;
  return n;
};

/**
 * NFC first, then the rules: a spelling that differs only in Unicode normalization is the
 * same path, and the rules judge the form that is stored. `key` is the case-folded form
 * the uniqueness of a path within a KB is decided by.
 */
export function normalizePath(input: string): NormalizedPath {
  // A lone surrogate has no UTF-8 form: stored, it would become U+FFFD and no longer be
  // the name the client sent.
  if (!input.isWellFormed()) return { ok: false, problem: "ill-formed" };
  const path = input.normalize("NFC");
  if (path.length === 0) return { ok: false, problem: "empty" };
  if (hasControlChar(path)) return { ok: false, problem: "control-character" };
  // A path is a name a listing shows: the characters names may not hold (src/core/text.ts).
  if (hasBidiControl(path)) return { ok: false, problem: "bidi-control" };
  if (hasInvisibleInIdentifier(path)) return { ok: false, problem: "invisible-character" };
  if (path.startsWith("/")) return { ok: false, problem: "leading-slash" };
  if (path.includes("\\")) return { ok: false, problem: "backslash" };
  if (length(path) > MAX_PATH_LENGTH) return { ok: false, problem: "too-long" };
  for (const segment of path.split("/")) {
    if (segment === "") return { ok: false, problem: "empty-segment" };
    if (segment === "..") return { ok: false, problem: "dot-dot" };
    if (segment === ".") return { ok: false, problem: "dot" };
    if (length(segment) > MAX_SEGMENT_LENGTH) return { ok: false, problem: "segment-too-long" };
  }
  return { ok: true, path, key: pathKey(path) };
}

/**
 * The case-folded form of an NFC path. Upper then lower case folds the letters whose
 * lower case alone differs (ß and SS, the Greek final sigma), locale-independently; NFC
 * again because case mapping may decompose.
 */
const pathKey = (nfcPath: string) => nfcPath.toUpperCase().toLowerCase().normalize("NFC");
