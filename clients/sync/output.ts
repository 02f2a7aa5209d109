// What `shelf sync` tells its user, as it happens: one line per change (pulled, pushed,
// deleted, moved, renamed, conflict, a conflict resolved elsewhere), `n / N` progress on
// long runs (on a terminal one line rewritten in place, elsewhere a line every tenth of
// the way), the ops the server refused, folded: the same refusal of 200 notes (a quota,
// say) is one line with its count, not 200; and at the end what was skipped and why, and
// the conflicts still pending.
import { posix } from "node:path";
import type { PendingConflict } from "./conflicts.ts";
import { displayPath } from "./folder.ts";
import type { SyncCommandIo } from "./io.ts";

/** One thing a sync did; `remote`: it happened on the server and the folder followed. */
export type SyncEvent =
  | { kind: "pulled" | "pushed"; path: string }
  | { kind: "deleted"; path: string; remote: boolean }
  | { kind: "moved"; from: string; to: string; remote: boolean }
  | { kind: "conflict"; path: string; branchId: string; copy: string }
  /** A branch resolved on the server: its copy removed here, or kept because it was edited. */
  | { kind: "resolved"; path: string; branchId: string; copy?: string; removed: boolean };

/**
 * A file not carried: by a rule (`why`) or over the plan's size (`size` and `limit`).
 * `remote`: a path on the server.
 */
export interface Skipped {
  path: string;
  why?: string;
  size?: number;
  limit?: number;
  remote?: boolean;
}

/** An op the server did not apply, and why (its status, reason and message). */
export interface OpProblem {
  path: string;
  problem: string;
}

export type Phase = "pulling" | "pushing" | "uploading";

/** Fewer items than this in a phase are quick: no progress for them. */
const PROGRESS_MIN = 100;
/** Paths named on a folded line; the rest are counted. */
const FOLDED_PATHS_SHOWN = 3;

const ON_SERVER = " (on the server)";

/** `renamed` when the note stayed in its folder, `moved` when it changed folders. */
function moveLine(from: string, to: string): string {
  const verb = posix.dirname(from) === posix.dirname(to) ? "renamed " : "moved   ";
  return `${verb} ${displayPath(from)} -> ${displayPath(to)}`;
}

function eventLine(e: SyncEvent): string {
  switch (e.kind) {
    case "pulled":
      return `pulled   ${displayPath(e.path)}`;
    case "pushed":
      return `pushed   ${displayPath(e.path)}`;
    case "deleted":
      return `deleted  ${displayPath(e.path)}${e.remote ? ON_SERVER : ""}`;
    case "moved":
      return `${moveLine(e.from, e.to)}${e.remote ? ON_SERVER : ""}`;
    case "conflict":
      return `conflict ${displayPath(e.path)}: your version is in ${displayPath(e.copy)} (branch ${e.branchId})`;
    case "resolved":
      if (!e.copy) return `resolved ${displayPath(e.path)}: its conflict (branch ${e.branchId}) was resolved on the server`;
      return e.removed
        ? `resolved ${displayPath(e.path)}: its conflict was resolved on the server; removed ${displayPath(e.copy)}`
        : `resolved ${displayPath(e.path)}: its conflict was resolved on the server; kept ${displayPath(e.copy)}, edited since it was written`;
  }
}

/** Bytes as a person reads them: 1.5 MB, 200 KB, 12 bytes (powers of 1024). */
function sizeText(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  if (bytes < 1024 ** 2) return `${(bytes / 1024).toFixed(1)} KB`;
  if (bytes < 1024 ** 3) return `${(bytes / 1024 ** 2).toFixed(1)} MB`;
  return `${(bytes / 1024 ** 3).toFixed(1)} GB`;
}

const shortList = (items: string[]) => {
  const more = items.length > FOLDED_PATHS_SHOWN ? ` and ${items.length - FOLDED_PATHS_SHOWN} more` : "";
  return `${items.slice(0, FOLDED_PATHS_SHOWN).join(", ")}${more}`;
};

/** What was skipped, one line per reason: the path and why, or `(why, xN)` and a few of its paths. */
function skippedLines(skipped: Skipped[]): string[] {
  const byWhy = new Map<string, Skipped[]>();
  for (const s of [...skipped].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))) {
    const why = s.size !== undefined ? `over the plan's limit of ${sizeText(s.limit ?? 0)} per file` : `${s.why}${s.remote ? ", on the server" : ""}`;
    byWhy.set(why, [...(byWhy.get(why) ?? []), s]);
  }
  return [...byWhy].map(([why, list]) => {
    const named = list
      .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))
      .map((s) => (s.size !== undefined ? `${displayPath(s.path)} (${sizeText(s.size)})` : displayPath(s.path)));
    if (named.length === 1) return `skipped  ${named[0]}: ${why}`;
    return `skipped  (${why}, x${named.length}): ${shortList(named)}`;
  });
}

function pendingLine(p: PendingConflict): string {
  const what = `pending  conflict ${displayPath(p.path)} (branch ${p.branchId})`;
  if (!p.copy) return `${what}: opened elsewhere; accept or discard it on the server`;
  if (p.copyRemoved) return `${what}: its copy ${displayPath(p.copy)} was removed here; accept or discard it on the server`;
  return `${what}: your version is in ${displayPath(p.copy)}; accept or discard it on the server`;
}

/** The summary's count of skips: `3 skipped (2 by rule, 1 over the size limit)`. */
export function skippedCount(skipped: Skipped[]): string | undefined {
  if (skipped.length === 0) return undefined;
  const bySize = skipped.filter((s) => s.size !== undefined).length;
  const byRule = skipped.length - bySize;
  const parts = [byRule && `${byRule} by rule`, bySize && `${bySize} over the size limit`].filter(Boolean);
  return `${skipped.length} skipped (${parts.join(", ")})`;
}

/** The refusals, one line per distinct problem: `(xN)` and a few of its paths when it repeats. */
function foldedProblems(problems: OpProblem[]): string[] {
  const byProblem = new Map<string, string[]>();
  for (const p of problems) {
    const paths = byProblem.get(p.problem);
    if (paths) paths.push(p.path);
    else byProblem.set(p.problem, [p.path]);
  }
  return [...byProblem].map(([problem, paths]) => {
    if (paths.length === 1) return `not synced: ${displayPath(paths[0]!)}: ${problem}`;
    const shown = paths.sort().slice(0, FOLDED_PATHS_SHOWN).map(displayPath).join(", ");
    const more = paths.length > FOLDED_PATHS_SHOWN ? ` and ${paths.length - FOLDED_PATHS_SHOWN} more` : "";
    return `not synced: ${problem} (x${paths.length}): ${shown}${more}`;
  });
}

export class SyncOutput {
  /** The progress line on the terminal, when one is showing. */
  private shown = "";
  /** Non-terminal: the last tenth reported, per phase and total. */
  private lastStep = new Map<string, number>();

  constructor(private readonly io: Pick<SyncCommandIo, "out" | "err" | "tty" | "write">) {}

  private get inPlace(): boolean {
    return this.io.tty === true && this.io.write !== undefined;
  }

  /** Takes the progress line off the terminal before a line is printed under it. */
  private clear(): void {
    if (!this.shown) return;
    this.io.write!("\r\x1b[2K");
    this.shown = "";
  }

  line(text: string): void {
    this.clear();
    this.io.out(text);
  }

  complain(text: string): void {
    this.clear();
    this.io.err(text);
  }

  event(e: SyncEvent): void {
    this.line(eventLine(e));
  }

  /** The lines of the last call's refusals, for `onlyNew`. */
  private lastProblems = new Set<string>();
  /** The lines of the last call's skips and pending conflicts, for `onlyChanged`. */
  private lastNotes = "";

  /**
   * What was skipped, the conflicts pending and the copies kept: every run names them;
   * `onlyChanged` (--watch): only when they differ from the previous sync's.
   */
  notes(skipped: Skipped[], pending: PendingConflict[], kept: string[], onlyChanged = false): void {
    const lines = [
      ...skippedLines(skipped),
      ...pending.map(pendingLine),
      ...kept.map((copy) => `kept     ${displayPath(copy)}: edited after its conflict was resolved on the server; not synced (rename it to keep it)`),
    ];
    const joined = lines.join("\n");
    const same = joined === this.lastNotes;
    this.lastNotes = joined;
    if (onlyChanged && same) return;
    for (const line of lines) this.line(line);
  }

  /**
   * The refusals, folded. `onlyNew` (--watch, where each sync tries the refused notes
   * again): a line the previous sync printed is not printed again. How many were printed.
   */
  problems(list: OpProblem[], onlyNew = false): number {
    const lines = foldedProblems(list);
    const fresh = onlyNew ? lines.filter((l) => !this.lastProblems.has(l)) : lines;
    this.lastProblems = new Set(lines);
    for (const line of fresh) this.complain(line);
    return fresh.length;
  }

  progress(phase: Phase, done: number, total: number): void {
    if (total < PROGRESS_MIN) return;
    const text = `${phase} ${done} / ${total}`;
    if (this.inPlace) {
      this.io.write!(`\r\x1b[2K${text}`);
      this.shown = text;
      if (done >= total) this.clear();
      return;
    }
    const key = `${phase} ${total}`;
    const step = Math.floor((done * 10) / total);
    if (step <= (this.lastStep.get(key) ?? -1) && done < total) return;
    if (done >= total) this.lastStep.delete(key);
    else this.lastStep.set(key, step);
    this.io.out(text);
  }
}
