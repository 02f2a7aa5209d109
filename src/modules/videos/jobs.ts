// The videos module's scheduled jobs (croner, run once across workers by jobs/runner.ts;
// the transcode queue is not one of them: worker.ts drains it continuously).
//   - video-reconcile: a missed provider callback self-heals within the hour. Each hour the
//     provider is asked about every video still processing after an hour, and what it says
//     is applied (maintenance.ts).
//   - video-failed-originals: a failed video's original is kept 7 days, then deleted (its
//     media storage given back; the row stays, with its failure reason).
//   - attribute-provider-egress: what a hosted provider served in the last whole hour,
//     split among users by their media storage (bandwidth-egress.ts).
//   - month-rollover: settles and closes the month that ended (month-rollover.ts).
import { type Job, result } from "../../infra/job.ts";
import { attributeProviderHour, providerEgress } from "./bandwidth-egress.ts";
import { deleteFailedOriginals, reconcileVideos } from "./maintenance.ts";
import { DAYS_KEPT, MONTHS_KEPT, rollOverMonth } from "./month-rollover.ts";
import { createProviders } from "./providers/index.ts";

const HOUR_MS = 3_600_000;

export const reconcileVideosJob: Job = {
  name: "video-reconcile",
  schedule: "17 * * * *",
  description: "asks the video provider about videos processing for over an hour and applies missed callbacks",
  async run({ deps, signal }) {
    const { asked, healed } = await reconcileVideos(deps, createProviders(deps), signal);
    return result({ asked, healed }, (c) => `asked about ${c.asked} videos, healed ${c.healed}`);
  },
};

export const deleteFailedVideoOriginals: Job = {
  name: "video-failed-originals",
  schedule: "41 * * * *",
  description: "deletes the originals of videos that failed more than 7 days ago",
  async run({ deps, signal }) {
    return result({ deleted: await deleteFailedOriginals(deps, signal) }, (c) => `deleted ${c.deleted} originals`);
  },
};

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

export const monthRollover: Job = {
  name: "month-rollover",
  schedule: "5 0 1 * *",
  description: `settles the month that ended, counts the owners whose video playback the new month restored, deletes monthly counters older than ${MONTHS_KEPT} months and daily ones older than ${DAYS_KEPT} days`,
  async run({ deps, log }) {
    const { month, counts } = await rollOverMonth(deps, log);
    return result(
      counts,
      (c) =>
        `settled ${c.settledBytes} bytes${c.edgeSkipped ? " (edge tallies left to the running attribution)" : ""}, ${c.closed ? `closed ${month}: ${c.restored} owners' playback restored` : `${month} already closed`}, deleted ${c.prunedMonthCounters} monthly and ${c.prunedDayCounters} daily counters`,
    );
  },
};
