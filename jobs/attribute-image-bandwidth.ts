// SPEC 3.3a: image bandwidth is aggregated hourly per user. The media edge tallies the
// bytes it serves per owner and month in a kv hash (src/modules/edge/meter.ts); this job
// drains the hash and adds each owner's bytes to the month they were served in.
import { inArray } from "drizzle-orm";
import { BANDWIDTH_HASH, parseBandwidthField } from "../src/modules/edge/meter.ts";
import { users } from "../src/modules/auth/table.ts";
import { addBandwidth } from "../src/modules/usage/ledger.ts";
import type { Job } from "./job.ts";

export const attributeImageBandwidth: Job = {
  name: "attribute-image-bandwidth",
  schedule: "5 * * * *",
  description: "adds the image bytes the media edge served to each owner's monthly bandwidth",
  async run({ deps }) {
    // Every api node flushes its tally to the hash each second: what is served in the
    // last second before this run is attributed by the next one.
    const drained = await deps.kv.drainHash(BANDWIDTH_HASH);
    const entries = Object.entries(drained).flatMap(([field, bytes]) => {
      const f = parseBandwidthField(field);
      return f && bytes > 0 ? [{ field, ...f, bytes }] : [];
    });
    if (!entries.length) return "nothing to attribute";
    try {
      // Owners deleted since they were served are skipped (their usage rows are gone).
      const owners = [...new Set(entries.map((e) => e.ownerId))];
      const known = new Set((await deps.db.select({ id: users.id }).from(users).where(inArray(users.id, owners))).map((u) => u.id));
      let total = 0;
      await deps.db.transaction(async (tx) => {
        for (const e of entries) {
          if (!known.has(e.ownerId)) continue;
          await addBandwidth(tx, e.ownerId, e.month, { imageBytes: e.bytes });
          total += e.bytes;
        }
      });
      return `attributed ${total} bytes to ${known.size} users`;
    } catch (err) {
      // Put the counts back for the next run rather than lose them.
      await Promise.allSettled(entries.map((e) => deps.kv.hincrby(BANDWIDTH_HASH, e.field, e.bytes)));
      throw err;
    }
  },
};
