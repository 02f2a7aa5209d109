// One op of a sync batch, decided and applied: the v1 conflict table for
// upserts and deletes, and the v2 ops on the same table (docs/sync.md): an update names its
// document by id, a move changes a document's path and keeps its id, a tombstone_ack
// records a client's confirmation, and a rename is a move within the document's folder. A base is the updatedAt the client last saw, or the
// hash it last saw (baseHash, which wins when both are sent).
//
// A v2 upsert or update of kind `file` carries no text: its sourceHash names a blob the
// owner holds (files/), which it links at the path, under the same rules. A document op
// at a path holding a file (or the reverse) replaces it, the row's kind changing with it.
// Sync v1 does not see files: a v1 delete at a file's path finds no document there, and a
// v1 upsert there is skipped PATH_HOLDS_FILE.
import type { Deps } from "../../../core/deps.ts";
import { AppError } from "../../../core/errors.ts";
import type { Tx } from "../../../infra/db/index.ts";
import { newId } from "../../../infra/ids.ts";
import { type Actor, hardDelete, moveDocument, replaceContent, softDelete } from "../documents/row-changes.ts";
import { assertDocumentCompliant, formatOf } from "../documents/create.ts";
import { type DescribedText, describeFile, describeText, insertInKb, keptFrom } from "../documents/kb-documents.ts";
import { lockAtPaths } from "../documents/kb-rows.ts";
import { type DocumentRow, isFileRow } from "../documents/table.ts";
import type { KbFileRow } from "../files/table.ts";
import { normalizePath, pathProblemText } from "../documents/path.ts";
import { removeObjects, sha256Hex, storeContent, utf8Length } from "../documents/content.ts";
import type { WithCompliance } from "../../compliance/public.ts";
import { handBranchesTo } from "../kbs/branches.ts";
import { ackTombstones } from "../kbs/tombstones.ts";

/**
 * What the client last saw of a document: its updatedAt, its hash, or neither; or, for an
 * upsert, `overwrite`: whatever the path holds is replaced, whatever its version.
 */
interface Base {
  base: Date | null;
  baseHash?: string;
  overwrite?: true;
}

export type SyncOpName = "upsert" | "delete" | "update" | "move" | "rename" | "tombstone_ack";

/**
 * An op after its wire format was read: paths already normalized (documents' path rule).
 * `refused`: an op whose values broke a rule (sync/values.ts); it is answered with its
 * outcome and touches nothing, while the others of the batch run. `path` is
 * the one it named, as sent when it could not be normalized. An upsert's or update's
 * `content` is null for a file: its sourceHash (lower case) names the blob.
 */
export type SyncOp =
  | ({ kind: "upsert"; path: string; pathKey: string; content: string | null; sourceHash?: string } & Base)
  | ({ kind: "delete"; path: string; pathKey: string } & Base)
  | ({ kind: "update"; docId: string; content: string | null; sourceHash: string } & Base)
  | ({ kind: "move"; path: string; pathKey: string; toPath: string; toKey: string; sourceHash: string } & Base)
  /** `newName`: one path segment, NFC (values.ts); `at`: the op's place in the body, for a refusal found in the batch. */
  | ({ kind: "rename"; docId: string; newName: string; at: string; sourceHash: string } & Base)
  | { kind: "tombstone_ack"; docId: string; path?: string }
  | { kind: "refused"; op: SyncOpName; path?: string; docId?: string; outcome: Extract<Outcome, { kind: "skipped" }> };

type ConflictReason =
  | "LOCAL_HASH_MISMATCH"
  | "BASE_MISSING"
  | "REMOTE_NEWER"
  | "REMOTE_DELETED"
  | "PATH_CASE_CONFLICT"
  | "MOVE_SOURCE_MISSING"
  | "MOVE_TARGET_EXISTS";
export type SkipReason =
  | "VALIDATION_ERROR"
  | "NOT_FOUND"
  | "ALREADY_DELETED"
  | "INVALID_FILE_TYPE"
  | "DOC_FILE_TOO_LARGE"
  | "QUOTA_EXCEEDED"
  | "STORAGE_ERROR"
  | "COMPLIANCE_BLOCKED"
  | "DEPENDENCY_UNAVAILABLE"
  | "FILE_MISSING"
  | "PATH_HOLDS_FILE";

/** A rename's: the path its document had when the batch reached it (its answer names it as a move's fromPath). */
interface Renamed {
  fromPath?: string;
}

export type Outcome =
  /** `change`: what an upsert did to its path (docs/sync.md). */
  (
    | { kind: "applied"; doc: DocumentRow; change?: "created" | "updated" | "unchanged" }
    | { kind: "acknowledged"; count: number }
    /**
     * Not applied. `remote`: the master row as locked in the batch's transaction (undefined:
     * none); `incoming`: the client's text of an upsert or update, hashed and stored (its
     * object, if any, is removed after the batch unless a row takes it).
     */
    | { kind: "conflict"; reason: ConflictReason; remote: DocumentRow | undefined; incoming?: DescribedText }
    /**
     * preserve_both (preserve.ts): the client's text kept beside master as a conflict branch;
     * `objectKey`: the stored object the branch took (kept after the batch), if any.
     */
    | { kind: "branched"; branchId: string; remote: DocumentRow; objectKey: string | null }
    | { kind: "skipped"; reason: SkipReason; message: string; meta?: Record<string, unknown> }
  ) &
    Renamed;

/** An upsert's or update's text, hashed, described and stored (objects past the inline size) before the transaction. */
export type Prepared = { text: DescribedText } | { early: Outcome } | { hashMismatch: true };

export const skipped = (reason: SkipReason, message: string, meta?: Record<string, unknown>): Outcome => ({ kind: "skipped", reason, message, meta });

/** `path`: where the text goes (an update's: its document's path read before the batch). */
export async function prepare(deps: Deps & WithCompliance, actor: Actor, content: string, claimed: string | undefined, path: string): Promise<Prepared> {
  const sourceHash = sha256Hex(content);
  if (claimed !== undefined && claimed.toLowerCase() !== sourceHash) return { hashMismatch: true };
  const sizeBytes = utf8Length(content);
  const max = actor.limits.docMaxFileBytes;
  if (max >= 0 && sizeBytes > max) {
    return { early: skipped("DOC_FILE_TOO_LARGE", `a document may have at most ${max} bytes on this plan`, { limit: max, size: sizeBytes }) };
  }
  try {
    // Mainland: the text is checked before it is stored, as an upload's is.
    await assertDocumentCompliant(deps, { ownerId: actor.userId, filename: path, text: content, sha256: sourceHash, size: sizeBytes });
    // Only the name of an object needs an id here; a new document gets its own at insert.
    const stored = await storeContent(deps, actor.userId, newId(), content, sizeBytes);
    try {
      return { text: describeText(path, content, { sourceHash, sizeBytes }, stored) };
    } catch (e) {
      await removeObjects(deps, [stored.objectKey]);
      throw e;
    }
  } catch (e) {
    if (e instanceof AppError && (e.code === "INVALID_FILE_TYPE" || e.code === "STORAGE_ERROR")) return { early: skipped(e.code, e.message) };
    // Per op, as other refusals: the batch's other texts may already be stored.
    if (e instanceof AppError && (e.code === "COMPLIANCE_BLOCKED" || e.code === "DEPENDENCY_UNAVAILABLE")) return { early: skipped(e.code, e.message, e.meta) };
    throw e;
  }
}

/**
 * Whether the client's base is stale for an active row: a hash base must be the row's
 * hash; a time base must not be before the row's updatedAt (an upsert), or must be
 * exactly it (a delete or a move: they keep nothing of what the client did not see).
 */
function staleness(row: DocumentRow, op: Base, exact: boolean): "BASE_MISSING" | "REMOTE_NEWER" | null {
  if (op.overwrite) return null;
  if (op.baseHash !== undefined) return op.baseHash.toLowerCase() === row.sourceHash ? null : "REMOTE_NEWER";
  if (op.base === null) return "BASE_MISSING";
  const base = op.base.getTime();
  const at = row.updatedAt.getTime();
  return (exact ? base !== at : base < at) ? "REMOTE_NEWER" : null;
}

/** Whether an op links a file (its content is a blob's hash, not a text). */
export const isFileOp = (op: SyncOp): boolean => (op.kind === "upsert" || op.kind === "update") && op.content === null;

export interface Decided {
  outcome: Outcome;
  freed: string[];
  /** Blob hashes the op's change let go of (files/blobs.ts drops them at the batch's end if nothing links them). */
  unlinked?: string[];
  /** What a move left at the path it came from (a soft-deleted row), or the path's key when nothing is left there. */
  left?: { key: string; row: DocumentRow | null };
}

/** The batch's view of a KB's paths (and their documents by id), followed through the batch's own changes. */
export interface PathState {
  byKey: Map<string, DocumentRow>;
  byId: Map<string, DocumentRow>;
  /** The owner's blobs the batch's file ops name, read under the owner's files lock. */
  blobs: Map<string, KbFileRow>;
  /** Sync v1: files are not there (no document at their paths, and nothing replaces them). */
  documentsOnly: boolean;
}

/** The conflict table for one op, applied when it says so. */
export async function decide(tx: Tx, actor: Actor, kbId: string, op: SyncOp, prepared: Prepared | undefined, state: PathState): Promise<Decided> {
  const done = (outcome: Outcome, freed: string[] = []) => ({ outcome, freed });
  const applied = (doc: DocumentRow, freed: string[] = []) => done({ kind: "applied", doc }, freed);

  if (op.kind === "refused") return done(op.outcome);
  if (op.kind === "tombstone_ack") {
    const count = await ackTombstones(tx, { userId: actor.userId, kbId, docId: op.docId, relativePath: op.path, at: actor.now });
    return count ? done({ kind: "acknowledged", count }) : done(skipped("NOT_FOUND", "no tombstone of this document in this KB"));
  }

  const found = op.kind === "update" || op.kind === "rename" ? state.byId.get(op.docId) : state.byKey.get(op.pathKey);
  // What v1 cannot see is not there for it, but no v1 upsert may take an active file's path.
  if (state.documentsOnly && found && isFileRow(found) && op.kind === "upsert" && !found.deletedAt) {
    return done(skipped("PATH_HOLDS_FILE", "the path holds a file (an attachment), which sync v1 does not show or replace; use sync v2"));
  }
  const row = state.documentsOnly && found && isFileRow(found) && op.kind !== "upsert" ? undefined : found;
  // What a stale upsert or update would keep as a branch: its text, or the file it names.
  let incoming = prepared && "text" in prepared ? prepared.text : undefined;
  const conflict = (reason: ConflictReason, remote = row) => done({ kind: "conflict", reason, remote, ...(incoming && { incoming }) });

  if (op.kind === "delete") {
    if (!row) return done(skipped("NOT_FOUND", "no document at this path"));
    if (row.deletedAt) return done(skipped("ALREADY_DELETED", "the document at this path is already deleted"));
    // One path per KB whatever its letter case: a delete of another spelling is not this document's.
    if (row.relativePath !== op.path) return conflict("PATH_CASE_CONFLICT");
    // Only a client that saw exactly this version may delete it: a delete loses the text.
    const stale = staleness(row, op, true);
    if (stale) return conflict(stale);
    const gone = await softDelete(tx, actor, row);
    return { ...applied(gone.row, gone.freed), unlinked: gone.unlinked };
  }

  if (op.kind === "move") return move(tx, actor, op, row, state, conflict);
  if (op.kind === "rename") {
    if (!row) return done(skipped("NOT_FOUND", "no document with this id in this KB"));
    const fromPath = row.relativePath!;
    const to = renameTarget(row, op.newName);
    const decided = !to.ok
      ? done(skipped("VALIDATION_ERROR", pathProblemText(to.problem), { path: `${op.at}.newName`, problem: to.problem }))
      : await move(
          tx,
          actor,
          { ...op, kind: "move", path: fromPath, pathKey: row.pathKey!, toPath: to.path, toKey: to.key },
          row,
          await withKey(tx, actor, kbId, state, to.key),
          conflict,
        );
    return { ...decided, outcome: { ...decided.outcome, fromPath } };
  }

  if (op.kind === "update" && !row) return done(skipped("NOT_FOUND", "no document with this id in this KB"));
  let text: DescribedText;
  if (op.content === null) {
    // v2 requires a file op's sourceHash (v2.ts): it names the blob.
    const blob = state.blobs.get(op.sourceHash!);
    if (!blob) {
      return done(
        skipped("FILE_MISSING", "no file with this sourceHash is stored: PUT its bytes to /v1/kbs/{id}/files/{sha256}, then send the op again", {
          sourceHash: op.sourceHash,
        }),
      );
    }
    text = describeFile(op.kind === "upsert" ? op.path : row!.relativePath!, blob);
    incoming = text;
  } else {
    if (!prepared) throw new Error("an upsert without its prepared text");
    if ("hashMismatch" in prepared) return conflict("LOCAL_HASH_MISMATCH");
    if ("early" in prepared) return done(prepared.early);
    text = prepared.text;
  }
  if (!row) {
    if (op.kind !== "upsert") throw new Error("only an upsert creates");
    return done({
      kind: "applied",
      doc: await insertInKb(tx, actor, { id: newId(), kbId, relativePath: op.path, pathKey: op.pathKey }, keptFrom(text)),
      change: "created",
    });
  }
  // An update's text was described at the path its document had before the batch.
  if (op.kind === "update" && op.content !== null && text.relativePath !== row.relativePath) {
    text = describeText(row.relativePath!, op.content, text, { content: text.content, objectKey: text.objectKey });
  }
  if (row.deletedAt) {
    if (!op.overwrite && (op.baseHash !== undefined || (op.base !== null && op.base.getTime() < row.deletedAt.getTime()))) return conflict("REMOTE_DELETED");
    const changed = await replaceContent(tx, actor, row, keptFrom(text, row), "sync");
    const created = done({ kind: "applied", doc: changed.row, ...(op.kind === "upsert" && { change: "created" as const }) }, changed.freed);
    return { ...created, unlinked: changed.unlinked };
  }
  if (op.kind === "upsert" && row.relativePath !== op.path) return conflict("PATH_CASE_CONFLICT");
  const stale = staleness(row, op, false);
  if (stale) return conflict(stale);
  // The same text (or file) again: nothing to store, no revision, and the version stays the client's base.
  const upsert = op.kind === "upsert";
  if (row.sourceHash === text.sourceHash && isFileRow(row) === isFileRow(text)) {
    return done({ kind: "applied", doc: row, ...(upsert && { change: "unchanged" as const }) });
  }
  const changed = await replaceContent(tx, actor, row, keptFrom(text, row), "sync");
  return { ...done({ kind: "applied", doc: changed.row, ...(upsert && { change: "updated" as const }) }, changed.freed), unlinked: changed.unlinked };
}

/** Where a rename takes its document: the same folder, the new name. */
export function renameTarget(row: Pick<DocumentRow, "relativePath">, newName: string) {
  const path = row.relativePath!;
  return normalizePath(path.slice(0, path.lastIndexOf("/") + 1) + newName);
}

/**
 * The batch's state with the row at `key` locked too: a rename's target is known only once
 * its document is (the service locks the one its document had before the batch; this
 * covers a document the batch moved first).
 */
async function withKey(tx: Tx, actor: Actor, kbId: string, state: PathState, key: string): Promise<PathState> {
  if (state.byKey.has(key)) return state;
  for (const r of (await lockAtPaths(tx, { userId: actor.userId, kbId, pathKeys: [key] })).values()) {
    state.byKey.set(r.pathKey!, r);
    state.byId.set(r.id, r);
  }
  return state;
}

/**
 * A move: the active document at fromPath, as the client saw it (its base, and sourceHash
 * the hash of the text it holds), goes to a free toPath with its id, content and history;
 * a soft-deleted document at toPath gives the path up (it is purged; its tombstone stays).
 */
async function move(
  tx: Tx,
  actor: Actor,
  op: Extract<SyncOp, { kind: "move" }>,
  row: DocumentRow | undefined,
  state: PathState,
  conflict: (reason: ConflictReason, remote?: DocumentRow) => Decided,
): Promise<Decided> {
  if (!row || row.deletedAt) return conflict("MOVE_SOURCE_MISSING");
  if (row.relativePath !== op.path) return conflict("PATH_CASE_CONFLICT");
  const stale = staleness(row, op, true);
  if (stale) return conflict(stale);
  // The client's text is not master's: the document changed remotely.
  if (op.sourceHash.toLowerCase() !== row.sourceHash) return conflict("REMOTE_NEWER");
  const target = op.toKey === op.pathKey ? undefined : state.byKey.get(op.toKey);
  if (target && !target.deletedAt) return conflict("MOVE_TARGET_EXISTS", target);
  const filename = op.toPath.slice(op.toPath.lastIndexOf("/") + 1);
  let format: DocumentRow["format"];
  try {
    // A file is a file at any name; a document's name says its format.
    format = isFileRow(row) ? "file" : formatOf(filename);
  } catch (e) {
    if (e instanceof AppError && e.code === "INVALID_FILE_TYPE") return { outcome: skipped("INVALID_FILE_TYPE", e.message), freed: [] };
    throw e;
  }
  // The deleted document there gives the path up; text pushed to the path and kept as its
  // branches stays, with the document that takes the path.
  if (target) await handBranchesTo(tx, actor.userId, target.id, row.id);
  const freed = target ? await hardDelete(tx, actor, target) : [];
  const moved = await moveDocument(tx, actor, row, { relativePath: op.toPath, pathKey: op.toKey, filename, format });
  return { outcome: { kind: "applied", doc: moved.row }, freed, left: { key: op.pathKey, row: moved.left } };
}
