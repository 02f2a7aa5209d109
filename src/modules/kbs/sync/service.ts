// The sync service: a batch of ops on one KB, each decided and applied on its own (partial
// success), whatever protocol version carried it. A wire format (v1.ts; v2 later) turns
// its request into SyncOps and the outcomes into its answer; the rules are here once.
//
// Every batch takes the KB's row lock, as every change of a KB's documents does, so two
// pushes to one path take turns: the second sees what the first wrote, and its base is
// then stale (REMOTE_NEWER) or missing (BASE_MISSING), never a lost update. Each op runs
// in a savepoint: one refused by a limit leaves nothing behind and the others go on. The
// counters (doc_count, img_storage, the KB's counts, revisions) move through the
// documents module's row changes, in the batch's transaction: gathered over the batch and
// written once at its end (BatchBooks), or, when a limit refuses, op by op.
import type { Deps } from "../../../deps.ts";
import { AppError } from "../../../http/errors.ts";
import { refusalError } from "../../../http/refusal.ts";
import { newId } from "../../../infra/ids.ts";
import type { Tx } from "../../../infra/db/index.ts";
import { LimitRaced, LimitRefusal, planActive } from "../../../plans.ts";
import {
  type Actor,
  BatchBooks,
  type DescribedText,
  type DocumentRow,
  describeText,
  insertInKb,
  keptFrom,
  lockAtPaths,
  removeObjects,
  replaceContent,
  sha256Hex,
  softDelete,
  storeContent,
  utf8Length,
} from "../../documents/public.ts";
import { requireUser } from "../../identity/public.ts";
import { getKb, lockKb } from "../service.ts";

/** An op after its wire format was read: the path already normalized (documents' path rule). */
export type SyncOp =
  | { kind: "upsert"; path: string; pathKey: string; content: string; sourceHash?: string; base: Date | null }
  | { kind: "delete"; path: string; pathKey: string; base: Date | null };

type ConflictReason = "LOCAL_HASH_MISMATCH" | "BASE_MISSING" | "REMOTE_NEWER" | "REMOTE_DELETED" | "PATH_CASE_CONFLICT";
type SkipReason = "NOT_FOUND" | "ALREADY_DELETED" | "INVALID_FILE_TYPE" | "DOC_FILE_TOO_LARGE" | "QUOTA_EXCEEDED" | "STORAGE_ERROR";

type Outcome =
  | { kind: "applied"; doc: DocumentRow }
  | { kind: "conflict"; reason: ConflictReason; remote: DocumentRow | undefined }
  | { kind: "skipped"; reason: SkipReason; message: string; meta?: Record<string, unknown> };

export interface SyncResult {
  outcomes: Outcome[];
  /** The KB's stamp once the batch committed: not earlier than any updatedAt it applied. */
  serverTime: Date;
}

/** An upsert's text, hashed, described and stored (objects past the inline size) before the transaction. */
type Prepared = { text: DescribedText } | { early: Outcome } | { hashMismatch: true };

const skipped = (reason: SkipReason, message: string, meta?: Record<string, unknown>): Outcome => ({ kind: "skipped", reason, message, meta });

/** A plan that has lapsed keeps what it has but cannot sync (SPEC 4.6). */
export async function syncActor(deps: Deps, userId: string): Promise<Actor> {
  const user = await requireUser(deps.db, userId);
  const now = deps.clock.now();
  if (!planActive(user, now)) throw new AppError("PLAN_INACTIVE", "the manifest and sync need an active plan", { plan: user.plan });
  return { userId, limits: deps.plans[user.plan], history: { enabled: user.docVersioningEnabled, max: user.docVersioningMax }, now };
}

async function prepare(deps: Deps, actor: Actor, op: Extract<SyncOp, { kind: "upsert" }>): Promise<Prepared> {
  const sourceHash = sha256Hex(op.content);
  if (op.sourceHash !== undefined && op.sourceHash.toLowerCase() !== sourceHash) return { hashMismatch: true };
  const sizeBytes = utf8Length(op.content);
  const max = actor.limits.docMaxFileBytes;
  if (max >= 0 && sizeBytes > max) {
    return { early: skipped("DOC_FILE_TOO_LARGE", `a document may have at most ${max} bytes on this plan`, { limit: max, size: sizeBytes }) };
  }
  try {
    // Only the name of an object needs an id here; a new document gets its own at insert.
    const stored = await storeContent(deps, actor.userId, newId(), op.content, sizeBytes);
    try {
      return { text: describeText(op.path, op.content, { sourceHash, sizeBytes }, stored) };
    } catch (e) {
      await removeObjects(deps, [stored.objectKey]);
      throw e;
    }
  } catch (e) {
    if (e instanceof AppError && (e.code === "INVALID_FILE_TYPE" || e.code === "STORAGE_ERROR")) return { early: skipped(e.code, e.message) };
    throw e;
  }
}

/** The v1 conflict table (SPEC 4.6) for one op, applied when it says so; `row`: the path's document, locked. */
async function decide(
  tx: Tx,
  actor: Actor,
  kbId: string,
  op: SyncOp,
  prepared: Prepared | undefined,
  row: DocumentRow | undefined,
): Promise<{ outcome: Outcome; freed: string[] }> {
  const conflict = (reason: ConflictReason) => ({ outcome: { kind: "conflict" as const, reason, remote: row }, freed: [] });
  const applied = (doc: DocumentRow, freed: string[] = []) => ({ outcome: { kind: "applied" as const, doc }, freed });
  const base = op.base?.getTime() ?? null;

  if (op.kind === "delete") {
    if (!row) return { outcome: skipped("NOT_FOUND", "no document at this path"), freed: [] };
    if (row.deletedAt) return { outcome: skipped("ALREADY_DELETED", "the document at this path is already deleted"), freed: [] };
    // One path per KB whatever its letter case: a delete of another spelling is not this document's.
    if (row.relativePath !== op.path) return conflict("PATH_CASE_CONFLICT");
    if (base === null) return conflict("BASE_MISSING");
    // Only a client that saw exactly this version may delete it: a delete loses the text.
    if (base !== row.updatedAt.getTime()) return conflict("REMOTE_NEWER");
    const gone = await softDelete(tx, actor, row);
    return applied(gone.row, gone.freed);
  }

  if (!prepared) throw new Error("an upsert without its prepared text");
  if ("hashMismatch" in prepared) return conflict("LOCAL_HASH_MISMATCH");
  if ("early" in prepared) return { outcome: prepared.early, freed: [] };
  const text = prepared.text;
  if (!row) return applied(await insertInKb(tx, actor, { id: newId(), kbId, relativePath: op.path, pathKey: op.pathKey }, keptFrom(text)));
  if (row.deletedAt) {
    if (base !== null && base < row.deletedAt.getTime()) return conflict("REMOTE_DELETED");
    const changed = await replaceContent(tx, actor, row, keptFrom(text, row), "sync");
    return applied(changed.row, changed.freed);
  }
  if (row.relativePath !== op.path) return conflict("PATH_CASE_CONFLICT");
  if (base === null) return conflict("BASE_MISSING");
  if (base < row.updatedAt.getTime()) return conflict("REMOTE_NEWER");
  // The same text again: nothing to store, no revision, and the version stays the client's base.
  if (row.sourceHash === text.sourceHash) return applied(row);
  const changed = await replaceContent(tx, actor, row, keptFrom(text, row), "sync");
  return applied(changed.row, changed.freed);
}

/** A limit refused an op of an unguarded run: the batch is rolled back and run op by op. */
class RunGuarded extends Error {}

export async function runSync(deps: Deps, userId: string, kbId: string, ops: readonly SyncOp[]): Promise<SyncResult> {
  const [actor] = await Promise.all([syncActor(deps, userId), getKb(deps.db, { userId, id: kbId })]);
  const prepared = await Promise.all(ops.map((op) => (op.kind === "upsert" ? prepare(deps, actor, op) : undefined)));
  const storedKeys = prepared.flatMap((p) => (p && "text" in p && p.text.objectKey ? [p.text.objectKey] : []));
  let result: { outcomes: Outcome[]; freed: string[]; serverTime: Date };
  // Ops are applied in one transaction with no savepoints, their counters written once at
  // the end and checked there as one: a limit refusing is rare, and only then is the batch
  // run again with a savepoint around each op and its counters written and checked as it
  // goes, so the refused op leaves nothing behind and the others still apply.
  const run = (guarded: boolean) =>
    deps.db.transaction(async (tx) => {
      const kb = await lockKb(tx, { userId, id: kbId });
      const books = guarded ? undefined : new BatchBooks(actor, kb);
      const by: Actor = books ? { ...actor, books } : actor;
      // The KB's lock keeps other writers from its paths, so these rows, followed through
      // the batch's own changes, are the paths' state for every op.
      const rows = await lockAtPaths(tx, { userId, kbId, pathKeys: ops.map((op) => op.pathKey) });
      const outcomes: Outcome[] = [];
      const freed: string[] = [];
      for (const [i, op] of ops.entries()) {
        try {
          await books?.beforeOpAt(tx, op.pathKey);
          const row = rows.get(op.pathKey);
          const done = guarded ? await tx.transaction((sp) => decide(sp, by, kbId, op, prepared[i], row)) : await decide(tx, by, kbId, op, prepared[i], row);
          if (done.outcome.kind === "applied") rows.set(op.pathKey, done.outcome.doc);
          outcomes.push(done.outcome);
          freed.push(...done.freed);
        } catch (e) {
          if (!(e instanceof LimitRefusal || e instanceof LimitRaced)) throw e;
          if (!guarded) throw new RunGuarded();
          const refusal = refusalError(e)!;
          outcomes.push(skipped("QUOTA_EXCEEDED", refusal.message, refusal.meta));
        }
      }
      if (books) {
        try {
          await books.flush(tx);
        } catch (e) {
          if (e instanceof LimitRefusal || e instanceof LimitRaced) throw new RunGuarded();
          throw e;
        }
        return { outcomes, freed, serverTime: books.stamp };
      }
      return { outcomes, freed, serverTime: (await getKb(tx, { userId, id: kbId })).updatedAt };
    });
  try {
    try {
      result = await run(false);
    } catch (e) {
      if (!(e instanceof RunGuarded)) throw e;
      result = await run(true);
    }
  } catch (e) {
    await removeObjects(deps, storedKeys);
    throw e;
  }
  // Freed objects belong to no row any more (a later op of the batch may have freed what an
  // earlier one stored); objects written for ops that stored nothing never did.
  const applied = new Set(result.outcomes.flatMap((o) => (o.kind === "applied" && o.doc.objectKey ? [o.doc.objectKey] : [])));
  await removeObjects(deps, [...result.freed, ...storedKeys.filter((k) => !applied.has(k))]);
  return { outcomes: result.outcomes, serverTime: result.serverTime };
}
