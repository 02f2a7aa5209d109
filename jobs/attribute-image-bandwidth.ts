// SPEC 3.3a: image bandwidth is aggregated hourly per user. The media edge tallies the
// bytes it serves per owner and month in a kv hash (src/modules/edge/meter.ts); this job
// adds each owner's bytes to the month they were served in.
//
// A process may die at any instruction, so the tally is never taken out of the kv before
// the database has it: the job renames the live hash to a claimed one (atomically; the
// edge goes on counting into a new live hash), commits the claimed counts to the ledger in
// one statement, and only then deletes the claim. A claim left by a run that died or
// failed is what the next run commits first. No count is lost, but delivery is at least
// once: a run that dies (or loses the kv) after its commit and before deleting its claim
// has those counts added again by the next run. That window is one kv round trip an hour,
// and image bandwidth has no hard cutoff (SPEC 3.3); making it exactly once would need the
// claim's id recorded in the ledger's transaction (a table of committed batches).
import { sql } from "drizzle-orm";
import { rowsOf, type DbOrTx } from "../src/infra/db/index.ts";
import { BANDWIDTH_HASH, parseBandwidthField } from "../src/modules/edge/meter.ts";
import { users } from "../src/modules/auth/table.ts";
import { usageMonthly } from "../src/modules/usage/table.ts";
import type { Job } from "./job.ts";

/** The counts being attributed, until the ledger has them. */
export const BANDWIDTH_CLAIM = `${BANDWIDTH_HASH}:claimed`;

type Entry = { ownerId: string; month: string; bytes: number };

/**
 * Adds each entry's bytes to its owner's month, in one statement (the ledger's
 * addBandwidth, for a whole batch). Owners deleted since they were served are skipped:
 * their usage rows are gone. Returns the (owner, month) pairs counted.
 */
async function commit(db: DbOrTx, entries: Entry[]): Promise<{ userId: string; month: string }[]> {
  const batch = JSON.stringify(entries.map((e) => ({ owner_id: e.ownerId, month: e.month, bytes: e.bytes })));
  const result = await db.execute(sql`
    insert into ${usageMonthly} (user_id, month, image_bandwidth_bytes)
    select v.owner_id, v.month, v.bytes
    from json_to_recordset(${batch}::json) as v(owner_id text, month text, bytes bigint)
    where exists (select from ${users} where ${users.id} = v.owner_id)
    on conflict (user_id, month) do update
      set image_bandwidth_bytes = ${usageMonthly}.image_bandwidth_bytes + excluded.image_bandwidth_bytes
    returning user_id as "userId", month`);
  return rowsOf(result);
}

export const attributeImageBandwidth: Job = {
  name: "attribute-image-bandwidth",
  schedule: "5 * * * *",
  description: "adds the image bytes the media edge served to each owner's monthly bandwidth",
  async run({ deps }) {
    // Every api node flushes its tally to the hash each second: what is served in the
    // last second before this run is attributed by the next one.
    let claims = 0;
    let bytes = 0;
    const owners = new Set<string>();
    // First a claim left by an earlier run, if any; then what was tallied since.
    for (let pass = 0; pass < 2; pass++) {
      const claimed = await deps.kv.claimHash(BANDWIDTH_HASH, BANDWIDTH_CLAIM);
      if (Object.keys(claimed).length === 0) break;
      claims++;
      const entries = Object.entries(claimed).flatMap(([field, n]) => {
        const f = parseBandwidthField(field);
        return f && n > 0 ? [{ ...f, bytes: n }] : [];
      });
      // A failure here leaves the claim in place for the next run.
      const counted = entries.length ? await commit(deps.db, entries) : [];
      await deps.kv.del(BANDWIDTH_CLAIM);
      const done = new Set(counted.map((r) => `${r.month}:${r.userId}`));
      for (const e of entries) {
        if (!done.has(`${e.month}:${e.ownerId}`)) continue;
        bytes += e.bytes;
        owners.add(e.ownerId);
      }
    }
    return claims ? `attributed ${bytes} bytes to ${owners.size} users` : "nothing to attribute";
  },
};
