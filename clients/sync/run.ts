// One `shelf sync` run: pull, then push, then pull once more.
//
// Pull (pull.ts) reads the v2 manifest since the last run (one conditional request when
// nothing changed) and brings remote changes into files not edited here. The conflicts
// this client knows of are then checked (conflicts.ts): a copy whose branch was resolved
// elsewhere goes, if unedited. Push (push.ts) sends what was edited, added, removed or
// renamed here, attachments' bytes first, with conflicts kept as branches
// (preserve_both): no version is dropped on either side. The closing pull takes the
// cursor and ETag after our own changes; a run whose reads moved the cursor reads once
// more at the new cursor for its ETag, so the next run that finds nothing costs one 304. What the rules skipped, and the conflicts still pending, close the report.
import type { SyncApi } from "./api.ts";
import { conflictsToCheck, followConflicts, pendingConflicts } from "./conflicts.ts";
import { pull, scanFor, settleCursor } from "./pull.ts";
import { push } from "./push.ts";
import { Report, type SyncListener, type SyncReport } from "./report.ts";
import type { SyncRules } from "./rules.ts";
import { type SyncState, saveState } from "./state.ts";

export type { SyncListener, SyncReport };

/** Pull, push, and (when the push changed anything) pull again for the next cursor. */
export async function syncFolder(
  api: SyncApi,
  kbId: string,
  root: string,
  state: SyncState,
  rules: SyncRules,
  listener: SyncListener = {},
  now: () => number = Date.now,
): Promise<SyncReport> {
  const report = new Report(listener);
  const run = { api, kbId, root, state, rules, report, now };
  // Other rules than last time: paths the folder left alone may be its own now, and the
  // other way round. Reading the whole manifest again sets every path straight.
  if (state.rules !== rules.fingerprint) {
    state.since = null;
    state.etag = null;
  }
  await pull(run, true);
  state.rules = rules.fingerprint;
  const scan = await scanFor(run);
  if (conflictsToCheck(state) || Object.keys(state.conflicts ?? {}).length > 0) {
    const news = await followConflicts(api, kbId, state, scan);
    for (const r of news.resolved) report.add({ kind: "resolved", ...r });
    await saveState(root, state);
  }
  if (await push(run, scan)) await pull(run, false);
  await settleCursor(run);
  // What the server holds under a path skipped here is named once, as the folder's skip.
  const coveredHere = (path: string) => scan.skipped.some((s) => s.path === path || (s.path.endsWith("/") && path.startsWith(s.path)));
  report.skipped = [...report.skipped.filter((s) => !(s.remote && coveredHere(s.path))), ...scan.skipped];
  Object.assign(report, await pendingConflicts(root, state));
  await saveState(root, state);
  return report;
}
