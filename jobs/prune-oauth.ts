// Keeps the OAuth provider's tables bounded: expired device and authorization codes and tokens a day past
// their expiry go, and grants revoked a day ago or left without a live refresh token.
import { pruneOAuth as prune } from "../src/modules/oauth/public.ts";
import type { Job } from "./job.ts";

const GRACE_MS = 86_400_000;

export const pruneOAuth: Job = {
  name: "prune-oauth",
  schedule: "47 4 * * *",
  description: "deletes expired device and authorization codes and OAuth tokens, and grants revoked or expired",
  async run({ deps }) {
    const d = await prune(deps.db, new Date(deps.clock.nowMs() - GRACE_MS));
    return `deleted ${d.deviceAuthorizations} device codes, ${d.authorizationCodes} authorization codes, ${d.accessTokens} access tokens, ${d.refreshTokens} refresh tokens and ${d.grants} grants`;
  },
};
