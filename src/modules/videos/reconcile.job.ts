// A missed provider callback self-heals within the hour. Each hour the provider
// is asked about every video still processing after an hour, and what it says is applied.
import { createProviders as createVideoProviders } from "./providers/index.ts";
import { reconcileVideos } from "./maintenance.ts";
import { type Job, result } from "../../core/job.ts";

export const reconcileVideosJob: Job = {
  name: "video-reconcile",
  schedule: "17 * * * *",
  description: "asks the video provider about videos processing for over an hour and applies missed callbacks",
  async run({ deps, signal }) {
    const { asked, healed } = await reconcileVideos(deps, createVideoProviders(deps), signal);
    return result({ asked, healed }, (c) => `asked about ${c.asked} videos, healed ${c.healed}`);
  },
};
