// Every table of the one schema. Each feature owns its tables in its module's table.ts.
export * from "../../../jobs/table.ts";
export * from "../../modules/identity/table.ts";
export * from "../../modules/usage/table.ts";
export * from "../../modules/images/table.ts";
export * from "../../modules/library/kbs/table.ts";
export * from "../../modules/library/documents/table.ts";
export * from "../../modules/library/files/table.ts";
export * from "../../modules/oauth/table.ts";
export * from "../../modules/notifications/table.ts";
export * from "../../modules/videos/table.ts";
export * from "../../modules/audio/table.ts";
export * from "../../modules/uploads/table.ts";
export * from "../../modules/backup/table.ts";
export * from "../../modules/migration/table.ts";
export * from "../../modules/shares/table.ts";
export * from "../../modules/publish/table.ts";
export * from "../../modules/collections/table.ts";
