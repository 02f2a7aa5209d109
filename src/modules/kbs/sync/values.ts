// The values of a sync op that rules judge (its paths, its content, its base), as opposed
// to its shape (which fields an op of its kind carries under the protocol version), which
// the body schema and the wire formats check for the whole request. Ops run independently
// (SPEC 4.6): a value that breaks a rule refuses its op alone, skipped with reason
// VALIDATION_ERROR, `meta.path` naming the field (as a 422 would) and `meta.problem` the
// rule, and the batch's other ops apply. One odd file name in a folder does not hold the
// rest of the folder back.
import { PLAN_EXPIRY_RULE, parsePlanExpiry } from "../../../plans.ts";
import { normalizePath, pathProblemText } from "../../documents/public.ts";
import type { SyncOp, SyncOpName } from "./decide.ts";

/** A value of one op that breaks a rule; thrown while the op's values are read, caught per op by the wire format. */
class OpRefusal extends Error {
  constructor(
    /** The field, as a 422 names it (`body.ops.<i>.<field>`). */
    readonly at: string,
    readonly problem: string,
    message: string,
  ) {
    super(message);
  }
}

type RefusedOp = Extract<SyncOp, { kind: "refused" }>;

const SHA256_HEX = /^[0-9a-fA-F]{64}$/;

/** A path the op names, normalized (documents' one path rule). */
export function pathValue(text: string, at: string): { path: string; key: string } {
  const p = normalizePath(text);
  if (!p.ok) throw new OpRefusal(at, p.problem, pathProblemText(p.problem));
  return p;
}

/** An upsert's or update's text: its UTF-8, which is hashed and stored, must be the text itself. */
export function contentValue(text: string, at: string): string {
  if (text.includes("\u0000")) throw new OpRefusal(at, "nul", "the content may not contain NUL characters");
  if (!text.isWellFormed()) throw new OpRefusal(at, "ill-formed", "the content is not well-formed Unicode (it holds a lone surrogate)");
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
    if (!base) throw new OpRefusal(`${at}.baseUpdatedAt`, "not-an-instant", `baseUpdatedAt is not an ISO 8601 instant: ${PLAN_EXPIRY_RULE}`);
  }
  if (op.baseHash !== undefined && !SHA256_HEX.test(op.baseHash)) {
    throw new OpRefusal(`${at}.baseHash`, "not-sha256-hex", "baseHash is a SHA-256 hex (64 characters)");
  }
  return { base, ...(op.baseHash !== undefined && { baseHash: op.baseHash }) };
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
      ...(op.docId !== undefined && (op.op === "update" || op.op === "tombstone_ack") && { docId: op.docId }),
      outcome: { kind: "skipped", reason: "VALIDATION_ERROR", message: e.message, meta: { path: e.at, problem: e.problem } },
    };
  }
}
