// The values of a sync op that rules judge (its paths, its content, its base), as opposed
// to its shape (which fields an op of its kind carries under the protocol version), which
// the body schema and the wire formats check for the whole request. Ops run independently
//: a value that breaks a rule refuses its op alone, skipped with reason
// VALIDATION_ERROR, `meta.path` naming the field (as a 422 would) and `meta.problem` the
// rule, and the batch's other ops apply. One odd file name in a folder does not hold the
// rest of the folder back.
import { isId } from "../../../infra/ids.ts";
import { PLAN_EXPIRY_RULE, parsePlanExpiry } from "../../identity/public.ts";
import { normalizePath, pathProblemText } from "../documents/path.ts";
import type { SyncOp, SyncOpName } from "./decide.ts";

type RefusedOp = Extract<SyncOp, { kind: "refused" }>;

/** A value of one op that refuses it; thrown while the op's values are read, caught per op (perOp). */
class OpRefusal extends Error {
  constructor(readonly outcome: RefusedOp["outcome"]) {
    super(outcome.message);
  }
}

/** `at`: the field, as a 422 names it (`body.ops.<i>.<field>`); `problem`: the rule it breaks. */
const invalid = (at: string, problem: string, message: string) =>
  new OpRefusal({ kind: "skipped", reason: "VALIDATION_ERROR", message, meta: { path: at, problem } });

const SHA256_HEX = /^[0-9a-fA-F]{64}$/;

/** A path the op names, normalized (documents' one path rule). */
export function pathValue(text: string, at: string): { path: string; key: string } {
  const p = normalizePath(text);
  if (!p.ok) throw invalid(at, p.problem, pathProblemText(p.problem));
  return p;
}

/**
 * A rename's newName: one segment of a path (no "/", and the path rule's backslash, dot,
 * length and character rules), NFC. Whether the whole new path keeps the rule (its
 * length) is judged once the document's folder is known (decide.ts).
 */
export function nameValue(text: string, at: string): string {
  if (text.includes("/")) throw invalid(at, "slash", "newName is a file name in the document's folder: no /");
  const p = normalizePath(text);
  if (!p.ok) throw invalid(at, p.problem, pathProblemText(p.problem));
  return p.path;
}

/** An upsert's or update's text: its UTF-8, which is hashed and stored, must be the text itself. */
export function contentValue(text: string, at: string): string {
  if (text.includes("\u0000")) throw invalid(at, "nul", "the content may not contain NUL characters");
  if (!text.isWellFormed()) throw invalid(at, "ill-formed", "the content is not well-formed Unicode (it holds a lone surrogate)");
  return text;
}

/**
 * The op's base: baseUpdatedAt a real calendar instant the database can hold (the
 * date-time format alone lets 2026-02-30 through, which a Date rolls over into March),
 * baseHash a SHA-256 hex.
 */
export function baseValue(op: { baseUpdatedAt?: string | null; baseHash?: string }, at: string): { base: Date | null; baseHash?: string } {
  let base: Date | null = null;
  if (op.baseUpdatedAt) {
    base = parsePlanExpiry(op.baseUpdatedAt) ?? null;
    if (!base) throw invalid(`${at}.baseUpdatedAt`, "not-an-instant", `baseUpdatedAt is not an ISO 8601 instant: ${PLAN_EXPIRY_RULE}`);
  }
  if (op.baseHash !== undefined && !SHA256_HEX.test(op.baseHash)) {
    throw invalid(`${at}.baseHash`, "not-sha256-hex", "baseHash is a SHA-256 hex (64 characters)");
  }
  return { base, ...(op.baseHash !== undefined && { baseHash: op.baseHash }) };
}

/** An upsert's `overwrite`: it names no base, so one sent with a base is refused as the contradiction it is. */
export function overwriteValue(op: { overwrite?: boolean; baseUpdatedAt?: string | null; baseHash?: string }, at: string): { overwrite?: true } {
  if (op.overwrite !== true) return {};
  if (op.baseHash !== undefined || op.baseUpdatedAt)
    throw invalid(`${at}.overwrite`, "overwrite-with-base", "overwrite replaces whatever is there: send it without baseHash or baseUpdatedAt");
  return { overwrite: true };
}

/**
 * An update's, rename's or tombstone_ack's docId. One that cannot be a document id names no
 * document: it is answered as an unknown id is (NOT_FOUND), without a lookup, so text the
 * database cannot take (a NUL) refuses its op and not the request.
 */
export function docIdValue(docId: string, op: "update" | "rename" | "tombstone_ack"): string {
  if (isId(docId)) return docId;
  const message = op !== "tombstone_ack" ? "no document with this id in this KB" : "no tombstone of this document in this KB";
  throw new OpRefusal({ kind: "skipped", reason: "NOT_FOUND", message });
}

/** The path an op's answer shows: normalized when it can be, else as sent. */
const shown = (text: string | undefined) => {
  if (text === undefined) return undefined;
  const p = normalizePath(text);
  return p.ok ? p.path : text;
};

/** Runs `read` (the op's values); a refusal makes the op a refused one, anything else goes on up. */
export function perOp<T extends SyncOp>(op: { op: SyncOpName; relativePath?: string; fromPath?: string; docId?: string }, read: () => T): T | RefusedOp {
  try {
    return read();
  } catch (e) {
    if (!(e instanceof OpRefusal)) throw e;
    const path = shown(op.op === "move" ? op.fromPath : op.relativePath);
    return {
      kind: "refused",
      op: op.op,
      ...(path !== undefined && { path }),
      // As any skipped op's answer: an update or rename names its document by the docId it sent.
      ...(op.docId !== undefined && (op.op === "update" || op.op === "rename") && { docId: op.docId }),
      outcome: e.outcome,
    };
  }
}
