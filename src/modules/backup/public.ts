// The backup module's public surface: the worker the wiring starts on worker nodes, its
// scheduled job, and its objects for the orphan sweep (counted in no quota).
export { createExportWorker } from "./worker.ts";
export { expireExportsJob } from "./expire-exports.job.ts";
export { storedExports } from "./stored-kind.ts";
