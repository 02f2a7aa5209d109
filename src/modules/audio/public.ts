// The audio module's public surface: its edge kind, and what the unified media listing,
// the usage check and the orphan sweep read of it.
export { audioEdgeResolver } from "./edge-resolver.ts";
export { AudioItem } from "./model.ts";
export { purgeAudio, restoreAudio, trashAudio } from "./service.ts";
export { audioMediaPage, audioTrashPage, expiredAudio } from "./queries.ts";
export { audioItemsByIds, heldAudioIds } from "./queries.ts";
// Its objects and counted rows, for the orphan sweep and usage verify.
export { storedAudio } from "./stored-kind.ts";
// A finished resumable upload handed to the audio pipeline (the uploads module).
export { ingestAudio, precheckAudioFile, toAudio } from "./service.ts";
export { ownedAudioCard, publicAudioCard } from "./card.ts";
// What an account export copies of audio.
export { audioExportTotals, audioForExport, audioIdOwners } from "./export.ts";
// The job that makes the placeholders of covers that have none.
export { audioPlaceholdersJob } from "./placeholders.job.ts";
