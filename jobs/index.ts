// Every scheduled job. A new job is one file exporting a Job, listed here.
import type { Job } from "../src/infra/job.ts";
import { attributeImageBandwidth } from "../src/modules/edge/public.ts";
import { attributeProviderEgress } from "./attribute-provider-egress.ts";
import { conflictBranchesJob } from "./conflict-branches.ts";
import { monthRollover } from "./month-rollover.ts";
import { orphanSweep } from "./orphan-sweep.ts";
import { usageVerify } from "./usage-verify.ts";
import { deliverOutboxJob } from "./deliver-outbox.ts";
import { pruneNotificationsJob } from "./prune-notifications.ts";
import { pruneJobRuns } from "./runner.ts";
import { pruneOAuth } from "./prune-oauth.ts";
import { pruneSessions } from "./prune-sessions.ts";
import { pruneTombstones } from "./prune-tombstones.ts";
import { deleteFailedVideoOriginals } from "./video-failed-originals.ts";
import { reconcileVideosJob } from "./video-reconcile.ts";

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
