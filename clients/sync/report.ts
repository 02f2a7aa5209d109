// What one sync run works with (the server, the folder, its state and rules) and what it
// reports: each change as it happens (told to a listener: output.ts prints it), the ops
// the server refused, what was skipped and why, and the conflicts still pending.
import type { SyncApi } from "./api.ts";
import type { PendingConflict } from "./conflicts.ts";
import type { OpProblem, Phase, Skipped, SyncEvent } from "./output.ts";
import type { SyncRules } from "./rules.ts";
import type { SyncState } from "./state.ts";

export interface SyncListener {
  event?(e: SyncEvent): void;
  progress?(phase: Phase, done: number, total: number): void;
}

export interface SyncReport {
  events: SyncEvent[];
  problems: OpProblem[];
  skipped: Skipped[];
  pending: PendingConflict[];
  /** Conflict copies edited after their branch was resolved: kept, not synced. */
  kept: string[];
}

/** A report that also tells `listener` of each event as it happens. */
export class Report implements SyncReport {
  events: SyncEvent[] = [];
  problems: OpProblem[] = [];
  skipped: Skipped[] = [];
  pending: PendingConflict[] = [];
  kept: string[] = [];
  constructor(readonly listener: SyncListener) {}
  add(e: SyncEvent): void {
    this.events.push(e);
    this.listener.event?.(e);
  }
  problem(path: string, problem: string): void {
    this.problems.push({ path, problem });
  }
}

/** One run: the server and KB, the folder and what it last agreed with the server, its rules, its report. */
export interface Run {
  api: SyncApi;
  kbId: string;
  root: string;
  state: SyncState;
  rules: SyncRules;
  report: Report;
  /** This machine's clock (ms): how old the plan's size limit the state remembers is. */
  now: () => number;
}

/** Runs `work` on every item, at most `width` at a time; after a failure no item is started, and it is thrown once those under way have settled. */
export async function inPool<T>(items: T[], width: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  let failed: { error: unknown } | undefined;
  const lane = async () => {
    while (next < items.length) {
      const item = items[next++]!;
      try {
        await work(item);
      } catch (e) {
        failed ??= { error: e };
        next = items.length;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(width, items.length) }, lane));
  if (failed) throw failed.error;
}
