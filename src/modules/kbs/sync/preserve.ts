// conflictResolution=preserve_both (SPEC 2.9, 3.6): an op rejected as stale keeps the
// client's text beside master as a conflict branch instead of being refused. Runs inside
// the batch's transaction, with master's row locked (conflict.remote) and the client's
// text already hashed and stored (conflict.incoming).
//
// Conflict branch storage is not part of this service yet: until it is, no branch is
// opened and the op is reported as a conflict, as in the default mode.
import type { Tx } from "../../../infra/db/index.ts";
import type { Actor } from "../../documents/public.ts";
import type { Outcome, SyncOp } from "./decide.ts";

/** The outcome that replaces a stale op's conflict under preserve_both, or null to keep the conflict. */
export async function preserveBoth(
  _tx: Tx,
  _actor: Actor,
  _kbId: string,
  _op: SyncOp,
  _conflict: Extract<Outcome, { kind: "conflict" }>,
): Promise<Outcome | null> {
  return null;
}
