// One `shelf sync` run: pull, then push, then pull once more.
//
// Pull reads the v2 manifest since the last run (one conditional request when nothing
// changed) and brings remote changes into notes not edited here. Push sends what was
// edited, added, removed or renamed here, with conflicts kept as branches
// (preserve_both): when a note changed on both sides, the server keeps master and a
// branch with our text; the folder then gets master's text in the note and ours in a
// conflict copy beside it. No text is dropped on either side. The closing pull takes
// the cursor and ETag after our own changes, so the next run that finds nothing new costs
// one 304. What it does is reported as it happens (a SyncListener: output.ts prints it).
import { posix } from "node:path";
import type { ManifestItem, Master, OpResult, PushOp, SyncApi } from "./api.ts";
import { SyncClientError } from "./api.ts";
import { conflictPath, type LocalNote, moveNote, removeNote, scanFolder, writeNote } from "./folder.ts";
import type { OpProblem, Phase, SyncEvent } from "./output.ts";
import { noteState, type SyncState, saveState } from "./state.ts";

export interface SyncListener {
  event?(e: SyncEvent): void;
  progress?(phase: Phase, done: number, total: number): void;
}

export interface SyncReport {
  events: SyncEvent[];
  problems: OpProblem[];
}

/** A report that also tells `listener` of each event as it happens. */
class Report implements SyncReport {
  events: SyncEvent[] = [];
  problems: OpProblem[] = [];
  constructor(readonly listener: SyncListener) {}
  add(e: SyncEvent): void {
    this.events.push(e);
    this.listener.event?.(e);
  }
}

/** `movedFrom`: the document was at that path before (its tombstone there names the same docId). */
type RemoteChange = { active: true; hash: string; updatedAt: string; docId?: string; movedFrom?: string } | { active: false };

const PUSH_BATCH = 200;
const RAW_BATCH = 50;

/** Every change since the state's cursor, by path; null when the server said 304. */
async function readChanges(api: SyncApi, kbId: string, state: SyncState): Promise<Map<string, RemoteChange> | null> {
  let since = state.since ?? undefined;
  for (;;) {
    try {
      return await readFrom(api, kbId, state, since);
    } catch (e) {
      // The deletions since our cursor are no longer kept: start over from everything.
      if (!(e instanceof SyncClientError && e.code === "TOMBSTONE_CURSOR_EXPIRED") || since === undefined) throw e;
      since = undefined;
    }
  }
}

async function readFrom(api: SyncApi, kbId: string, state: SyncState, since: string | undefined): Promise<Map<string, RemoteChange> | null> {
  const changes = new Map<string, RemoteChange>();
  const items: ManifestItem[] = [];
  /** Where each document was deleted or moved away from, by docId. */
  const leftPaths = new Map<string, string[]>();
  let cursor: string | undefined;
  let etag: string | null = null;
  let sinceNext: string | null | undefined;
  do {
    const answer = await api.manifestPage(kbId, { since, cursor, etag: !cursor && since && state.etag ? state.etag : undefined });
    if (!answer) return null;
    if (answer.page.tombstoneCursorExpired) throw new SyncClientError("cursor expired", 410, "TOMBSTONE_CURSOR_EXPIRED");
    if (!cursor) etag = answer.etag;
    // A path deleted and later written again is in both lists: what is there now wins.
    for (const t of answer.page.tombstones) {
      if (!changes.has(t.relativePath)) changes.set(t.relativePath, { active: false });
      leftPaths.set(t.docId, [...(leftPaths.get(t.docId) ?? []), t.relativePath]);
    }
    items.push(...answer.page.items);
    cursor = answer.page.nextCursor ?? undefined;
    sinceNext = answer.page.sinceCursor;
  } while (cursor);
  for (const item of items) {
    if (item.deletedAt || !item.sourceHash || !item.updatedAt) {
      changes.set(item.relativePath, { active: false });
      continue;
    }
    // A move leaves a tombstone of the same document at its old path: the one we know, if any.
    const movedFrom = item.docId ? leftPaths.get(item.docId)?.find((p) => p !== item.relativePath && state.notes[p]) : undefined;
    changes.set(item.relativePath, { active: true, hash: item.sourceHash, updatedAt: item.updatedAt, docId: item.docId, movedFrom });
  }
  // A full manifest names every document there is: one we knew and it does not name is gone.
  if (since === undefined) for (const path of Object.keys(state.notes)) if (!changes.has(path)) changes.set(path, { active: false });
  state.since = sinceNext ?? state.since;
  state.etag = etag;
  return changes;
}

/** Masters' texts, by id in batches where the manifest gave ids, else one by one by path; `fetched` after each step. */
async function fetchMasters(
  api: SyncApi,
  kbId: string,
  wanted: { path: string; docId?: string }[],
  fetched: (count: number) => void = () => {},
): Promise<Map<string, Master>> {
  const out = new Map<string, Master>();
  const byId = wanted.filter((w) => w.docId);
  for (let i = 0; i < byId.length; i += RAW_BATCH) {
    const slice = byId.slice(i, i + RAW_BATCH);
    const docs = await api.rawBatch(slice.map((w) => w.docId!));
    for (const w of slice) {
      const doc = docs.get(w.docId!);
      if (doc) out.set(w.path, doc);
    }
    fetched(out.size);
  }
  for (const w of wanted) {
    if (out.has(w.path)) continue;
    out.set(w.path, await api.raw(kbId, w.path));
    fetched(out.size);
  }
  return out;
}

/**
 * Notes moved (or renamed) on the server and not edited here: the file moves with them,
 * with no download. A move with an edit on either side is left to the rules of `pull`.
 */
async function followMoves(root: string, state: SyncState, changes: Map<string, RemoteChange>, local: Map<string, LocalNote>, report: Report) {
  for (const [path, change] of changes) {
    if (!change.active || !change.movedFrom) continue;
    const from = change.movedFrom;
    const known = state.notes[from];
    const here = local.get(from);
    if (!known || !here || here.hash !== known.hash || known.hash !== change.hash || local.has(path)) continue;
    await moveNote(root, from, path);
    local.delete(from);
    local.set(path, here);
    delete state.notes[from];
    state.notes[path] = noteState(change.hash, change.updatedAt, change.docId ?? known.docId);
    report.add({ kind: "moved", from, to: path, remote: true });
  }
}

async function pull(api: SyncApi, kbId: string, root: string, state: SyncState, report: Report): Promise<boolean> {
  const changes = await readChanges(api, kbId, state);
  if (!changes) return false;
  const local = await scanFolder(root);
  await followMoves(root, state, changes, local, report);
  const wanted: { path: string; docId?: string }[] = [];
  for (const [path, change] of changes) {
    const known = state.notes[path];
    const here = local.get(path);
    if (change.active) {
      if (here?.hash === change.hash) {
        state.notes[path] = noteState(change.hash, change.updatedAt, change.docId);
        continue;
      }
      // Master is the version we last agreed on (often our own push, read back): any edit here is for the push.
      if (known?.hash === change.hash) {
        known.updatedAt = change.updatedAt;
        if (change.docId) known.docId = change.docId;
        continue;
      }
      // Not edited here (or removed here while edited there: the edit wins): take master.
      if (!here || (known && here.hash === known.hash)) wanted.push({ path, docId: change.docId });
      // Edited on both sides: the push sends ours on a stale base and the server keeps both.
    } else if (known) {
      if (here && here.hash === known.hash) {
        await removeNote(root, path);
        report.add({ kind: "deleted", path, remote: true });
      }
      // Edited here after it was deleted there: forgetting it makes the push create it again.
      delete state.notes[path];
    }
  }
  const masters = await fetchMasters(api, kbId, wanted, (n) => report.listener.progress?.("pulling", n, wanted.length));
  const ids = new Map(wanted.map((w) => [w.path, w.docId]));
  for (const [path, master] of masters) {
    await writeNote(root, path, master.content);
    state.notes[path] = noteState(master.sourceHash, master.updatedAt, ids.get(path));
    report.add({ kind: "pulled", path });
  }
  await saveState(root, state);
  return true;
}

/** An op to push, with the paths it changes: `path` where the note is now, `from` where a rename or move took it from. */
interface Pending {
  op: PushOp;
  path: string;
  from?: string;
}

/**
 * The ops that carry this folder's changes since the last agreement with master. A note
 * gone from one path whose text (by its hash) appeared at a new one was renamed or moved
 * here: a `rename` by id when it stayed in its folder (and its id is known), else a
 * `move`, either keeping the document (its id and history) where a delete and an upsert
 * would make a new one.
 */
function pendingOps(local: Map<string, LocalNote>, state: SyncState): { pending: Pending[]; texts: Map<string, string> } {
  const pending: Pending[] = [];
  const texts = new Map<string, string>();
  const added = new Map<string, LocalNote>();
  for (const [path, note] of local) {
    const known = state.notes[path];
    texts.set(path, note.content);
    if (!known) added.set(path, note);
    else if (note.hash !== known.hash) {
      const op: PushOp = {
        op: "upsert",
        relativePath: path,
        content: note.content,
        sourceHash: note.hash,
        baseUpdatedAt: known.updatedAt,
        baseHash: known.hash,
      };
      pending.push({ op, path });
    }
  }
  for (const [path, known] of Object.entries(state.notes)) {
    if (local.has(path)) continue;
    const target = [...added].find(([, note]) => note.hash === known.hash)?.[0];
    if (!target) {
      pending.push({ op: { op: "delete", relativePath: path, baseUpdatedAt: known.updatedAt, baseHash: known.hash }, path });
      continue;
    }
    added.delete(target);
    const base = { baseUpdatedAt: known.updatedAt, sourceHash: known.hash };
    const op: PushOp =
      known.docId && posix.dirname(path) === posix.dirname(target)
        ? { op: "rename", docId: known.docId, newName: posix.basename(target), ...base }
        : { op: "move", fromPath: path, toPath: target, ...base };
    pending.push({ op, path: target, from: path });
  }
  for (const [path, note] of added) pending.push({ op: { op: "upsert", relativePath: path, content: note.content, sourceHash: note.hash }, path });
  return { pending, texts };
}

async function push(api: SyncApi, kbId: string, root: string, state: SyncState, report: Report): Promise<boolean> {
  const { pending, texts } = pendingOps(await scanFolder(root), state);
  const refetch: string[] = [];
  for (let i = 0; i < pending.length; i += PUSH_BATCH) {
    const batch = pending.slice(i, i + PUSH_BATCH);
    const results = await api.push(
      kbId,
      batch.map((p) => p.op),
    );
    for (const result of results) {
      const item = batch[result.opIndex];
      if (!item) continue;
      await settle(api, kbId, root, state, report, item, result, texts, refetch);
    }
    await saveState(root, state);
    report.listener.progress?.("pushing", i + batch.length, pending.length);
  }
  // The server rewrote what we sent (inline images become hosted ones): mirror its text.
  for (const [path, master] of await fetchMasters(
    api,
    kbId,
    refetch.map((path) => ({ path })),
  )) {
    await writeNote(root, path, master.content);
    state.notes[path] = noteState(master.sourceHash, master.updatedAt, state.notes[path]?.docId);
  }
  await saveState(root, state);
  return pending.length > 0;
}

async function settle(
  api: SyncApi,
  kbId: string,
  root: string,
  state: SyncState,
  report: Report,
  { op, path, from }: Pending,
  result: OpResult,
  texts: Map<string, string>,
  refetch: string[],
): Promise<void> {
  if (result.status === "applied") {
    if (op.op === "delete") {
      delete state.notes[path];
      report.add({ kind: "deleted", path, remote: false });
      return;
    }
    const docId = result.docId ?? (from === undefined ? undefined : state.notes[from]?.docId);
    if (from !== undefined) delete state.notes[from];
    report.add(from !== undefined ? { kind: "moved", from, to: path, remote: false } : { kind: "pushed", path });
    const sent = op.sourceHash;
    state.notes[path] = noteState(result.sourceHash ?? sent, result.updatedAt ?? state.notes[path]?.updatedAt ?? "", docId);
    if (result.sourceHash && result.sourceHash !== sent) refetch.push(path);
    return;
  }
  if (result.status === "conflict_branch_created" && result.branchId && op.op === "upsert") {
    // Our text is safe in the branch; the note takes master's, ours goes beside it.
    const copy = conflictPath(path, result.branchId);
    await writeNote(root, copy, texts.get(path) ?? op.content);
    const master = await api.raw(kbId, path);
    await writeNote(root, path, master.content);
    state.notes[path] = noteState(master.sourceHash, master.updatedAt, result.docId);
    report.add({ kind: "conflict", path, branchId: result.branchId, copy });
    return;
  }
  report.problems.push({ path, problem: `${result.status}${result.reason ? ` ${result.reason}` : ""}${result.message ? `: ${result.message}` : ""}` });
}

/** Pull, push, and (when the push changed anything) pull again for the next cursor. */
export async function syncFolder(api: SyncApi, kbId: string, root: string, state: SyncState, listener: SyncListener = {}): Promise<SyncReport> {
  const report = new Report(listener);
  await pull(api, kbId, root, state, report);
  if (await push(api, kbId, root, state, report)) await pull(api, kbId, root, state, report);
  return report;
}
