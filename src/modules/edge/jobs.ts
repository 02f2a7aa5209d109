// The edge's scheduled job (run by the one runner, jobs/runner.ts): the hourly drain of
// the bandwidth it tallied into the usage ledger (bandwidth-drain.ts).
import { type Job, result } from "../../infra/job.ts";
import { attributeEdgeTallies, DRAIN_JOB } from "./bandwidth-drain.ts";

export const attributeImageBandwidth: Job = {
  name: DRAIN_JOB,
  schedule: "5 * * * *",
  description: "adds the bytes the media edge served to each owner's monthly image or media bandwidth",
  async run({ deps }) {
    // Every api node flushes its tally to the kv each second: what is served in the last
    // second before this run is attributed by the next one.
    const done = await attributeEdgeTallies(deps);
    return result(done, (c) => (c.claims ? `attributed ${c.bytes} bytes to ${c.users} users` : "nothing to attribute"));
  },
};
