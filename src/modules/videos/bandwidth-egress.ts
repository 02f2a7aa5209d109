// Media egress a hosted video provider serves from its own CDN never passes the edge, so
// the edge cannot meter it per owner. The provider's reported total for an hour
// is split among users in proportion to the media storage each holds. The local provider
// serves nothing itself (its playback is the edge's, metered per owner), so it reports 0.
// Each hourly run (attribute-provider-egress, jobs.ts) attributes the last whole hour once:
// the hour's batch id commits with its counts (addBandwidthBatch), so a run repeated or
// retried within the hour adds nothing. An hour whose run never happened (no worker up) is
// not caught up. Edge-served media bytes are attributed per owner by the edge's drain.
import type { Config } from "../../config.ts";
import type { Deps } from "../../deps.ts";
import { monthKey } from "../../infra/clock.ts";
import { addBandwidthBatch, mediaStorageHolders, recordBandwidthCrossings } from "../usage/public.ts";

const HOUR_MS = 3_600_000;

export interface ProviderEgress {
  readonly provider: string;
  /** Bytes the provider delivered in [from, to), for every user together. */
  bytesServed(from: Date, to: Date): Promise<number>;
}

const local: ProviderEgress = { provider: "local", bytesServed: async () => 0 };

/**
 * The configured provider's egress report; null when its adapter cannot report one yet
 * (Mux: its usage figures come from its Data API, which this adapter does not call).
 */
export function providerEgress(config: Pick<Config, "VIDEO_PROVIDER">): ProviderEgress | null {
  return config.VIDEO_PROVIDER === "local" ? local : null;
}

/**
 * `total` split in proportion to `holders`' bytes, in whole bytes that add up to it
 * (largest remainders get the bytes rounding left over, ties to the larger holder).
 */
export function splitByStorage(total: number, holders: readonly { ownerId: string; bytes: number }[]): { ownerId: string; bytes: number }[] {
  const sum = holders.reduce((s, h) => s + h.bytes, 0);
  if (total <= 0 || sum <= 0) return [];
  const shares = holders.map((h) => {
    const exact = (total * h.bytes) / sum;
    return { ownerId: h.ownerId, held: h.bytes, bytes: Math.floor(exact), rest: exact - Math.floor(exact) };
  });
  let left = total - shares.reduce((s, h) => s + h.bytes, 0);
  for (const s of [...shares].sort((a, b) => b.rest - a.rest || b.held - a.held)) {
    if (left <= 0) break;
    s.bytes++;
    left--;
  }
  return shares.filter((s) => s.bytes > 0).map(({ ownerId, bytes }) => ({ ownerId, bytes }));
}

/** Attributes what `source` served in the hour starting at `hour`; returns the bytes and users counted. */
export async function attributeProviderHour(deps: Deps, source: ProviderEgress, hour: Date): Promise<{ bytes: number; users: number }> {
  const total = await source.bytesServed(hour, new Date(hour.getTime() + HOUR_MS));
  if (total <= 0) return { bytes: 0, users: 0 };
  const month = monthKey(hour);
  const batch = { id: `provider-egress:${source.provider}:${hour.toISOString()}`, at: deps.clock.now() };
  return deps.db.transaction(async (tx) => {
    const shares = splitByStorage(total, await mediaStorageHolders(tx));
    const entries = shares.map((s) => ({ ownerId: s.ownerId, month, dimension: "media_bandwidth" as const, bytes: s.bytes }));
    const moved = new Set((await addBandwidthBatch(tx, entries, batch, { plans: deps.plans, now: batch.at })).map((r) => r.ownerId));
    const added = entries.filter((e) => moved.has(e.ownerId));
    await recordBandwidthCrossings(tx, deps.plans, added, batch.at);
    return { bytes: added.reduce((s, e) => s + e.bytes, 0), users: added.length };
  });
}
