// The trash module's public surface: its scheduled purge.
export { purgeTrashJob } from "./purge-trash.job.ts";
