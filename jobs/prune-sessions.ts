// Keeps sessions bounded: refresh tokens a day past their expiry go, and sessions with no
// live refresh token left (ended, or expired a day ago) go with them.
import { and, lt, notExists, eq, gt } from "drizzle-orm";
import { refreshTokens, sessions } from "../src/modules/auth/table.ts";
import type { Job } from "./job.ts";

const GRACE_MS = 86_400_000;

export const pruneSessions: Job = {
  name: "prune-sessions",
  schedule: "41 4 * * *",
  description: "deletes expired refresh tokens and the sessions left without one",
  async run({ deps }) {
    const cutoff = new Date(deps.clock.nowMs() - GRACE_MS);
    const tokens = await deps.db.delete(refreshTokens).where(lt(refreshTokens.expiresAt, cutoff)).returning({ id: refreshTokens.id });
    const live = deps.db
      .select({ id: refreshTokens.id })
      .from(refreshTokens)
      .where(and(eq(refreshTokens.sessionId, sessions.id), gt(refreshTokens.expiresAt, cutoff)));
    const ended = await deps.db
      .delete(sessions)
      .where(and(lt(sessions.createdAt, cutoff), notExists(live)))
      .returning({ id: sessions.id });
    return `deleted ${tokens.length} refresh tokens and ${ended.length} sessions`;
  },
};
