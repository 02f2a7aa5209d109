// The sync service: a batch of ops on one KB, each decided and applied on its own (partial
// success), whatever protocol version carried it. A wire format (v1.ts, v2.ts) turns
// its request into SyncOps and the outcomes into its answer; the rules are here and in
// decide.ts, once.
//
// Every batch takes the KB's row lock, as every change of a KB's documents does, so two
// pushes to one path take turns: the second sees what the first wrote, and its base is
// then stale (REMOTE_NEWER) or missing (BASE_MISSING), never a lost update. Each op runs
// in a savepoint: one refused by a limit leaves nothing behind and the others go on. The
// counters (doc_count, img_storage, the KB's counts, revisions) move through the
// documents module's row changes, in the batch's transaction: gathered over the batch and
// written once at its end (BatchBooks), or, when a limit refuses, op by op. A batch that
// links or lets go of KB files takes the owner's files lock once its rows are locked, and
// drops the blobs it let go of that nothing links any more at its end (files/blobs.ts).
import type { Deps } from "../../../core/deps.ts";
import { AppError } from "../../../core/errors.ts";
import { refusalError, LimitRaced, LimitRefusal } from "../../../core/refusal.ts";
import type { Tx } from "../../../infra/db/index.ts";
import type { WithCompliance } from "../../compliance/public.ts";
import type { Actor } from "../documents/row-changes.ts";
import type { DocumentRow } from "../documents/table.ts";
import { lockAtPaths, pathsOfIds } from "../documents/kb-rows.ts";
import { removeObjects } from "../documents/content.ts";
import { isFileRow } from "../documents/table.ts";
import { dropUnlinked, heldBlobs, lockOwnerFiles } from "../files/blobs.ts";
import { BatchBooks } from "../kbs/batch-books.ts";
import { requireUser, planActive } from "../../identity/public.ts";
import { tellRefusal } from "../../usage/public.ts";
import { getKb, lockKb } from "../kbs/service.ts";
import { type Decided, decide, isFileOp, type Outcome, type PathState, prepare, renameTarget, type SyncOp, skipped } from "./decide.ts";
import { preserveBoth } from "./preserve.ts";

export type { SyncOp } from "./decide.ts";

export interface SyncResult {
  outcomes: Outcome[];
  /** The KB's stamp once the batch committed: not earlier than any updatedAt it applied. */
  serverTime: Date;
}

export interface SyncMode {
  /** v2 `conflictResolution=preserve_both`: a stale op keeps the client's text beside master (preserve.ts). */
  preserveBoth: boolean;
  /** Sync v1: KB files are not there for it (decide.ts). */
  documentsOnly?: boolean;
}

/** A plan that has lapsed keeps what it has but cannot sync. */
export async function syncActor(deps: Deps, userId: string): Promise<Actor> {
  const user = await requireUser(deps.db, userId);
  const now = deps.clock.now();
  if (!planActive(user, now)) throw new AppError("PLAN_INACTIVE", "the manifest and sync need an active plan", { plan: user.plan });
  return { userId, limits: deps.plans[user.plan], history: { enabled: user.docVersioningEnabled, max: user.docVersioningMax }, now };
}

/** A limit refused an op of an unguarded run: the batch is rolled back and run op by op. */
class RunGuarded extends Error {}

export async function runSync(
  deps: Deps & WithCompliance,
  userId: string,
  kbId: string,
  ops: readonly SyncOp[],
  mode: SyncMode = { preserveBoth: false },
): Promise<SyncResult> {
  const updated = ops.flatMap((op) => (op.kind === "update" || op.kind === "rename" ? [op.docId] : []));
  const [actor, , paths] = await Promise.all([
    syncActor(deps, userId),
    getKb(deps.db, { userId, id: kbId }),
    pathsOfIds(deps.db, { userId, kbId, ids: updated }),
  ]);
  const prepared = await Promise.all(
    ops.map((op) => {
      // A file's bytes are stored already (PUT /v1/kbs/:id/files/:sha256): nothing to prepare.
      if (isFileOp(op)) return undefined;
      if (op.kind === "upsert") return prepare(deps, actor, op.content!, op.sourceHash, op.path);
      if (op.kind !== "update") return undefined;
      const path = paths.get(op.docId);
      // No such document: nothing to store (decide skips it as NOT_FOUND).
      return path === undefined ? undefined : prepare(deps, actor, op.content!, op.sourceHash, path);
    }),
  );
  const storedKeys = prepared.flatMap((p) => (p && "text" in p && p.text.objectKey ? [p.text.objectKey] : []));
  let result: { outcomes: Outcome[]; freed: string[]; serverTime: Date };
  // The limits that refused an op of the committed run: answered as skipped outcomes, not
  // as a 403, so they are told to the owner here (the 100% mark), after the commit.
  let refusals: LimitRefusal[] = [];
  // Ops are applied in one transaction with no savepoints, their counters written once at
  // the end and checked there as one: a limit refusing is rare, and only then is the batch
  // run again with a savepoint around each op and its counters written and checked as it
  // goes, so the refused op leaves nothing behind and the others still apply.
  const run = (guarded: boolean) =>
    deps.db.transaction(async (tx) => {
      refusals = [];
      const kb = await lockKb(tx, { userId, id: kbId });
      const books = guarded ? undefined : new BatchBooks(actor, kb);
      const by: Actor = books ? { ...actor, books } : actor;
      // The KB's lock keeps other writers from its paths, so these rows, followed through
      // the batch's own changes, are the paths' state for every op.
      const state = await lockState(tx, userId, kbId, ops, paths, mode.documentsOnly ?? false);
      const outcomes: Outcome[] = [];
      const freed: string[] = [];
      const unlinked: string[] = [];
      for (const [i, op] of ops.entries()) {
        try {
          for (const key of keysOf(op, state)) await books?.beforeOpAt(tx, key);
          const step = async (t: Tx) => {
            const done = await decide(t, by, kbId, op, prepared[i], state);
            if (done.outcome.kind !== "conflict" || !mode.preserveBoth) return done;
            return { ...done, outcome: (await preserveBoth(t, by, kbId, op, done.outcome)) ?? done.outcome };
          };
          const done = guarded ? await tx.transaction(step) : await step(tx);
          if (done.outcome.kind === "applied") follow(state, done.outcome.doc, done.left);
          outcomes.push(done.outcome);
          freed.push(...done.freed);
          unlinked.push(...(done.unlinked ?? []));
        } catch (e) {
          if (!(e instanceof LimitRefusal || e instanceof LimitRaced)) throw e;
          if (!guarded) throw new RunGuarded();
          if (e instanceof LimitRefusal) refusals.push(e);
          const refusal = refusalError(e)!;
          outcomes.push(skipped("QUOTA_EXCEEDED", refusal.message, refusal.meta));
        }
      }
      if (books) {
        try {
          freed.push(...(await books.flush(tx)));
        } catch (e) {
          if (e instanceof LimitRefusal || e instanceof LimitRaced) throw new RunGuarded();
          throw e;
        }
      }
      // Once every row is written: a later op of the batch may have linked the bytes again.
      freed.push(...(await dropUnlinked(tx, userId, unlinked)));
      return { outcomes, freed, serverTime: books ? books.stamp : (await getKb(tx, { userId, id: kbId })).updatedAt };
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
  for (const r of refusals) await tellRefusal(deps, r).catch((err: unknown) => deps.log.error("telling a refusal failed", { err, dimension: r.dimension }));
  // Freed objects belong to no row any more (a later op of the batch may have freed what an
  // earlier one stored); objects written for ops that stored nothing never did.
  const applied = new Set(
    result.outcomes.flatMap((o) => {
      if (o.kind === "applied" && o.doc.objectKey) return [o.doc.objectKey];
      return o.kind === "branched" && o.objectKey ? [o.objectKey] : [];
    }),
  );
  await removeObjects(deps, [...result.freed, ...storedKeys.filter((k) => !applied.has(k))]);
  for (const [i, o] of result.outcomes.entries()) {
    const op = ops[i]!;
    deps.metrics.syncOp(op.kind === "refused" ? op.op : op.kind, o.kind);
  }
  return { outcomes: result.outcomes, serverTime: result.serverTime };
}

/**
 * The rows every op of the batch names (paths, a move's both ends, an update's id, a
 * rename's id and its target by the path read before the batch: `paths`), locked; and,
 * when the batch links or may let go of a file, the owner's files lock and the blobs its
 * file ops name.
 */
async function lockState(tx: Tx, userId: string, kbId: string, ops: readonly SyncOp[], paths: Map<string, string>, documentsOnly: boolean): Promise<PathState> {
  const pathKeys = ops.flatMap((op) => {
    if (op.kind === "move") return [op.pathKey, op.toKey];
    if (op.kind === "rename") {
      const path = paths.get(op.docId);
      const to = path === undefined ? undefined : renameTarget({ relativePath: path }, op.newName);
      return to?.ok ? [to.key] : [];
    }
    return "pathKey" in op ? [op.pathKey] : [];
  });
  const ids = ops.flatMap((op) => (op.kind === "update" || op.kind === "rename" ? [op.docId] : []));
  const byKey = await lockAtPaths(tx, { userId, kbId, pathKeys, ids });
  const hashes = ops.flatMap((op) => ((op.kind === "upsert" || op.kind === "update") && op.content === null ? [op.sourceHash!] : []));
  let blobs: PathState["blobs"] = new Map();
  if (hashes.length || [...byKey.values()].some((r) => isFileRow(r) && !r.deletedAt)) {
    await lockOwnerFiles(tx, userId);
    blobs = await heldBlobs(tx, userId, hashes);
  }
  return { byKey, byId: new Map([...byKey.values()].map((r) => [r.id, r])), blobs, documentsOnly };
}

/** The paths an op changes rows at (rows the batch inserted there are written first). */
function keysOf(op: SyncOp, state: PathState): string[] {
  if (op.kind === "move") return [op.pathKey, op.toKey];
  if (op.kind === "update") {
    const key = state.byId.get(op.docId)?.pathKey;
    return key ? [key] : [];
  }
  if (op.kind === "rename") {
    const row = state.byId.get(op.docId);
    const to = row && renameTarget(row, op.newName);
    return row ? [row.pathKey!, ...(to?.ok ? [to.key] : [])] : [];
  }
  return "pathKey" in op ? [op.pathKey] : [];
}

/** The batch's view after an applied change: the document at its (new) path, and what a move left at the old one. */
function follow(state: PathState, doc: DocumentRow, left: Decided["left"]): void {
  if (left) {
    if (left.row) state.byKey.set(left.key, left.row);
    else if (left.key !== doc.pathKey) state.byKey.delete(left.key);
  }
  state.byKey.set(doc.pathKey!, doc);
  state.byId.set(doc.id, doc);
}
