// Placeholders of video thumbnails: a transcode's auto thumbnail gets its ThumbHash here, as
// do videos from before placeholders were made, and a video whose custom thumbnail was
// removed (a custom thumbnail's is made at its upload, thumbnail.ts). A batch of ready videos
// with none at a time, each rendered from its stored JPEG under the node's image-work budget;
// one whose picture gives none is marked so (""), one that cannot be read now waits.
import { and, asc, eq, gt, isNotNull, isNull, or } from "drizzle-orm";
import type { Deps } from "../../core/deps.ts";
import { type Job, result } from "../../core/job.ts";
import { NO_PLACEHOLDER, placeholderOf } from "../images/public.ts";
import { videos } from "./table.ts";

const BATCH = 100;
/** A thumbnail's pixels at most (ffmpeg's are 1280 wide): what the budget is asked for. */
const THUMB_PIXELS = 1280 * 720;

async function backfillVideoPlaceholders(deps: Deps, signal?: AbortSignal) {
  const counts = { made: 0, none: 0, unread: 0 };
  let after = "";
  while (!signal?.aborted) {
    const rows = await deps.db
      .select({ id: videos.id, thumbnailKey: videos.thumbnailKey, customThumbnailKey: videos.customThumbnailKey })
      .from(videos)
      .where(
        and(
          isNull(videos.placeholder),
          eq(videos.status, "ready"),
          or(isNotNull(videos.thumbnailKey), isNotNull(videos.customThumbnailKey)),
          gt(videos.id, after),
        ),
      )
      .orderBy(asc(videos.id))
      .limit(BATCH);
    for (const row of rows) {
      if (signal?.aborted) break;
      after = row.id;
      const key = row.customThumbnailKey ?? row.thumbnailKey!;
      const picture = await deps.storage.read(key).catch(() => null);
      if (!picture) {
        counts.unread++;
        continue;
      }
      const release = await deps.budgets.imageWork.acquire(4 * THUMB_PIXELS);
      const hash = await placeholderOf(picture, deps.config.IMAGE_WORK_TIMEOUT_S)
        .catch(() => NO_PLACEHOLDER)
        .finally(release);
      // Only if the thumbnail is still the one read: a custom one set meanwhile brought its own.
      const same = row.customThumbnailKey === null ? isNull(videos.customThumbnailKey) : eq(videos.customThumbnailKey, row.customThumbnailKey);
      await deps.db
        .update(videos)
        .set({ placeholder: hash })
        .where(and(eq(videos.id, row.id), isNull(videos.placeholder), same));
      if (hash) counts.made++;
      else counts.none++;
    }
    if (rows.length < BATCH) break;
  }
  return counts;
}

export const videoPlaceholdersJob: Job = {
  name: "video-placeholders",
  schedule: "19 * * * *",
  description: "makes the ThumbHash placeholder of ready videos' thumbnails that have none (a transcode's, or from before placeholders were made)",
  async run({ deps, signal }) {
    const counts = await backfillVideoPlaceholders(deps, signal);
    return result(counts, (c) => `${c.made} placeholders made, ${c.none} thumbnails give none, ${c.unread} thumbnails unread`);
  },
};
