// Keeps sessions bounded: refresh tokens a day past their expiry go, and sessions with no
// live refresh token left (ended, or expired a day ago) go with them.
import { pruneSessions as prune } from "./sessions.ts";
import { type Job, result } from "../../core/job.ts";

const GRACE_MS = 86_400_000;

export const pruneSessionsJob: Job = {
  name: "prune-sessions",
  schedule: "41 4 * * *",
  description: "deletes expired refresh tokens and the sessions left without one",
  async run({ deps }) {
    const deleted = await prune(deps.db, new Date(deps.clock.nowMs() - GRACE_MS));
    return result({ ...deleted }, (c) => `deleted ${c.refreshTokens} refresh tokens and ${c.sessions} sessions`);
  },
};
