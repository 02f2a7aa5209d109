// The pull of a sync run. It reads the v2 manifest since the last run (one conditional
// request when nothing changed) and brings remote changes into files not edited here:
// notes' texts fetched by id in batches, attachments' bytes by path, each written through
// a temporary file; files moved on the server are moved here (no download); files deleted
// there and not edited here are removed. Paths the rules skip are left alone, and a path
// that the folder holds under another letter case or Unicode form is not written over.
import { rename, rm } from "node:fs/promises";
import type { ManifestItem, Master } from "./api.ts";
import { SyncClientError } from "./api.ts";
import {
  hashFile,
  type Kind,
  kindOf,
  type LocalFile,
  onDisk,
  pathKey,
  placeOf,
  removeAt,
  type Scan,
  scanFolder,
  tempBeside,
  writeAt,
  moveTo,
} from "./folder.ts";
import { inPool, type Run } from "./report.ts";
import { noteState, saveState } from "./state.ts";

type RemoteChange = { active: true; hash: string; updatedAt: string; docId?: string; kind: Kind } | { active: false };

const RAW_BATCH = 50;
/** Attachments downloaded at once. */
export const TRANSFERS = 6;

/** Every change since the state's cursor, by path; null when the server said 304. */
async function readChanges(run: Run, opening: boolean): Promise<Map<string, RemoteChange> | null> {
  let since = run.state.since ?? undefined;
  for (;;) {
    try {
      return await readFrom(run, since, opening);
    } catch (e) {
      // The deletions since our cursor are no longer kept: start over from everything.
      if (!(e instanceof SyncClientError && e.code === "TOMBSTONE_CURSOR_EXPIRED") || since === undefined) throw e;
      since = undefined;
    }
  }
}

async function readFrom({ api, kbId, state }: Run, since: string | undefined, opening: boolean): Promise<Map<string, RemoteChange> | null> {
  const changes = new Map<string, RemoteChange>();
  const items: ManifestItem[] = [];
  let cursor: string | undefined;
  let etag: string | null = null;
  let sinceNext: string | null | undefined;
  // The ETag answers one question (this `since`): sent with another, it could never match.
  const conditional = since !== undefined && state.etag !== null && state.etagSince === since;
  do {
    const answer = await api.manifestPage(kbId, { since, cursor, etag: !cursor && conditional ? state.etag! : undefined });
    if (!answer) return null;
    if (answer.page.tombstoneCursorExpired) throw new SyncClientError("cursor expired", 410, "TOMBSTONE_CURSOR_EXPIRED");
    if (!cursor) etag = answer.etag;
    // A path deleted and later written again is in both lists: what is there now wins.
    for (const t of answer.page.tombstones) if (!changes.has(t.relativePath)) changes.set(t.relativePath, { active: false });
    items.push(...answer.page.items);
    cursor = answer.page.nextCursor ?? undefined;
    sinceNext = answer.page.sinceCursor;
  } while (cursor);
  const tracked = new Set(Object.values(state.conflicts ?? {}).map((c) => c.path));
  for (const item of items) {
    if (item.deletedAt || !item.sourceHash || !item.updatedAt) {
      changes.set(item.relativePath, { active: false });
      continue;
    }
    // Branches this client did not open (or no longer tracks): the run lists them.
    if (item.hasPendingBranches && !tracked.has(item.relativePath)) state.listConflicts = true;
    const kind = item.kind ?? kindOf(item.relativePath);
    changes.set(item.relativePath, { active: true, hash: item.sourceHash, updatedAt: item.updatedAt, docId: item.docId, kind });
  }
  // A KB that changed with no document changed (the ETag also covers which documents have
  // pending branches): a branch was opened or resolved elsewhere. The run lists them.
  if (opening && conditional && items.length === 0 && changes.size === 0) state.listConflicts = true;
  // A full manifest names every document there is: one we knew and it does not name is gone.
  if (since === undefined) for (const path of Object.keys(state.notes)) if (!changes.has(path)) changes.set(path, { active: false });
  state.since = sinceNext ?? state.since;
  state.etag = etag;
  state.etagSince = since ?? null;
  return changes;
}

/** Masters' texts, by id in batches where the manifest gave ids, else one by one by path; `fetched` after each step. */
async function fetchMasters({ api, kbId }: Run, wanted: { path: string; docId?: string }[], fetched: (count: number) => void): Promise<Map<string, Master>> {
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
 * An attachment's bytes from the server into `target`, through a temporary file: what it
 * holds (its hash, checked against the server's) and its version, or undefined (a problem
 * reported) when the bytes are not the ones the server named.
 */
export async function downloadFile(run: Run, path: string, target: string): Promise<{ hash: string; updatedAt: string } | undefined> {
  const temp = await tempBeside(target);
  try {
    const got = await run.api.rawFile(run.kbId, path, temp);
    const hash = await hashFile(temp);
    if (got.sourceHash && got.sourceHash !== hash) {
      run.report.problem(path, "the bytes downloaded are not the ones the server named (changed meanwhile?): fetched again at the next sync");
      return undefined;
    }
    await rename(temp, target);
    return { hash, updatedAt: got.updatedAt };
  } finally {
    await rm(temp, { force: true });
  }
}

/**
 * Files moved (or renamed, letter case included) on the server and not edited here: the
 * file moves with them, with no download. The document is known by its id: the state
 * holds it at another path. A move with an edit on either side is left to the rules of `pull`.
 */
async function followMoves(run: Run, changes: Map<string, RemoteChange>, scan: Scan) {
  const { state, root, report } = run;
  const byId = new Map<string, string>();
  for (const [path, n] of Object.entries(state.notes)) if (n.docId) byId.set(n.docId, path);
  for (const [path, change] of changes) {
    if (!change.active || !change.docId) continue;
    const from = byId.get(change.docId);
    if (from === undefined || from === path) continue;
    const known = state.notes[from]!;
    const here = scan.files.get(from);
    if (!here || known.hash !== change.hash || scan.files.has(path) || run.rules.skipOfPath(path)) continue;
    if ((await scan.hash(here, from)) !== known.hash) continue;
    const target = onDisk(root, path);
    await moveTo(here.file, target);
    scan.files.delete(from);
    scan.files.set(path, { ...here, file: target });
    delete state.notes[from];
    byId.set(change.docId, path);
    state.notes[path] = noteState(change.hash, change.updatedAt, change.docId, change.kind);
    const cached = state.hashes?.[from];
    if (cached && state.hashes) {
      state.hashes[path] = cached;
      delete state.hashes[from];
    }
    report.add({ kind: "moved", from, to: path, remote: true });
  }
}

/** The paths of the folder by the server's key (letter case and Unicode form folded), those not carried included. */
function pathsByKey(scan: Scan): Map<string, string> {
  const out = new Map<string, string>();
  for (const path of scan.files.keys()) out.set(pathKey(path), path);
  for (const c of scan.clashes) out.set(pathKey(c.carried), c.carried);
  return out;
}

/** The state as the folder and the server agree on it: the known hashes of a full scan replace the old. */
export async function scanFor(run: Run): Promise<Scan> {
  const { state } = run;
  const scan = await scanFolder(run.root, run.rules, state.hashes ?? {}, (path) => path in state.notes);
  state.hashes = scan.cache;
  return scan;
}

/** The pull (`opening`: the run's first, before its push): false when the server said nothing changed (304). */
export async function pull(run: Run, opening: boolean): Promise<boolean> {
  const { state, root, report } = run;
  const changes = await readChanges(run, opening);
  if (!changes) return false;
  if (changes.size === 0) {
    await saveState(root, state);
    return true;
  }
  const scan = await scanFor(run);
  await followMoves(run, changes, scan);
  const keys = pathsByKey(scan);
  const wanted: { path: string; docId?: string; kind: Kind }[] = [];
  // Deletions first: a path given up on the server may free the name of one written there.
  const ordered = [...changes].sort(([, a], [, b]) => Number(a.active) - Number(b.active));
  for (const [path, change] of ordered) {
    const skip = run.rules.skipOfPath(path);
    if (skip) {
      // Not the folder's: left as it is on both sides.
      if (change.active) report.skipped.push({ path, why: skip.why, remote: true });
      continue;
    }
    const known = state.notes[path];
    const here = scan.files.get(path);
    if (change.active) {
      const other = keys.get(pathKey(path));
      if (!here && other !== undefined && other !== path) {
        report.problem(path, `not pulled: the folder holds ${other}, the same name but for letter case or Unicode form`);
        continue;
      }
      // Master is the version we last agreed on (often our own push, read back): any edit here is for the push.
      if (known?.hash === change.hash) {
        known.updatedAt = change.updatedAt;
        if (change.docId) known.docId = change.docId;
        continue;
      }
      const hash = here && (await scan.hash(here, path));
      if (hash === change.hash) {
        state.notes[path] = noteState(change.hash, change.updatedAt, change.docId, change.kind);
        continue;
      }
      // Not edited here (or removed here while edited there: the edit wins): take master.
      if (!here || (known && hash === known.hash)) wanted.push({ path, docId: change.docId, kind: change.kind });
      // Edited on both sides: the push sends ours on a stale base and the server keeps both.
    } else if (known) {
      if (here && (await scan.hash(here, path)) === known.hash) {
        await removeAt(here.file);
        scan.files.delete(path);
        report.add({ kind: "deleted", path, remote: true });
      }
      // Edited here after it was deleted there: forgetting it makes the push create it again.
      delete state.notes[path];
    }
  }
  await fetchInto(run, wanted, scan.files);
  await saveState(root, state);
  return true;
}

/**
 * The ETag a read got answers the question it asked (its `since`), and the read moved the
 * cursor past what it found: one more read at the new cursor takes the ETag the next run
 * sends, so a run that finds nothing is one 304. When that read finds changes (made
 * meanwhile), nothing is kept: the next run reads them.
 */
export async function settleCursor({ api, kbId, state }: Run): Promise<void> {
  if (!state.since || state.etagSince === state.since) return;
  const answer = await api.manifestPage(kbId, { since: state.since });
  if (!answer) return;
  const { page } = answer;
  if (page.items.length > 0 || page.tombstones.length > 0 || page.nextCursor || page.tombstoneCursorExpired) return;
  state.etag = answer.etag;
  state.etagSince = state.since;
}

/** Writes master's version of each wanted path into the folder: notes by id in batches, attachments a few at a time. */
async function fetchInto(run: Run, wanted: { path: string; docId?: string; kind: Kind }[], local: Map<string, LocalFile>) {
  const { state, root, report } = run;
  const total = wanted.length;
  let done = 0;
  const progress = () => report.listener.progress?.("pulling", done, total);
  const notes = wanted.filter((w) => w.kind === "document");
  const ids = new Map(notes.map((w) => [w.path, w.docId]));
  let fetchedNotes = 0;
  const masters = await fetchMasters(run, notes, (n) => {
    done += n - fetchedNotes;
    fetchedNotes = n;
    progress();
  });
  for (const [path, master] of masters) {
    await writeAt(placeOf(root, path, local), master.content);
    state.notes[path] = noteState(master.sourceHash, master.updatedAt, ids.get(path));
    report.add({ kind: "pulled", path });
  }
  await inPool(
    wanted.filter((w) => w.kind === "file"),
    TRANSFERS,
    async (w) => {
      const got = await downloadFile(run, w.path, placeOf(root, w.path, local));
      done++;
      progress();
      if (!got) return;
      state.notes[w.path] = noteState(got.hash, got.updatedAt, w.docId, "file");
      report.add({ kind: "pulled", path: w.path });
    },
  );
}
