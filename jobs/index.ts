// The registry: every scheduled job, each defined by the module that owns its data and
// exported from that module's public surface (the runner's own upkeep, prune-job-runs,
// is runner.ts's). A new job is a Job in its module's jobs.ts, listed here. The order is
// the order `shelf admin jobs` and GET /v1/admin/jobs list them in.
import type { Job } from "../src/infra/job.ts";
import { storedAudio } from "../src/modules/audio/public.ts";
import { storedDocuments } from "../src/modules/documents/public.ts";
import { attributeImageBandwidth } from "../src/modules/edge/public.ts";
import { pruneSessionsJob } from "../src/modules/identity/public.ts";
import { storedImages } from "../src/modules/images/public.ts";
import { conflictBranchesJob, pruneTombstones } from "../src/modules/kbs/public.ts";
import { deliverOutboxJob, pruneNotificationsJob } from "../src/modules/notifications/public.ts";
import { pruneOAuthJob } from "../src/modules/oauth/public.ts";
import { orphanSweepJob, type StoredKind, usageVerifyJob } from "../src/modules/usage/public.ts";
import { attributeProviderEgress, deleteFailedVideoOriginals, monthRollover, reconcileVideosJob, storedVideos } from "../src/modules/videos/public.ts";
import { pruneJobRuns } from "./runner.ts";

/**
 * Every kind of stored thing, each exported by the module that stores it: what the orphan
 * sweep walks and usage verify recounts (the jobs, and `shelf admin usage verify`). A
 * module that stores objects is one more entry.
 */
export const storedKinds: readonly StoredKind[] = [storedImages, storedVideos, storedAudio, storedDocuments];

export const allJobs: readonly Job[] = [
  pruneJobRuns,
  pruneSessionsJob,
  pruneOAuthJob,
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
