// Every scheduled job. A new job is one file exporting a Job, listed here.
import type { Job } from "../src/infra/job.ts";
import { storedAudio } from "../src/modules/audio/public.ts";
import { storedDocuments } from "../src/modules/documents/public.ts";
import { attributeImageBandwidth } from "../src/modules/edge/public.ts";
import { storedImages } from "../src/modules/images/public.ts";
import { orphanSweepJob, type StoredKind, usageVerifyJob } from "../src/modules/usage/public.ts";
import { conflictBranchesJob } from "./conflict-branches.ts";
import { deliverOutboxJob } from "./deliver-outbox.ts";
import { pruneNotificationsJob } from "./prune-notifications.ts";
import { pruneJobRuns } from "./runner.ts";
import { attributeProviderEgress, deleteFailedVideoOriginals, monthRollover, reconcileVideosJob, storedVideos } from "../src/modules/videos/public.ts";
import { pruneOAuth } from "./prune-oauth.ts";
import { pruneSessions } from "./prune-sessions.ts";
import { pruneTombstones } from "./prune-tombstones.ts";

/**
 * Every kind of stored thing, each exported by the module that stores it: what the orphan
 * sweep walks and usage verify recounts (and `shelf admin usage verify`). A module that
 * stores objects is one more entry.
 */
export const storedKinds: readonly StoredKind[] = [storedImages, storedVideos, storedAudio, storedDocuments];

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
  orphanSweepJob(storedKinds),
  usageVerifyJob(storedKinds),
  deliverOutboxJob,
  pruneNotificationsJob,
];
