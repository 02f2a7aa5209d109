// The videos' scheduled upkeep (reconcile.job.ts, failed-originals.job.ts): hourly reconciliation of
// videos a provider has not reported on, and the removal of failed videos' originals
// after 7 days. Both are idempotent: a run stopped half-way is finished by the next.
import { and, asc, eq, gt, isNotNull, isNull, lt, sql } from "drizzle-orm";
import type { Deps } from "../../core/deps.ts";
import { release } from "../usage/public.ts";
import type { Providers } from "./providers/index.ts";
import { enqueue, latestJob } from "./queue.ts";
import { applyProviderEvent } from "./state.ts";
import { videos } from "./table.ts";

const HOUR_MS = 3_600_000;
export const FAILED_ORIGINAL_RETENTION_MS = 7 * 24 * HOUR_MS;
const BATCH = 100;

/**
 * Asks the provider about every video processing for over an hour and applies what it
 * says (a missed callback heals here; the event id is the callback's own, so one that did
 * arrive meanwhile is not applied twice). A video whose transcode job is missing (lost
 * before this code's queue existed, or removed by hand) is queued again.
 */
export async function reconcileVideos(deps: Deps, providers: Providers, signal?: AbortSignal): Promise<{ asked: number; healed: number }> {
  const before = new Date(deps.clock.nowMs() - HOUR_MS);
  let asked = 0;
  let healed = 0;
  let after = "";
  for (;;) {
    const page = await deps.db
      .select()
      .from(videos)
      .where(and(eq(videos.status, "processing"), lt(videos.createdAt, before), gt(videos.id, after)))
      .orderBy(asc(videos.id))
      .limit(BATCH);
    for (const v of page) {
      if (signal?.aborted) return { asked, healed };
      asked++;
      try {
        const ev = await providers[v.provider].status(deps, v);
        if (ev && ev.type !== "progress" && (await applyProviderEvent(deps, v.provider, ev)) === "applied") healed++;
        else if (!ev && v.provider === "local" && !(await latestJob(deps.db, v.id, "transcode"))) {
          await deps.db.transaction((tx) => enqueue(tx, { kind: "transcode", videoId: v.id, ownerId: v.ownerId, provider: v.provider }, deps.clock.now()));
        }
      } catch (err) {
        deps.log.warn("video reconciliation could not ask the provider", { id: v.id, provider: v.provider, err });
      }
    }
    if (page.length < BATCH) return { asked, healed };
    after = page.at(-1)!.id;
  }
}

/**
 * Deletes the originals of videos failed more than 7 days ago, giving back their media
 * storage; not a trashed video's, which its purge removes with the rest.
 */
export async function deleteFailedOriginals(deps: Deps, signal?: AbortSignal): Promise<number> {
  const before = new Date(deps.clock.nowMs() - FAILED_ORIGINAL_RETENTION_MS);
  let deleted = 0;
  for (;;) {
    const page = await deps.db
      .select({ id: videos.id, ownerId: videos.ownerId, key: videos.originalKey, size: videos.sizeBytes })
      .from(videos)
      .where(and(eq(videos.status, "failed"), isNotNull(videos.originalKey), lt(videos.failedAt, before), isNull(videos.trashedAt)))
      .limit(BATCH);
    if (!page.length) return deleted;
    for (const v of page) {
      if (signal?.aborted) return deleted;
      // The object first: were the run to die between, the row still names it and the
      // next run deletes it again (a delete of an absent key is no error).
      await deps.storage.delete(v.key!);
      await deps.db.transaction(async (tx) => {
        const [row] = await tx
          .update(videos)
          .set({ originalKey: null, updatedAt: sql`${videos.updatedAt}` })
          .where(and(eq(videos.id, v.id), isNotNull(videos.originalKey)))
          .returning({ id: videos.id });
        if (row) await release(tx, v.ownerId, { mediaBytes: v.size });
      });
      deleted++;
    }
  }
}
