// The migration module's public surface: the worker the wiring starts on worker nodes, and
// its objects for the orphan sweep (counted in no quota).
export { createMigrationWorker } from "./worker.ts";
export { storedMigrations } from "./stored-kind.ts";
// A finished resumable upload of kind archive starts its import (the uploads module).
export { queueArchiveImport } from "./service.ts";
