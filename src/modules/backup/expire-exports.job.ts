// Removes the archives of exports past their expiresAt, and forgets ended exports after
// ENDED_KEPT_DAYS (expire.ts). Idempotent.
import { type Job, result } from "../../core/job.ts";
import { ENDED_KEPT_DAYS, expireExports } from "./expire.ts";

export const expireExportsJob: Job = {
  name: "expire-exports",
  schedule: "*/10 * * * *",
  description: `removes the archives of account exports past their expiresAt (EXPORT_RETENTION_H after they were made) and marks them expired; deletes expired and failed exports asked for over ${ENDED_KEPT_DAYS} days ago`,
  async run({ deps, signal }) {
    const counts = await expireExports(deps, signal);
    return result(counts, (c) => `removed ${c.expired} expired archives, forgot ${c.pruned} ended exports`);
  },
};
