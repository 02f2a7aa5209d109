// The images module's public surface: what other modules and the wiring may use of it.
export { imageEdgeResolver } from "./edge-resolver.ts";
export {
  discardPrepared,
  importImage,
  type ImageDeps,
  ingestImage,
  insertPrepared,
  precheckUpload as precheckImageUpload,
  prepareImage,
  preparedUrl,
  type PreparedImage,
  toUploaded as toUploadedImage,
  type Uploader,
} from "./service.ts";
// A collection's images: the list items of the owner's ids, and which ids still exist.
export { heldImageIds, imageItemsByIds } from "./service.ts";
export { ImageItem } from "./model.ts";
export { Tags, TAGS_RULE } from "./model.ts";
// Its objects and counted rows, for the orphan sweep and usage verify.
export { storedImages } from "./stored-kind.ts";
// The SVG sanitizer's worker, one per process (the wiring builds it and closes it).
export { createSvgSanitizer } from "./svg-sanitizer.ts";
// What an account export copies of images.
export { imageExportTotals, imageIdOwners, imagesForExport } from "./export.ts";
// The job that makes the placeholders of images uploaded before uploads made them.
export { imagePlaceholdersJob } from "./placeholders.job.ts";
// Size variants of the pictures other kinds store (a video's thumbnail, an audio cover).
export { derivedPrefix, derivedVariants } from "./variants/derived.ts";
// The ThumbHash placeholder of a picture other kinds show (a video's thumbnail, an audio cover).
export { NO_PLACEHOLDER, placeholderOf } from "./variants/placeholder.ts";
export type { VariantAsk } from "./variants/params.ts";
// The trash: a deleted image is trashed, then restored or purged through the trash module.
export { expiredImages, imageTrashPage, restoreImage, trashImage } from "./trash.ts";
export { purgeImage } from "./service.ts";
// One of the owner's images as the API answers it (a share link's page).
export { getImage, toItem as toImageItem } from "./service.ts";
