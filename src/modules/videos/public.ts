// The videos module's public surface.
export { videoEdgeResolver } from "./edge-resolver.ts";
export { providerEgress, splitByStorage } from "./bandwidth-egress.ts";
export { createProviders as createVideoProviders } from "./providers/index.ts";
export { createTranscodeWorker } from "./worker.ts";

export { videoMediaPage, trashOwnVideo } from "./media-page.ts";
// The trash: a deleted video is trashed, then restored or purged through the trash module.
export { expiredVideos, restoreVideo, videoTrashPage } from "./trash.ts";
export { purgeVideo } from "./service.ts";
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
export { ownedVideoCard, publicVideoCard } from "./card.ts";
// A share link opens its video through a signature of its own making (shares/media.ts).
export { createPlaybackSigner } from "./sign.ts";
// What an account export copies of videos.
export { videoExportTotals, videoIdOwners, videosForExport } from "./export.ts";
// The job that makes the placeholders of thumbnails that have none.
export { videoPlaceholdersJob } from "./placeholders.job.ts";
