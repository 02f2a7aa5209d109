// Exports are downloadable for a limited time: a ready export whose expiresAt has passed is
// marked expired and its archive removed; the rows of exports that ended (expired or
// failed) are kept a while so the owner sees what happened, then deleted.
import { and, inArray, lt, lte, eq, isNotNull } from "drizzle-orm";
import type { Deps } from "../../core/deps.ts";
import { archiveKey } from "./archive.ts";
import { removeArchive } from "./service.ts";
import { accountExports } from "./table.ts";

/** Ended exports are listed this long after they were asked for. */
export const ENDED_KEPT_DAYS = 30;
const BATCH = 200;

export async function expireExports(deps: Deps, signal?: AbortSignal): Promise<{ expired: number; pruned: number }> {
  const now = deps.clock.now();
  let expired = 0;
  for (;;) {
    if (signal?.aborted) break;
    // The row first, then its archive: a download after the row changed is refused (410), and
    // an archive whose delete failed is the orphan sweep's (no row names it).
    const rows = await deps.db
      .update(accountExports)
      .set({ state: "expired", objectKey: null })
      .where(
        inArray(
          accountExports.id,
          deps.db
            .select({ id: accountExports.id })
            .from(accountExports)
            .where(and(eq(accountExports.state, "ready"), isNotNull(accountExports.expiresAt), lte(accountExports.expiresAt, now)))
            .limit(BATCH),
        ),
      )
      .returning({ id: accountExports.id, ownerId: accountExports.ownerId });
    for (const r of rows) await removeArchive(deps, archiveKey(r));
    expired += rows.length;
    if (rows.length < BATCH) break;
  }
  const pruned = await deps.db
    .delete(accountExports)
    .where(and(inArray(accountExports.state, ["expired", "failed"]), lt(accountExports.createdAt, new Date(now.getTime() - ENDED_KEPT_DAYS * 86_400_000))))
    .returning({ id: accountExports.id });
  return { expired, pruned: pruned.length };
}
