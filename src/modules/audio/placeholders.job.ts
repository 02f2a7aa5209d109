// Placeholders of audio covers uploaded before placeholders were made (an upload makes its
// cover's at once, service.ts): a batch of files with a cover and no placeholder at a time,
// each rendered from its stored JPEG under the node's image-work budget; a cover that gives
// none is marked so (""), one that cannot be read now waits for the next run.
import { and, asc, eq, gt, isNotNull, isNull } from "drizzle-orm";
import type { Deps } from "../../core/deps.ts";
import { type Job, result } from "../../core/job.ts";
import { NO_PLACEHOLDER, placeholderOf } from "../images/public.ts";
import { audio } from "./table.ts";

const BATCH = 100;
/** A cover's pixels at most (cover.ts keeps them to 1200 a side): what the budget is asked for. */
const COVER_PIXELS = 1200 * 1200;

async function backfillAudioPlaceholders(deps: Deps, signal?: AbortSignal) {
  const counts = { made: 0, none: 0, unread: 0 };
  let after = "";
  while (!signal?.aborted) {
    const rows = await deps.db
      .select({ id: audio.id, coverKey: audio.coverKey })
      .from(audio)
      .where(and(isNull(audio.placeholder), isNotNull(audio.coverKey), gt(audio.id, after)))
      .orderBy(asc(audio.id))
      .limit(BATCH);
    for (const row of rows) {
      if (signal?.aborted) break;
      after = row.id;
      const picture = await deps.storage.read(row.coverKey!).catch(() => null);
      if (!picture) {
        counts.unread++;
        continue;
      }
      const release = await deps.budgets.imageWork.acquire(4 * COVER_PIXELS);
      const hash = await placeholderOf(picture, deps.config.IMAGE_WORK_TIMEOUT_S)
        .catch(() => NO_PLACEHOLDER)
        .finally(release);
      await deps.db.update(audio).set({ placeholder: hash }).where(eq(audio.id, row.id));
      if (hash) counts.made++;
      else counts.none++;
    }
    if (rows.length < BATCH) break;
  }
  return counts;
}

export const audioPlaceholdersJob: Job = {
  name: "audio-placeholders",
  schedule: "21 * * * *",
  description: "makes the ThumbHash placeholder of audio covers that have none (uploaded before placeholders were made)",
  async run({ deps, signal }) {
    const counts = await backfillAudioPlaceholders(deps, signal);
    return result(counts, (c) => `${c.made} placeholders made, ${c.none} covers give none, ${c.unread} covers unread`);
  },
};
