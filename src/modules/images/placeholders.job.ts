// Placeholders for images uploaded before uploads made them: a batch of images with none
// at a time, each rendered from its stored original under the node's image-work budget.
// An image whose picture gives none is marked so (""), and is not tried again; one whose
// original cannot be read now is left for the next run.
import { and, asc, eq, gt, isNull } from "drizzle-orm";
import type { Deps } from "../../core/deps.ts";
import { type Job, result } from "../../core/job.ts";
import { objectKey } from "./objects.ts";
import { images } from "./table.ts";
import { NO_PLACEHOLDER, placeholderOf } from "./variants/placeholder.ts";

const BATCH = 100;

/** Fills in placeholders until none is missing or the run is told to stop; what it did. */
async function backfillPlaceholders(deps: Deps, signal?: AbortSignal) {
  const counts = { made: 0, none: 0, unread: 0 };
  // By id, once through: an image whose original cannot be read now is passed over until the next run.
  let after = "";
  while (!signal?.aborted) {
    const rows = await deps.db
      .select({ id: images.id, ownerId: images.ownerId, format: images.format, width: images.width, height: images.height })
      .from(images)
      .where(and(isNull(images.placeholder), gt(images.id, after)))
      .orderBy(asc(images.id))
      .limit(BATCH);
    for (const row of rows) {
      if (signal?.aborted) break;
      after = row.id;
      const original = await deps.storage.read(objectKey(row, "original")).catch(() => null);
      if (!original) {
        counts.unread++;
        continue;
      }
      const release = await deps.budgets.imageWork.acquire(4 * row.width * row.height);
      const hash = await placeholderOf(original, deps.config.IMAGE_WORK_TIMEOUT_S)
        .catch(() => NO_PLACEHOLDER)
        .finally(release);
      await deps.db.update(images).set({ placeholder: hash }).where(eq(images.id, row.id));
      if (hash) counts.made++;
      else counts.none++;
    }
    if (rows.length < BATCH) break;
  }
  return counts;
}

export const imagePlaceholdersJob: Job = {
  name: "image-placeholders",
  schedule: "17 * * * *",
  description: "makes the ThumbHash placeholder of images that have none (uploaded before placeholders were made)",
  async run({ deps, signal }) {
    const counts = await backfillPlaceholders(deps, signal);
    return result(counts, (c) => `${c.made} placeholders made, ${c.none} images give none, ${c.unread} originals unread`);
  },
};
