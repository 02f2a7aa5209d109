// The videos module's public surface.
export { videoEdgeResolver } from "./edge-resolver.ts";
export { createProviders as createVideoProviders } from "./providers/index.ts";
export { createTranscodeWorker } from "./worker.ts";
// Its scheduled jobs, for the registry (jobs/index.ts).
export { attributeProviderEgress, deleteFailedVideoOriginals, monthRollover, reconcileVideosJob } from "./jobs.ts";
export { videoMediaPage, deleteOwnVideo } from "./media-page.ts";
// Before an account is deleted: its videos and their hosted assets.
export { deleteOwnerVideos } from "./service.ts";
export { VideoListItem } from "./model.ts";
// Its objects and counted rows, for the orphan sweep and usage verify.
export { storedVideos } from "./stored-kind.ts";
