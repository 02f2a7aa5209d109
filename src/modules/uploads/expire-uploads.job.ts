// Resumable uploads not finished by their Upload-Expires: their stored bytes (parts, tail,
// file) deleted and the storage they held given back, each under the upload's lease (one
// a PATCH is writing to is left for the next run). Rows of uploads that ended (complete,
// failed, expired) are kept a week for a client asking what became of one, then removed.
// Idempotent: a second run finds nothing.
import { and, asc, eq, inArray, lte, notInArray } from "drizzle-orm";
import { type Job, type JobCounts, result } from "../../core/job.ts";
import { release } from "../usage/public.ts";
import { heldNeed } from "./kinds.ts";
import { withUploadLease } from "./service.ts";
import { discard } from "./store.ts";
import { uploads } from "./table.ts";

const BATCH = 200;
const KEEP_ENDED_MS = 7 * 86_400_000;

export const expireUploadsJob: Job = {
  name: "expire-uploads",
  schedule: "*/10 * * * *",
  description:
    "deletes the bytes of resumable uploads past their Upload-Expires and gives back the storage they held; removes ended uploads' rows a week after",
  async run({ deps, log, signal }) {
    const now = deps.clock.now();
    const c: JobCounts = { expired: 0, busy: 0, pruned: 0 };
    const skipped = new Set<string>();
    for (;;) {
      const due = await deps.db
        .select()
        .from(uploads)
        .where(
          and(
            inArray(uploads.status, ["uploading", "processing"]),
            lte(uploads.expiresAt, now),
            skipped.size ? notInArray(uploads.id, [...skipped]) : undefined,
          ),
        )
        .orderBy(asc(uploads.expiresAt), asc(uploads.id))
        .limit(BATCH);
      if (!due.length || signal.aborted) break;
      for (const row of due) {
        try {
          await withUploadLease(deps, row.id, async () => {
            const gone = await deps.db.transaction(async (tx) => {
              const [ended] = await tx
                .update(uploads)
                .set({ status: "expired", reserved: 0, multipartId: null, parts: [], tailBytes: 0, updatedAt: now })
                .where(and(eq(uploads.id, row.id), eq(uploads.status, row.status)))
                .returning();
              if (ended && row.reserved > 0) await release(tx, row.ownerId, heldNeed(row.kind, row.reserved));
              return ended;
            });
            if (!gone) return;
            await discard(deps, row);
            log.info("resumable upload expired", { id: row.id, ownerId: row.ownerId, offset: row.offset, length: row.length });
            c.expired!++;
          });
        } catch (e) {
          // Its lease is held: a PATCH is writing to it right now. The next run sees it.
          if ((e as { code?: string }).code !== "CONFLICT") throw e;
          skipped.add(row.id);
          c.busy!++;
        }
      }
      if (due.length < BATCH) break;
    }
    const pruned = await deps.db
      .delete(uploads)
      .where(and(inArray(uploads.status, ["complete", "failed", "expired"]), lte(uploads.expiresAt, new Date(now.getTime() - KEEP_ENDED_MS))))
      .returning({ id: uploads.id });
    c.pruned = pruned.length;
    return result(
      c,
      (n) => `expired ${n.expired} unfinished resumable uploads${n.busy ? ` (${n.busy} busy, left for the next run)` : ""}; removed ${n.pruned} ended ones`,
    );
  },
};
