// conflictResolution=preserve_both: an op rejected as stale keeps the
// client's text beside master as a conflict branch instead of being refused. Runs inside
// the batch's transaction, with master's row locked (conflict.remote) and the client's
// text already hashed and stored (conflict.incoming), which the branch takes.
//
// Only an upsert or update refused because its base is stale (BASE_MISSING, REMOTE_NEWER,
// REMOTE_DELETED) has a text to keep and a master to keep it beside; every other conflict
// (a stale delete or move, a move's source or target, a hash that is not the content's,
// another letter case of the path) stays a conflict. A branch limit refuses the request
// (422 CONFLICT_BRANCH_LIMIT_*, nothing of the batch written): the client resolves
// branches first; the storage overage refuses the op as a quota does (skipped). A file op's
// branch names its blob (held: the op found it under the batch's files lock).
import type { Tx } from "../../../infra/db/index.ts";
import type { Actor } from "../documents/row-changes.ts";
import { isFileRow } from "../documents/table.ts";
import { openBranch } from "../kbs/branches.ts";
import type { Outcome, SyncOp } from "./decide.ts";

const KEPT_REASONS: ReadonlySet<string> = new Set(["BASE_MISSING", "REMOTE_NEWER", "REMOTE_DELETED"]);

/** The outcome that replaces a stale op's conflict under preserve_both, or null to keep the conflict. */
export async function preserveBoth(tx: Tx, actor: Actor, _kbId: string, op: SyncOp, conflict: Extract<Outcome, { kind: "conflict" }>): Promise<Outcome | null> {
  const { incoming: text, remote: master } = conflict;
  if (!text || !master || !KEPT_REASONS.has(conflict.reason)) return null;
  const branch = await openBranch(tx, actor, {
    doc: master,
    relativePath: op.kind === "upsert" ? op.path : master.relativePath!,
    stored: text,
    sourceHash: text.sourceHash,
    sizeBytes: text.sizeBytes,
    kind: isFileRow(text) ? "file" : "document",
  });
  return { kind: "branched", branchId: branch.id, remote: master, objectKey: branch.objectKey };
}
