// The rules of one op (the v1 conflict table, the v2 decisions of docs/sync.md, and the
// choices of docs/decisions/sync.md where both are silent): what the op may do to the model's state. The
// model (model.ts) checks the server's answer against this and applies it.
import { asMove, type KbModel, type MDoc, type Mode, ms, nfc, type Op, sha256, type Version } from "./model.ts";

/** What the model allows as the outcome of one op. */
export interface Expected {
  applied?: "new" | "same-doc" | "unchanged";
  conflicts: string[];
  skips: string[];
  /** A conflict of this op may (preserve_both) become a branch. */
  branch?: "must" | "may";
  /** A conflict of this op is a stale base: in default v2 mode the request answers 409 SYNC_CONFLICT. */
  stale: boolean;
}

/** Reasons a base is stale: the ones that make a default v2 push 409 SYNC_CONFLICT (docs/sync.md). */
export const STALE = ["REMOTE_NEWER", "REMOTE_DELETED", "BASE_MISSING"];

/**
 * The base of an update, delete or move against the row (the v1 table, docs/sync.md: baseHash
 * wins over the timestamp). "absent", "current" or "stale" (stale past a delete included).
 */
function base(op: { baseUpdatedAt?: string; baseHash?: string }, row: MDoc, forDelete: boolean): "absent" | "current" | "stale" {
  if (row.deletedAt) {
    if (op.baseHash !== undefined) return "stale";
    if (op.baseUpdatedAt === undefined) return "absent";
    return ms(op.baseUpdatedAt) < ms(row.deletedAt) ? "stale" : "current";
  }
  if (op.baseHash !== undefined) return op.baseHash.toLowerCase() === row.hash ? "current" : "stale";
  if (op.baseUpdatedAt === undefined) return "absent";
  const b = ms(op.baseUpdatedAt);
  const u = ms(row.stamp);
  // A delete loses the text: only a client that saw exactly this version may do it (docs/decisions/sync.md).
  return (forDelete ? b === u : b >= u) ? "current" : "stale";
}

/** What the op may do to the model's state as it stands (earlier ops of the batch applied). */
export function expectOp(m: KbModel, op: Op, version: Version, mode: Mode): Expected {
  const none: Expected = { conflicts: [], skips: [], stale: false };
  const conflict = (reason: string, stale = STALE.includes(reason)): Expected => ({ ...none, conflicts: [reason], stale });
  const row = m.target(op);
  const keep = (e: Expected): Expected => {
    // preserve_both keeps the text of a stale update beside master (docs/sync.md). On a deleted
    // master the spec names no branch, and a text equal to master's needs none: either
    // answer is taken there.
    if (version === 2 && mode === "preserve_both" && e.stale && (op.op === "upsert" || op.op === "update")) {
      return { ...e, branch: row?.deletedAt || row?.hash === sha256(op.content) ? "may" : "must" };
    }
    return e;
  };

  // A rename is the move of its document within its folder; an id the KB does not have is an update's NOT_FOUND.
  if (op.op === "rename") return row ? expectOp(m, asMove(op, row), version, mode) : { ...none, skips: ["NOT_FOUND"] };
  if (op.op === "tombstone_ack") return m.tombstonesOf(op) ? { ...none, applied: "unchanged" } : { ...none, skips: ["NOT_FOUND"] };

  if (op.op === "delete") {
    if (!row) return { ...none, skips: ["NOT_FOUND"] };
    if (row.deletedAt) return { ...none, skips: ["ALREADY_DELETED"] };
    if (row.path !== nfc(op.relativePath)) return conflict("PATH_CASE_CONFLICT");
    const b = base(op, row, true);
    if (b === "absent") return conflict("BASE_MISSING");
    if (b === "stale") return conflict("REMOTE_NEWER");
    return { ...none, applied: "same-doc" };
  }

  if (op.op === "move") {
    if (!row || row.deletedAt) return conflict("MOVE_SOURCE_MISSING", false);
    if (row.path !== nfc(op.fromPath)) return conflict("PATH_CASE_CONFLICT", false);
    const target = m.at(op.toPath);
    // A move needs the exact base, as a delete does (the server's choice; the v1 table has no move).
    const b = base(op, row, true);
    // A move carries the hash of the text the client holds: another one at master means
    // the document changed remotely (docs/sync.md). Which of several refusals the server names
    // first, the spec does not say: any that holds is taken.
    const reasons: string[] = [];
    if (b === "absent") reasons.push("BASE_MISSING");
    if (b === "stale" || op.sourceHash !== row.hash) reasons.push("REMOTE_NEWER");
    if (target && target !== row && !target.deletedAt) reasons.push("MOVE_TARGET_EXISTS");
    if (reasons.length) return { ...none, conflicts: reasons, stale: reasons.some((r) => STALE.includes(r)) };
    return { ...none, applied: "same-doc" };
  }

  if (op.sourceHash !== undefined && op.sourceHash.toLowerCase() !== sha256(op.content)) return conflict("LOCAL_HASH_MISMATCH", false);
  if (!row) {
    if (op.op === "update") return { ...none, skips: ["NOT_FOUND"] };
    return { ...none, applied: "new" };
  }
  if (row.deletedAt) {
    const b = base(op, row, false);
    return b === "stale" ? keep(conflict("REMOTE_DELETED")) : { ...none, applied: "same-doc" };
  }
  if (op.op === "upsert" && row.path !== nfc(op.relativePath)) return conflict("PATH_CASE_CONFLICT");
  const b = base(op, row, false);
  if (b === "absent") return keep(conflict("BASE_MISSING"));
  if (b === "stale") return keep(conflict("REMOTE_NEWER"));
  return { ...none, applied: row.hash === sha256(op.content) ? "unchanged" : "same-doc" };
}
