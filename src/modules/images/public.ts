// The images module's public surface: what other modules and the wiring may use of it.
export { imageEdgeResolver } from "./edge-resolver.ts";
export {
  discardPrepared,
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
export { imageExportTotals, imagesForExport } from "./export.ts";
// The job that makes the placeholders of images uploaded before uploads made them.
export { imagePlaceholdersJob } from "./placeholders.job.ts";
// Size variants of the pictures other kinds store (a video's thumbnail, an audio cover).
export { derivedPrefix, derivedVariants } from "./variants/derived.ts";
export type { VariantAsk } from "./variants/params.ts";
