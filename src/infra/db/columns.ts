import { bigint, timestamp } from "drizzle-orm/pg-core";

/** Every timestamp: UTC instant with millisecond precision (answered as ISO 8601 with ms). */
export const ts = (name: string) => timestamp(name, { withTimezone: true, mode: "date", precision: 3 });
/** Byte counts exceed 2^31; JS numbers hold them exactly up to 2^53. */
export const bytes = (name: string) => bigint(name, { mode: "number" });
