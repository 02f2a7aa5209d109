// The push of a sync run: what was edited, added, removed, renamed or moved here since
// the last agreement with master, with conflicts kept as branches (preserve_both). Notes
// go as text; any other file as an attachment: its op names its bytes by their SHA-256 and
// links them at the path, and the bytes the server says it lacks (FILE_MISSING) are
// uploaded (PUT) and their ops sent again. A file gone from one path whose bytes (by hash) appeared at another is a
// `rename` (same folder) or a `move`, keeping the document, its id and its history. When a
// file changed on both sides, the server keeps master and a branch with ours; the file here
// takes master's version and ours goes into a conflict copy beside it (conflicts.ts).
import { copyFile } from "node:fs/promises";
import { posix } from "node:path";
import type { OpResult, PushOp } from "./api.ts";
import { hashFile, type Kind, type LocalFile, onDisk, placeOf, readNote, type Scan, writeAt } from "./folder.ts";
import { downloadFile, TRANSFERS } from "./pull.ts";
import { inPool, type Run } from "./report.ts";
import { conflictPath } from "./rules.ts";
import { noteState, saveState } from "./state.ts";

const PUSH_BATCH = 200;
const SAVE_EVERY_MS = 1_000;
/** How long the plan's attachment size limit learnt from the server is trusted (a plan may change). */
const LIMIT_TRUSTED_MS = 24 * 60 * 60 * 1000;

/** An op to push, with the paths it changes: `path` where the file is now, `from` where a rename or move took it from. */
interface Pending {
  op: PushOp;
  path: string;
  from?: string;
  kind: Kind;
  /** The file here (an upsert's). */
  local?: LocalFile;
}

/**
 * The ops that carry this folder's changes since the last agreement with master. A file
 * the state knows that is not in the scan was deleted here, unless a rule now skips it
 * (it is left alone on both sides). A file gone from one path whose hash appeared at a
 * new one (of the same kind) was renamed or moved: a `rename` by id when it stayed in its
 * folder (and its id is known), else a `move`.
 */
async function pendingOps(run: Run, scan: Scan): Promise<Pending[]> {
  const { state, report } = run;
  await scan.hashAll();
  for (const path of Object.keys(state.oversize ?? {})) if (!scan.files.has(path)) delete state.oversize![path];
  const pending: Pending[] = [];
  /** New paths by kind and hash, for moves. */
  const added = new Map<string, string[]>();
  const addedKey = (kind: Kind, hash: string) => `${kind}:${hash}`;
  for (const [path, local] of scan.files) {
    const known = state.notes[path];
    if (!known) {
      const key = addedKey(local.kind, local.hash!);
      added.set(key, [...(added.get(key) ?? []), path]);
    } else if (local.hash !== known.hash) {
      const p = await upsert(run, path, local, { baseUpdatedAt: known.updatedAt, baseHash: known.hash }, known.kind === "file");
      if (p) pending.push(p);
    }
  }
  const skippedHere = new Set(scan.skipped.map((s) => s.path));
  for (const [path, known] of Object.entries(state.notes)) {
    if (scan.files.has(path) || skippedHere.has(path) || run.rules.skipOfPath(path)) continue;
    const kind: Kind = known.kind ?? "document";
    const targets = added.get(addedKey(kind, known.hash));
    const target = targets?.shift();
    if (target === undefined) {
      pending.push({ op: { op: "delete", relativePath: path, baseUpdatedAt: known.updatedAt, baseHash: known.hash }, path, kind });
      continue;
    }
    const base = { baseUpdatedAt: known.updatedAt, sourceHash: known.hash };
    const op: PushOp =
      known.docId && posix.dirname(path) === posix.dirname(target)
        ? { op: "rename", docId: known.docId, newName: posix.basename(target), ...base }
        : { op: "move", fromPath: path, toPath: target, ...base };
    pending.push({ op, path: target, from: path, kind });
  }
  for (const paths of added.values()) {
    for (const path of paths) {
      const p = await upsert(run, path, scan.files.get(path)!, {}, false);
      if (p) pending.push(p);
    }
  }
  for (const c of scan.clashes) {
    report.problem(
      c.path,
      `the folder holds ${c.carried} too, the same name but for letter case or Unicode form, and the server keeps one: rename one of them`,
    );
  }
  return pending;
}

/**
 * The upsert of a note (its text) or an attachment (its hash). A note that is not text the
 * server takes (not UTF-8, or holding NUL) goes as a file, byte for byte, and so does a
 * path the server holds as a file (`asFile`): a file is a file whatever its name.
 * Undefined for a note the server refused as too large, unchanged since.
 */
async function upsert(
  run: Run,
  path: string,
  local: LocalFile,
  base: { baseUpdatedAt?: string; baseHash?: string },
  asFile: boolean,
): Promise<Pending | undefined> {
  const file = (): Pending => ({ op: { op: "upsert", kind: "file", relativePath: path, sourceHash: local.hash!, ...base }, path, kind: "file", local });
  if (local.kind === "file" || asFile) return file();
  const refused = run.state.oversize?.[path];
  if (refused && refused.hash === local.hash && run.now() - refused.at < LIMIT_TRUSTED_MS) {
    run.report.skipped.push({ path, size: refused.size, limit: refused.limit });
    return undefined;
  }
  let content: string;
  try {
    content = await readNote(local.file);
  } catch {
    return file();
  }
  if (content.includes("\u0000")) return file();
  return { op: { op: "upsert", relativePath: path, content, sourceHash: local.hash!, ...base }, path, kind: "document", local };
}

/** The plan's largest attachment as the server last told it (a 413's meta.limit), while that is fresh. */
function sizeLimit(run: Run): number | undefined {
  const known = run.state.fileLimit;
  return known && run.now() - known.at < LIMIT_TRUSTED_MS ? known.bytes : undefined;
}

/**
 * The ops that can go, before any request: an attachment over the plan's size (as the
 * server last told it) is skipped and named with its size and the limit.
 */
function screenFiles(run: Run, pending: Pending[]): Pending[] {
  const limit = sizeLimit(run);
  if (limit === undefined || limit < 0) return pending;
  return pending.filter((p) => {
    if (p.op.op !== "upsert" || p.kind !== "file" || !p.local || p.local.size <= limit) return true;
    run.report.skipped.push({ path: p.path, size: p.local.size, limit });
    return false;
  });
}

/**
 * Uploads the bytes the server said it lacks (the attachments' ops skipped FILE_MISSING),
 * a few at a time. Returns the ops to send again: an attachment over the plan's size is
 * skipped and named (its size and the limit), one the server refused is a problem.
 */
async function uploadFiles(run: Run, files: Pending[]): Promise<Pending[]> {
  const { report, state, api, kbId } = run;
  const failed = new Set<Pending>();
  let limit = sizeLimit(run);
  const over = (p: Pending, bytes: number) => {
    failed.add(p);
    report.skipped.push({ path: p.path, size: p.local!.size, limit: bytes });
  };
  let done = 0;
  await inPool(files, TRANSFERS, async (p) => {
    const local = p.local!;
    try {
      if (limit !== undefined && limit >= 0 && local.size > limit) return over(p, limit);
      const put = await api.putFile(kbId, local.hash!, local.file, local.size);
      if (put.ok) return;
      if (put.status === 413 && put.limit !== undefined) {
        limit = put.limit;
        state.fileLimit = { bytes: put.limit, at: run.now() };
        return over(p, put.limit);
      }
      failed.add(p);
      if (put.status === 422) return report.problem(p.path, "the file changed while it was uploaded: it goes at the next sync");
      report.problem(p.path, `upload refused ${put.status}${put.code ? ` ${put.code}` : ""}: ${put.message}`);
    } finally {
      done++;
      report.listener.progress?.("uploading", done, files.length);
    }
  });
  return files.filter((p) => !failed.has(p));
}

/** The push: true when it sent anything (the run then reads the manifest again for its cursor). */
export async function push(run: Run, scan: Scan): Promise<boolean> {
  const { root, state } = run;
  let pending = screenFiles(run, await pendingOps(run, scan));
  const sent = pending.length > 0;
  const refetch: string[] = [];
  let savedAt = run.now();
  // An attachment's op goes before its bytes: the server applies it when the account holds
  // them already, and skips it FILE_MISSING when not; those bytes are uploaded and the op sent once more.
  for (let round = 0; round < 2 && pending.length > 0; round++) {
    const missing: Pending[] = [];
    for (let i = 0; i < pending.length; i += PUSH_BATCH) {
      const batch = pending.slice(i, i + PUSH_BATCH);
      const results = await run.api.push(
        run.kbId,
        batch.map((p) => p.op),
      );
      for (const result of results) {
        const item = batch[result.opIndex];
        if (!item) continue;
        if (round === 0 && result.status === "skipped" && result.reason === "FILE_MISSING" && item.local) missing.push(item);
        else await settle(run, item, result, refetch);
      }
      // What the batch did, kept as it goes (at most once a second: a large push has many
      // batches); a run cut short is set straight by the next run's pull all the same.
      if (run.now() - savedAt >= SAVE_EVERY_MS) {
        await saveState(root, state);
        savedAt = run.now();
      }
      run.report.listener.progress?.("pushing", i + batch.length, pending.length);
    }
    pending = missing.length ? await uploadFiles(run, missing) : [];
  }
  // The server rewrote a text we sent (inline images become hosted ones): mirror its text.
  for (const path of refetch) {
    const master = await run.api.raw(run.kbId, path);
    await writeAt(placeOf(root, path, scan.files), master.content);
    state.notes[path] = noteState(master.sourceHash, master.updatedAt, state.notes[path]?.docId);
  }
  await saveState(root, state);
  return sent;
}

async function settle(run: Run, { op, path, from, kind, local }: Pending, result: OpResult, refetch: string[]): Promise<void> {
  const { state, report } = run;
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
    if (state.oversize) delete state.oversize[path];
    state.notes[path] = noteState(result.sourceHash ?? sent, result.updatedAt ?? state.notes[path]?.updatedAt ?? "", docId, kind);
    if (kind === "document" && result.sourceHash && result.sourceHash !== sent) refetch.push(path);
    return;
  }
  if (result.status === "conflict_branch_created" && result.branchId && op.op === "upsert" && local) {
    await keepBoth(run, path, kind, op, local, result.branchId, result.docId ?? undefined);
    return;
  }
  if (result.status === "skipped" && result.reason === "DOC_FILE_TOO_LARGE" && typeof result.meta?.limit === "number" && local) {
    const size = typeof result.meta.size === "number" ? result.meta.size : local.size;
    report.skipped.push({ path, size, limit: result.meta.limit });
    (state.oversize ??= {})[path] = { hash: local.hash!, size, limit: result.meta.limit, at: run.now() };
    return;
  }
  const why = result.reason === "PATH_CASE_CONFLICT" ? ": the server holds this name in another letter case" : result.message ? `: ${result.message}` : "";
  report.problem(path, `${result.status}${result.reason ? ` ${result.reason}` : ""}${why}`);
}

/** Ours into a conflict copy beside the file (the branch holds it on the server too), master's into the file. */
async function keepBoth(run: Run, path: string, kind: Kind, op: Extract<PushOp, { op: "upsert" }>, local: LocalFile, branchId: string, docId?: string) {
  const { state, root, report, api, kbId } = run;
  const copy = conflictPath(path, branchId);
  const copyFileAt = onDisk(root, copy);
  let hash: string;
  if ("content" in op) {
    await writeAt(copyFileAt, op.content);
    hash = op.sourceHash;
  } else {
    await copyFile(local.file, copyFileAt);
    hash = await hashFile(copyFileAt);
  }
  (state.conflicts ??= {})[branchId] = { path, copy, hash };
  if (kind === "document") {
    const master = await api.raw(kbId, path);
    await writeAt(local.file, master.content);
    state.notes[path] = noteState(master.sourceHash, master.updatedAt, docId);
  } else {
    const got = await downloadFile(run, path, local.file);
    if (got) state.notes[path] = noteState(got.hash, got.updatedAt, docId, "file");
  }
  report.add({ kind: "conflict", path, branchId, copy });
}
