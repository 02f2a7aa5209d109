// A failed video's original is kept 7 days, then deleted automatically (its
// media storage given back; the row stays, with its failure reason).
import { deleteFailedOriginals } from "./maintenance.ts";
import { type Job, result } from "../../core/job.ts";

export const deleteFailedVideoOriginals: Job = {
  name: "video-failed-originals",
  schedule: "41 * * * *",
  description: "deletes the originals of videos that failed more than 7 days ago",
  async run({ deps, signal }) {
    return result({ deleted: await deleteFailedOriginals(deps, signal) }, (c) => `deleted ${c.deleted} originals`);
  },
};
