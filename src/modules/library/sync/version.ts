// Which sync protocol a manifest or sync request speaks, and the v1 sunset
//: from SYNC_V1_DEPRECATED_AT v1 answers say they are deprecated and when
// they end; from SYNC_V1_SUNSET_AT v1 is gone (410 SYNC_V1_SUNSET).
import type { Config } from "../../../config.ts";
import { AppError } from "../../../core/errors.ts";

export type SyncVersion = 1 | 2;

/** The header wins over the query parameter; absent both, v1. */
export function syncVersionOf(header: string | undefined, query: string | undefined): SyncVersion {
  const raw = header ?? query;
  if (raw === undefined) return 1;
  const text = raw.trim();
  if (!/^\d+$/.test(text) || Number(text) === 0) {
    throw new AppError("INVALID_SYNC_VERSION", "the sync version must be a positive whole number (1 or 2)", { received: raw.slice(0, 16) });
  }
  if (Number(text) >= 3) throw new AppError("SYNC_VERSION_UNSUPPORTED", "the highest sync version is 2", { max: 2, received: text.slice(0, 16) });
  return Number(text) as SyncVersion;
}

/**
 * The headers of a v1 answer at `now`: none before the deprecation date, then
 * `Deprecation: true` and `Sunset` (an HTTP-date, RFC 8594). From the sunset date, 410.
 */
export function v1Headers(config: Pick<Config, "SYNC_V1_DEPRECATED_AT" | "SYNC_V1_SUNSET_AT">, now: Date): Record<string, string> {
  const sunset = new Date(config.SYNC_V1_SUNSET_AT);
  if (now >= sunset) {
    throw new AppError("SYNC_V1_SUNSET", `sync version 1 ended on ${sunset.toISOString()}; use version 2 (Service-Sync-Version: 2)`, {
      sunset: sunset.toISOString(),
    });
  }
  if (now < new Date(config.SYNC_V1_DEPRECATED_AT)) return {};
  return { deprecation: "true", sunset: sunset.toUTCString() };
}
