// The videos module's public surface.
export { videoEdgeResolver } from "./edge-resolver.ts";
export { providerEgress, splitByStorage } from "./bandwidth-egress.ts";
export { createProviders as createVideoProviders } from "./providers/index.ts";
export { createTranscodeWorker } from "./worker.ts";

export { videoMediaPage, deleteOwnVideo } from "./media-page.ts";
// Before an account is deleted: its videos and their hosted assets.
export { deleteOwnerVideos } from "./service.ts";
export { VideoListItem } from "./model.ts";
// A collection's videos: the list items of the owner's ids, and which ids still exist.
export { heldVideoIds, videoItemsByIds } from "./by-ids.ts";
// Its objects and counted rows, for the orphan sweep and usage verify.
export { storedVideos } from "./stored-kind.ts";
export { deleteFailedVideoOriginals } from "./failed-originals.job.ts";
export { attributeProviderEgress } from "./provider-egress.job.ts";
export { reconcileVideosJob } from "./reconcile.job.ts";
export { monthRollover } from "./month-rollover.job.ts";
// A finished resumable upload handed to the video pipeline (the uploads module).
export { ingestVideo, precheckVideoFile, toUploaded as toUploadedVideo } from "./service.ts";
export { publicVideoCard } from "./card.ts";
// What an account export copies of videos.
export { videoExportTotals, videosForExport } from "./export.ts";
