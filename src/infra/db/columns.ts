import { bigint, customType, timestamp } from "drizzle-orm/pg-core";

/** Every timestamp: UTC instant with millisecond precision (answered as ISO 8601 with ms). */
export const ts = (name: string) => timestamp(name, { withTimezone: true, mode: "date", precision: 3 });
/** Byte counts exceed 2^31; JS numbers hold them exactly up to 2^53. */
export const bytes = (name: string) => bigint(name, { mode: "number" });
/**
 * A full-text search vector. Only ever a generated column, read by the database itself
 * (`@@`, ts_rank_cd): the application neither writes nor reads its value.
 */
export const tsvector = customType<{ data: string }>({ dataType: () => "tsvector" });
