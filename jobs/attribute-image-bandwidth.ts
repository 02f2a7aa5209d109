// SPEC 3.3a: image bandwidth is aggregated hourly per user. The media edge tallies the
// bytes it serves per owner and month in a kv hash (src/modules/edge/meter.ts); this job
// adds each owner's bytes to the month they were served in.
//
// A process may die at any instruction, so the tally is never taken out of the kv before
// the database has it: the job renames the live hash to a claimed one (atomically; the
// edge goes on counting into a new live hash), marks the claim with an id, commits the
// counts and the id in one transaction, and only then deletes the claim. A claim left by
// a run that died or failed is what the next run takes first; if its id is already
// committed (the run died after its commit), it is only deleted. Every count is added
// exactly once.
import { lt } from "drizzle-orm";
import type { DbOrTx } from "../src/infra/db/index.ts";
import { BANDWIDTH_HASH, parseBandwidthField } from "../src/modules/edge/meter.ts";
import { addBandwidthBatch } from "../src/modules/usage/public.ts";
import { bandwidthClaims } from "../src/modules/usage/table.ts";
import type { Job } from "./job.ts";

/** The counts being attributed, until the ledger has them. */
export const BANDWIDTH_CLAIM = `${BANDWIDTH_HASH}:claimed`;
/** The claim's id rides in the claimed hash as a field beside the counts. */
const CLAIM_ID_FIELD = /^claim:(.+)$/;
/** Committed claim ids are kept this long: far longer than a claim can wait for a retry. */
const KEEP_CLAIM_IDS_MS = 30 * 86_400_000;

type Entry = { ownerId: string; month: string; bytes: number };

/**
 * Adds each entry's bytes to its owner's month and dimension in the ledger, in one
 * statement. Owners deleted since they were served are skipped. Returns the (owner, month)
 * pairs counted.
 */
async function commit(db: DbOrTx, entries: Entry[]): Promise<{ userId: string; month: string }[]> {
  const counted = await addBandwidthBatch(
    db,
    entries.map((e) => ({ ...e, dimension: "image_bandwidth" as const })),
  );
  return counted.map((c) => ({ userId: c.ownerId, month: c.month }));
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
      let claimId = Object.keys(claimed).map((f) => CLAIM_ID_FIELD.exec(f)?.[1]).find(Boolean);
      if (!claimId) {
        // Marked before anything is committed: a claim without an id was never counted.
        claimId = crypto.randomUUID();
        await deps.kv.hincrby(BANDWIDTH_CLAIM, `claim:${claimId}`, 1);
      }
      const entries = Object.entries(claimed).flatMap(([field, n]) => {
        const f = parseBandwidthField(field);
        return f && n > 0 ? [{ ...f, bytes: n }] : [];
      });
      // A failure here leaves the claim in place for the next run.
      const now = deps.clock.now();
      const counted = await deps.db.transaction(async (tx) => {
        const [fresh] = await tx.insert(bandwidthClaims).values({ id: claimId, committedAt: now }).onConflictDoNothing().returning();
        await tx.delete(bandwidthClaims).where(lt(bandwidthClaims.committedAt, new Date(now.getTime() - KEEP_CLAIM_IDS_MS)));
        return fresh && entries.length ? commit(tx, entries) : [];
      });
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
