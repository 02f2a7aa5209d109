// Every scheduled job. A new job is one file exporting a Job, listed here.
import type { Job } from "../src/infra/job.ts";
import { attributeImageBandwidth } from "../src/modules/edge/public.ts";
import { conflictBranchesJob } from "./conflict-branches.ts";
import { orphanSweep } from "./orphan-sweep.ts";
import { usageVerify } from "./usage-verify.ts";
import { deliverOutboxJob } from "./deliver-outbox.ts";
import { pruneNotificationsJob } from "./prune-notifications.ts";
import { pruneJobRuns } from "./runner.ts";
import { attributeProviderEgress, deleteFailedVideoOriginals, monthRollover, reconcileVideosJob } from "../src/modules/videos/public.ts";
import { pruneOAuth } from "./prune-oauth.ts";
import { pruneSessions } from "./prune-sessions.ts";
import { pruneTombstones } from "./prune-tombstones.ts";

export const allJobs: readonly Job[] = [
  pruneJobRuns,
  pruneSessions,
  pruneOAuth,
  pruneTombstones,
  attributeImageBandwidth,
  attributeProviderEgress,
  conflictBranchesJob,
  reconcileVideosJob,
  deleteFailedVideoOriginals,
  monthRollover,
  orphanSweep,
  usageVerify,
  deliverOutboxJob,
  pruneNotificationsJob,
];
