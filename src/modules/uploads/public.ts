// The uploads module's public surface: its expiry job, and its objects and held storage
// for the orphan sweep and usage verify.
export { expireUploadsJob } from "./expire-uploads.job.ts";
export { storedUploads } from "./stored-kind.ts";
