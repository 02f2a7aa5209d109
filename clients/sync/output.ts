// What `shelf sync` tells its user, as it happens: one line per change (pulled, pushed,
// deleted, moved, renamed, conflict), `n / N` progress on long runs (on a terminal one
// line rewritten in place, elsewhere a line every tenth of the way), and the ops the
// server refused, folded: the same refusal of 200 notes (a quota, say) is one line with
// its count, not 200.
import { posix } from "node:path";
import { displayPath } from "./folder.ts";
import type { SyncCommandIo } from "./io.ts";

/** One thing a sync did; `remote`: it happened on the server and the folder followed. */
export type SyncEvent =
  | { kind: "pulled" | "pushed"; path: string }
  | { kind: "deleted"; path: string; remote: boolean }
  | { kind: "moved"; from: string; to: string; remote: boolean }
  | { kind: "conflict"; path: string; branchId: string; copy: string };

/** An op the server did not apply, and why (its status, reason and message). */
export interface OpProblem {
  path: string;
  problem: string;
}

export type Phase = "pulling" | "pushing";

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
  }
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
