// Video and audio bandwidth a hosted provider served is attributed to users
// hourly, in proportion to their media storage. Each run attributes the last whole hour
// once: the hour's batch id commits with its counts (addBandwidthBatch), so a run repeated
// or retried within the hour adds nothing. An hour whose run never happened (no worker
// up) is not caught up. Edge-served media bytes are attributed per owner by the edge's
// attribute-image-bandwidth.
import type { Deps } from "../../core/deps.ts";
import { dayKey, monthKey } from "../../infra/clock.ts";
import { addBandwidthBatch, mediaStorageHolders, recordBandwidthCrossings } from "../usage/public.ts";
import { type ProviderEgress, providerEgress, splitByStorage } from "./bandwidth-egress.ts";
import { type Job, result } from "../../core/job.ts";

const HOUR_MS = 3_600_000;

/** Attributes what `source` served in the hour starting at `hour`; returns the bytes and users counted. */
export async function attributeProviderHour(deps: Deps, source: ProviderEgress, hour: Date): Promise<{ bytes: number; users: number }> {
  const total = await source.bytesServed(hour, new Date(hour.getTime() + HOUR_MS));
  if (total <= 0) return { bytes: 0, users: 0 };
  const month = monthKey(hour);
  // The hour's day, not the run's: an hour attributed after midnight stays in its month.
  const day = dayKey(hour);
  const batch = { id: `provider-egress:${source.provider}:${hour.toISOString()}`, at: deps.clock.now() };
  return deps.db.transaction(async (tx) => {
    const shares = splitByStorage(total, await mediaStorageHolders(tx));
    const entries = shares.map((s) => ({ ownerId: s.ownerId, month, day, dimension: "media_bandwidth" as const, bytes: s.bytes }));
    const moved = new Set((await addBandwidthBatch(tx, entries, batch, { plans: deps.plans, now: batch.at })).map((r) => r.ownerId));
    const added = entries.filter((e) => moved.has(e.ownerId));
    await recordBandwidthCrossings(tx, deps.plans, added, batch.at);
    return { bytes: added.reduce((s, e) => s + e.bytes, 0), users: added.length };
  });
}

export const attributeProviderEgress: Job = {
  name: "attribute-provider-egress",
  schedule: "7 * * * *",
  description: "splits the last hour's media egress a hosted video provider reports among users by their media storage",
  async run({ deps }) {
    const source = providerEgress(deps.config);
    if (!source) return result({ bytes: 0, users: 0 }, () => `provider ${deps.config.VIDEO_PROVIDER} reports no egress`);
    const hour = new Date(Math.floor(deps.clock.nowMs() / HOUR_MS) * HOUR_MS - HOUR_MS);
    const done = await attributeProviderHour(deps, source, hour);
    return result(done, (c) =>
      c.bytes ? `attributed ${c.bytes} bytes of ${source.provider} egress to ${c.users} users` : `no ${source.provider} egress to attribute`,
    );
  },
};
