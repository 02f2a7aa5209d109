// Keeps the OAuth provider's tables bounded: expired device and authorization codes and tokens a day past
// their expiry go, and grants revoked a day ago or left without a live refresh token.
import { pruneOAuth as prune } from "./prune.ts";
import { type Job, result } from "../../core/job.ts";

const GRACE_MS = 86_400_000;

export const pruneOAuthJob: Job = {
  name: "prune-oauth",
  schedule: "47 4 * * *",
  description: "deletes expired device and authorization codes and OAuth tokens, and grants revoked or expired",
  async run({ deps }) {
    const d = await prune(deps.db, new Date(deps.clock.nowMs() - GRACE_MS));
    return result(
      { ...d },
      (c) =>
        `deleted ${c.deviceAuthorizations} device codes, ${c.authorizationCodes} authorization codes, ${c.accessTokens} access tokens, ${c.refreshTokens} refresh tokens and ${c.grants} grants`,
    );
  },
};
