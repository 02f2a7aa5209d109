// Purges what has been in the trash longer than TRASH_RETENTION_DAYS (service.ts, purgeExpired).
import { type Job, result } from "../../core/job.ts";
import { purgeExpired } from "./service.ts";

export const purgeTrashJob: Job = {
  name: "purge-trash",
  schedule: "17 * * * *",
  description:
    "deletes for good the images, videos, audio, documents and KBs deleted more than TRASH_RETENTION_DAYS ago: their rows, objects and counted bytes",
  async run({ deps, signal }) {
    const counts = await purgeExpired(deps, signal);
    return result(counts, (c) => `purged ${Object.values(c).reduce((a, b) => a + b, 0)} trashed items`);
  },
};
