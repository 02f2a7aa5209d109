// `shelf sync --watch`: one sync, then another whenever the folder changes (every folder
// watched, tree-watch.ts; debounced so an editor's save or a `git checkout` of many files is one sync)
// and every poll interval for changes made elsewhere. A poll costs one conditional
// manifest request (a 304 while the KB is unchanged), so a quiet folder costs one small
// request per interval. Stops when `signal` aborts, after the sync under way has finished
// and saved its state.
import { worthSyncing } from "./folder.ts";
import type { SyncRules } from "./rules.ts";
import { watchTree } from "./tree-watch.ts";

export interface WatchOptions {
  root: string;
  pollMs: number;
  /** Quiet time after the last change in the folder before syncing. */
  debounceMs: number;
  signal: AbortSignal;
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** The rules of the last sync: what they skip is not watched, and a change there starts no sync. */
  rules: () => SyncRules;
  /** One sync; false when syncing cannot go on (signed out, the KB gone). */
  sync: () => Promise<boolean>;
}

/**
 * Runs until stopped (true) or until a sync says it cannot go on (false); throws when the
 * folder can no longer be watched (removed, say).
 */
export async function watchFolder(o: WatchOptions): Promise<boolean> {
  let changed = false;
  let wake: (() => void) | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let broken: Error | undefined;
  const watcher = watchTree(
    o.root,
    (path) => {
      if (path !== "" && !worthSyncing(path, o.rules())) return;
      clearTimeout(timer);
      timer = setTimeout(() => {
        changed = true;
        wake?.();
      }, o.debounceMs);
    },
    (e) => {
      broken = e;
      wake?.();
    },
    (dir) => {
      const path = dir.split(/[\\/]/).join("/").normalize("NFC");
      const rules = o.rules();
      return !rules.skipOfPath(path, true) || rules.walksSkipped(path);
    },
  );
  try {
    while (!o.signal.aborted) {
      if (broken) throw new Error(`cannot watch ${o.root} any more: ${broken.message}`);
      changed = false;
      if (!(await o.sync())) return false;
      // A change made while that sync ran: sync again at once.
      if (changed || o.signal.aborted) continue;
      const pause = new AbortController();
      const stop = () => pause.abort();
      o.signal.addEventListener("abort", stop, { once: true });
      await Promise.race([
        o.sleep(o.pollMs, pause.signal),
        new Promise<void>((resolve) => {
          wake = resolve;
        }),
      ]);
      wake = undefined;
      pause.abort();
      o.signal.removeEventListener("abort", stop);
    }
    return true;
  } finally {
    clearTimeout(timer);
    watcher.close();
  }
}
