// The registry: every scheduled job, each defined by the module that owns its data (a
// <name>.job.ts, exported from its public surface; the runner's own upkeep is runner.ts's),
// and the kinds of stored things the orphan sweep and usage verify walk. A new job is one
// entry here; a module that stores objects is one more kind. The order is the order
// `shelf admin jobs` and GET /v1/admin/jobs list them in.
import type { Job } from "../src/core/job.ts";
import { audioPlaceholdersJob, storedAudio } from "../src/modules/audio/public.ts";
import { expireExportsJob, storedExports } from "../src/modules/backup/public.ts";
import { storedMigrations } from "../src/modules/migration/public.ts";
import { storedDocuments, storedKbFiles } from "../src/modules/library/public.ts";
import { attributeImageBandwidthJob } from "../src/modules/edge/public.ts";
import { pruneSessionsJob } from "../src/modules/identity/public.ts";
import { imagePlaceholdersJob, storedImages } from "../src/modules/images/public.ts";
import { conflictBranchesJob, pruneTombstonesJob, syncV1ReminderJob } from "../src/modules/library/public.ts";
import { deliverOutboxJob, pruneNotificationsJob } from "../src/modules/notifications/public.ts";
import { pruneOAuthJob } from "../src/modules/oauth/public.ts";
import { expireUploadsJob, storedUploads } from "../src/modules/uploads/public.ts";
import { orphanSweepJob, type StoredKind, usageVerifyJob } from "../src/modules/usage/public.ts";
import {
  attributeProviderEgress,
  deleteFailedVideoOriginals,
  monthRollover,
  reconcileVideosJob,
  storedVideos,
  videoPlaceholdersJob,
} from "../src/modules/videos/public.ts";
import { purgeTrashJob } from "../src/modules/trash/public.ts";
import { pruneJobRuns } from "./runner.ts";

/** Every kind of stored thing: what the orphan sweep walks and usage verify recounts. */
export const storedKinds: readonly StoredKind[] = [
  storedImages,
  storedVideos,
  storedAudio,
  storedDocuments,
  storedKbFiles,
  storedUploads,
  storedExports,
  storedMigrations,
];

export const allJobs: readonly Job[] = [
  pruneJobRuns,
  pruneSessionsJob,
  pruneOAuthJob,
  pruneTombstonesJob,
  syncV1ReminderJob,
  attributeImageBandwidthJob,
  imagePlaceholdersJob,
  videoPlaceholdersJob,
  audioPlaceholdersJob,
  attributeProviderEgress,
  conflictBranchesJob,
  reconcileVideosJob,
  deleteFailedVideoOriginals,
  expireUploadsJob,
  monthRollover,
  orphanSweepJob(storedKinds),
  usageVerifyJob(storedKinds),
  deliverOutboxJob,
  pruneNotificationsJob,
  expireExportsJob,
  purgeTrashJob,
];
