// Which files of the folder `shelf sync` carries: every file, except what a rule skips.
// The rules, the last one that matches a path deciding (as in a .gitignore):
//   1. by default, dot-folders and dot-files (.obsidian/, .trash/, .git/, .DS_Store) and
//      node_modules/;
//   2. the lines of `.shelfignore` in the folder, in order: a pattern skips, `!pattern`
//      carries what an earlier rule skipped;
//   3. each `--exclude <pattern>`, then each `--include <pattern>`.
// A pattern without a slash names a file or folder anywhere (`*.tmp`, `.obsidian`); one
// with a slash names a path from the folder's top (`attachments/raw/**`, `/.obsidian`); a
// trailing slash names folders only. `*` is any characters but `/`, `**` any folders, `?`
// one character, `[abc]` one of a set. The client's own files (its state, temporary
// files) are never carried, whatever the rules say, nor are conflict copies (conflicts.ts). docs/sync.md ("What is carried") is the user's description.
import { posix } from "node:path";

export const STATE_FILE = ".shelf-sync.json";
export const IGNORE_FILE = ".shelfignore";
/** The suffix of a file being written (a pull), renamed over its target once whole. */
export const TEMP_SUFFIX = ".shelf-tmp";

interface Rule {
  /** True: carries what the pattern names; false: skips it. */
  include: boolean;
  regex: RegExp;
  /** Matched against the whole relative path (the pattern had a slash), else against the name. */
  anchored: boolean;
  dirOnly: boolean;
  /** The pattern's first segments without wildcards, for an include under a skipped folder. */
  segments: string[];
  /** Where the rule comes from, for the output: `a dot-folder`, `.shelfignore line 3: *.tmp`. */
  why: string;
}

/** `*`, `**`, `?` and `[...]` as a regular expression over a relative path (or a name). */
function globToRegExp(glob: string): RegExp {
  let out = "";
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!;
    if (c === "*") {
      if (glob[i + 1] === "*") {
        // `**/` is any folders (none included), a trailing `**` everything below.
        if (glob[i + 2] === "/") {
          out += "(?:[^/]*(?:/|$))*";
          i += 2;
        } else {
          out += ".*";
          i += 1;
        }
      } else out += "[^/]*";
    } else if (c === "?") out += "[^/]";
    else if (c === "[") {
      const end = glob.indexOf("]", i + 2);
      if (end < 0) out += "\\[";
      else {
        const body = glob.slice(i + 1, end).replace(/\\/g, "\\\\");
        out += `[${body.startsWith("!") ? `^${body.slice(1)}` : body}]`;
        i = end;
      }
    } else out += c.replace(/[.+^${}()|\\/]/g, "\\$&");
  }
  return new RegExp(`^${out}$`, "u");
}

function rule(pattern: string, include: boolean, why: string): Rule | null {
  let p = pattern.normalize("NFC");
  const dirOnly = p.endsWith("/");
  if (dirOnly) p = p.replace(/\/+$/, "");
  const anchored = p.includes("/");
  p = p.replace(/^\/+/, "");
  if (!p) return null;
  const parts = p.split("/");
  const literal = parts.findIndex((s) => /[*?[]/.test(s));
  return { include, regex: globToRegExp(p), anchored, dirOnly, segments: anchored ? parts.slice(0, literal < 0 ? parts.length : literal) : [], why };
}

const DEFAULTS = [rule(".*", false, "dot"), rule("node_modules/", false, "node_modules")].filter((r) => r !== null);

/** A path the rules skip, and why (for the output). */
export interface RuleSkip {
  /** The relative path, a folder's with a trailing `/`. */
  path: string;
  why: string;
}

export class SyncRules {
  private constructor(
    private readonly rules: Rule[],
    /** What the rules are, for the state: a change of rules reads the whole manifest again. */
    readonly fingerprint: string,
    /** Lines of .shelfignore that are not rules, for a warning. */
    readonly ignored: string[],
  ) {}

  /** The rules for `root`: the defaults, its .shelfignore, then the command's --exclude and --include. */
  static async load(root: string, flags: { exclude?: string[]; include?: string[] } = {}): Promise<SyncRules> {
    const file = Bun.file(posix.join(root.split("\\").join("/"), IGNORE_FILE));
    const text = (await file.exists()) ? await file.text() : "";
    return SyncRules.from(text, flags);
  }

  static from(ignoreText: string, flags: { exclude?: string[]; include?: string[] } = {}): SyncRules {
    const rules: Rule[] = [...DEFAULTS];
    const ignored: string[] = [];
    ignoreText.split(/\r?\n/).forEach((raw, i) => {
      const line = raw.trim();
      if (!line || line.startsWith("#")) return;
      const include = line.startsWith("!");
      const r = rule(include ? line.slice(1) : line, include, `${IGNORE_FILE} line ${i + 1}: ${line}`);
      if (r) rules.push(r);
      else ignored.push(`${IGNORE_FILE} line ${i + 1}`);
    });
    for (const p of flags.exclude ?? []) {
      const r = rule(p, false, `--exclude ${p}`);
      if (r) rules.push(r);
    }
    for (const p of flags.include ?? []) {
      const r = rule(p, true, `--include ${p}`);
      if (r) rules.push(r);
    }
    const fingerprint = JSON.stringify(rules.slice(DEFAULTS.length).map((r) => [r.include, r.regex.source, r.anchored, r.dirOnly]));
    return new SyncRules(rules, fingerprint, ignored);
  }

  /** The last rule that matches `path` itself (not its folders), or undefined. */
  private last(path: string, isDir: boolean): Rule | undefined {
    const name = path.slice(path.lastIndexOf("/") + 1);
    let found: Rule | undefined;
    for (const r of this.rules) {
      if (r.dirOnly && !isDir) continue;
      if (r.regex.test(r.anchored ? path : name)) found = r;
    }
    return found;
  }

  /**
   * Whether a folder the rules skip is walked all the same, because an include rule names
   * something under it by its path (`--include .obsidian/snippets`).
   */
  walksSkipped(dir: string): boolean {
    const parts = dir.split("/");
    return this.rules.some((r) => r.include && r.anchored && r.segments.length > parts.length && parts.every((p, i) => r.segments[i] === p));
  }

  /**
   * Why `path` (relative, NFC, no trailing slash) is not carried, or undefined when it is.
   * The deepest folder (or the path itself) that a rule names decides; a skipped folder
   * that is not walked skips everything under it, and is what the answer names.
   */
  skipOfPath(path: string, isDir = false): RuleSkip | undefined {
    const parts = path.split("/");
    let skip: RuleSkip | undefined;
    for (let i = 1; i <= parts.length; i++) {
      const prefix = parts.slice(0, i).join("/");
      const dir = i < parts.length || isDir;
      const r = this.last(prefix, dir);
      if (r) skip = r.include ? undefined : { path: dir ? `${prefix}/` : prefix, why: whyText(r, prefix, dir) };
      if (i < parts.length && skip && !this.walksSkipped(prefix)) return skip;
    }
    return skip && { ...skip, path: isDir ? `${path}/` : path };
  }
}

function whyText(r: Rule, path: string, isDir: boolean): string {
  if (r.why === "dot") return isDir ? `a dot-folder; --include ${path.slice(path.lastIndexOf("/") + 1)} carries it` : "a dot-file";
  if (r.why === "node_modules") return "node_modules";
  return r.why;
}

/** A branch id: 21 URL-safe characters (the server's ids). */
const COPY = / \(conflict ([A-Za-z0-9_-]{21})\)(\.[^./]*)?$/;

/** `notes/a.md` and a branch id -> `notes/a (conflict <id>).md`: beside the note, never synced. */
export function conflictPath(relativePath: string, branchId: string): string {
  const slash = relativePath.lastIndexOf("/");
  const dot = relativePath.lastIndexOf(".");
  const at = dot > slash + 1 ? dot : relativePath.length;
  return `${relativePath.slice(0, at)} (conflict ${branchId})${relativePath.slice(at)}`;
}

export const isConflictCopy = (path: string) => COPY.test(path);

/** The client's own files, never carried whatever the rules: its state, its temporary files, its ignore file. */
export const isOwnFile = (relative: string) =>
  relative === STATE_FILE || relative === `${STATE_FILE}.tmp` || relative === IGNORE_FILE || relative.endsWith(TEMP_SUFFIX);
