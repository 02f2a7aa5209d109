// Conflict copies. When a note (or an attachment) changed on both sides, the push keeps
// this folder's version on the server as a conflict branch, the file takes master's
// version and this folder's is written beside it as `name (conflict <branchId>).ext`,
// never pushed. The state keeps each branch with its copy and the hash written there.
// While a branch is pending every run names it; once it is resolved elsewhere (accepted
// or discarded: gone from GET /v1/kbs/:id/conflicts) the next run removes the copy if it
// was not edited since it was written, and keeps (and names) one that was.
import type { SyncApi } from "./api.ts";
import { exists, onDisk, removeAt, type Scan } from "./folder.ts";
import type { SyncState } from "./state.ts";

/** A pending branch as the run reports it; `copy` where this folder holds its version. */
export interface PendingConflict {
  path: string;
  branchId: string;
  copy?: string;
  /** The copy is gone from the folder (the branch still holds the version). */
  copyRemoved?: boolean;
}

/** What a run learnt of the conflicts: the branches resolved elsewhere, and the copies edited after that. */
export interface ConflictNews {
  resolved: { path: string; branchId: string; copy?: string; removed: boolean }[];
}

/** Whether the run must ask the server which branches are pending: it knows of some, or a manifest entry said there are. */
export const conflictsToCheck = (state: SyncState) => state.listConflicts === true || Object.values(state.conflicts ?? {}).some((c) => !c.resolved);

/**
 * Reads the KB's pending branches and brings the state up to date: a branch this client
 * does not know is tracked (it was opened elsewhere), one it knew that is no longer pending
 * was resolved: its copy goes if unedited. `scan`: the folder now, its conflict copies with it.
 */
export async function followConflicts(api: SyncApi, kbId: string, state: SyncState, scan: Scan): Promise<ConflictNews> {
  const { copies } = scan;
  const news: ConflictNews = { resolved: [] };
  const tracked = (state.conflicts ??= {});
  // A copy edited after its branch was resolved stays until it is removed here.
  for (const [id, c] of Object.entries(tracked)) if (c.resolved && !(c.copy && copies.has(c.copy))) delete tracked[id];
  if (!conflictsToCheck(state)) return news;
  const pending = await api.conflicts(kbId);
  const open = new Set(pending.map((b) => b.branchId));
  for (const [id, c] of Object.entries(tracked)) {
    if (open.has(id) || c.resolved) continue;
    const here = c.copy ? copies.get(c.copy) : undefined;
    if (here && (await scan.hash(here, c.copy!)) !== c.hash) {
      c.resolved = true;
      news.resolved.push({ path: c.path, branchId: id, copy: c.copy, removed: false });
      continue;
    }
    if (here) await removeAt(here.file);
    delete tracked[id];
    news.resolved.push({ path: c.path, branchId: id, ...(here && { copy: c.copy }), removed: here !== undefined });
  }
  for (const b of pending) tracked[b.branchId] ??= { path: b.relativePath };
  state.listConflicts = false;
  return news;
}

/** The branches still pending as the state knows them, and the copies kept after their branch was resolved (as the folder is now). */
export async function pendingConflicts(root: string, state: SyncState): Promise<{ pending: PendingConflict[]; kept: string[] }> {
  const pending: PendingConflict[] = [];
  const kept: string[] = [];
  for (const [branchId, c] of Object.entries(state.conflicts ?? {})) {
    const there = c.copy !== undefined && (await exists(onDisk(root, c.copy)));
    if (c.resolved) {
      if (there) kept.push(c.copy!);
      continue;
    }
    pending.push({ path: c.path, branchId, ...(c.copy && { copy: c.copy, ...(!there && { copyRemoved: true }) }) });
  }
  const byPath = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  return { pending: pending.sort((a, b) => byPath(a.path, b.path) || byPath(a.branchId, b.branchId)), kept: kept.sort(byPath) };
}
