// The conflict-branch sweeps the job runs: the owner is told 7 days before a
// pending branch's auto-discard (an outbox message), the branch is discarded at 30 days,
// and one 14 days old is force-discarded while its owner is over the storage quota,
// oldest first, until the overage it allows is gone. Each works one user at a time, in
// a transaction that marks what it did, so a run that dies midway is finished by the
// next and nothing is done twice. Resolved rows (no content left) go 60 days after
// their branch was opened.
import { and, asc, eq, isNull, lt, lte, ne, sql } from "drizzle-orm";
import type { Deps } from "../../../core/deps.ts";
import { iso } from "../../../infra/clock.ts";
import { requireUser } from "../../identity/public.ts";
import { notify } from "../../notifications/public.ts";
import { counterTotal } from "../../usage/public.ts";
import { discardLocked } from "./branch-resolve.ts";
import { BRANCH_LIFETIME_MS } from "./branches.ts";
import { removeObjects } from "../documents/content.ts";
import { lockOwnerFiles } from "../files/blobs.ts";
import { conflictBranches } from "./table.ts";

const DAY_MS = 86_400_000;
/** The owner is e-mailed this long before a branch is discarded automatically. */
const WARN_BEFORE_MS = 7 * DAY_MS;
/** A branch unresolved this long is force-discarded while its owner is over quota. */
const FORCE_AFTER_MS = 14 * DAY_MS;
/** Resolved rows are kept this long after their branch was opened: at least 30 days after resolution. */
const RESOLVED_KEPT_MS = 60 * DAY_MS;
/** Users handled per query of the sweeps (each in its own transaction). */
const USERS_PER_ROUND = 100;

export const BRANCHES_EXPIRING = "conflict_branches_expiring";

/** Users with pending branches expiring by `until` (and not warned yet, for warnings). */
async function ownersDue(deps: Deps, until: Date, unwarnedOnly: boolean, after: string): Promise<string[]> {
  const rows = await deps.db
    .selectDistinct({ ownerId: conflictBranches.ownerId })
    .from(conflictBranches)
    .where(
      and(
        eq(conflictBranches.status, "pending"),
        lte(conflictBranches.expiresAt, until),
        unwarnedOnly ? isNull(conflictBranches.warnedAt) : undefined,
        sql`${conflictBranches.ownerId} > ${after}`,
      ),
    )
    .orderBy(conflictBranches.ownerId)
    .limit(USERS_PER_ROUND);
  return rows.map((r) => r.ownerId);
}

/** Calls `each` for every user with branches due by `until`, in id order, until none is left or the run is stopped. */
async function forEachOwner(deps: Deps, until: Date, unwarnedOnly: boolean, signal: AbortSignal | undefined, each: (userId: string) => Promise<void>) {
  let after = "";
  for (;;) {
    const owners = await ownersDue(deps, until, unwarnedOnly, after);
    for (const userId of owners) {
      if (signal?.aborted) return;
      await each(userId);
    }
    if (owners.length < USERS_PER_ROUND) return;
    after = owners[owners.length - 1]!;
  }
}

/** Queues one message per user for the pending branches that expire within 7 days and were not announced yet. */
export async function warnExpiringBranches(deps: Deps, signal?: AbortSignal): Promise<{ users: number; branches: number }> {
  const now = deps.clock.now();
  const until = new Date(now.getTime() + WARN_BEFORE_MS);
  let users = 0;
  let branches = 0;
  await forEachOwner(deps, until, true, signal, async (userId) => {
    const warned = await deps.db.transaction(async (tx) => {
      const rows = await tx
        .update(conflictBranches)
        .set({ warnedAt: now })
        .where(
          and(
            eq(conflictBranches.ownerId, userId),
            eq(conflictBranches.status, "pending"),
            isNull(conflictBranches.warnedAt),
            lte(conflictBranches.expiresAt, until),
          ),
        )
        .returning();
      rows.sort((a, b) => a.expiresAt.getTime() - b.expiresAt.getTime() || (a.id < b.id ? -1 : 1));
      const payload = {
        branches: rows.map((r) => ({ branchId: r.id, kbId: r.kbId, docId: r.docId, relativePath: r.relativePath, expiresAt: iso(r.expiresAt) })),
      };
      if (rows.length) await notify(tx, [{ kind: BRANCHES_EXPIRING, userId, payload }], now);
      return rows.length;
    });
    if (warned) users++;
    branches += warned;
  });
  return { users, branches };
}

/** Discards the pending branches past their 30 days. */
export async function expireBranches(deps: Deps, signal?: AbortSignal): Promise<{ branches: number }> {
  const now = deps.clock.now();
  let branches = 0;
  await forEachOwner(deps, now, false, signal, async (userId) => {
    const out = await deps.db.transaction(async (tx) => {
      // Before the branches: a file branch's blob may go with it (files/blobs.ts).
      await lockOwnerFiles(tx, userId);
      const rows = await tx
        .select()
        .from(conflictBranches)
        .where(and(eq(conflictBranches.ownerId, userId), eq(conflictBranches.status, "pending"), lte(conflictBranches.expiresAt, now)))
        .orderBy(conflictBranches.id)
        .for("update");
      return { n: rows.length, freed: await discardLocked(tx, userId, rows, "expired", now) };
    });
    await removeObjects(deps, out.freed);
    branches += out.n;
  });
  return { branches };
}

/**
 * Force-discards branches pending 14 days or more of users over their img_storage limit,
 * oldest first, until the user is within it (or has no such branch left): the overage
 * pending branches were allowed ends there.
 */
export async function forceDiscardOverQuota(deps: Deps, signal?: AbortSignal): Promise<{ users: number; branches: number }> {
  const now = deps.clock.now();
  // Created 14 days ago or earlier: expiring within the 16 days left of their 30.
  const until = new Date(now.getTime() + BRANCH_LIFETIME_MS - FORCE_AFTER_MS);
  let users = 0;
  let branches = 0;
  await forEachOwner(deps, until, false, signal, async (userId) => {
    const user = await requireUser(deps.db, userId);
    const limit = deps.plans[user.plan].imageStorageBytes;
    if (limit < 0) return;
    const out = await deps.db.transaction(async (tx) => {
      await lockOwnerFiles(tx, userId);
      const rows = await tx
        .select()
        .from(conflictBranches)
        .where(and(eq(conflictBranches.ownerId, userId), eq(conflictBranches.status, "pending"), lte(conflictBranches.expiresAt, until)))
        .orderBy(asc(conflictBranches.createdAt), asc(conflictBranches.id))
        .for("update");
      let used = await counterTotal(tx, userId, "img_storage");
      const take = [];
      for (const r of rows) {
        if (used <= limit) break;
        // A file branch took no overage (its blob's bytes are counted once): it stays.
        if (r.kind === "file") continue;
        take.push(r);
        used -= r.sizeBytes;
      }
      return { n: take.length, freed: await discardLocked(tx, userId, take, "over_quota", now) };
    });
    await removeObjects(deps, out.freed);
    if (out.n) users++;
    branches += out.n;
  });
  return { users, branches };
}

/** Deletes the rows of branches adopted or discarded that were opened 60 days ago or more. */
export async function pruneResolvedBranches(deps: Deps): Promise<number> {
  const cutoff = new Date(deps.clock.nowMs() - RESOLVED_KEPT_MS);
  const gone = await deps.db
    .delete(conflictBranches)
    .where(and(ne(conflictBranches.status, "pending"), lt(conflictBranches.createdAt, cutoff)))
    .returning({ id: conflictBranches.id });
  return gone.length;
}
