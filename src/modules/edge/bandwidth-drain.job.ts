// Bandwidth is aggregated hourly per user. The media edge tallies the bytes it
// serves per quota dimension, owner and UTC day in one kv hash per dimension
// (meter.ts); this job adds each owner's bytes to the month and the day they were
// served in, dimension by dimension, and so does the month rollover settling the month
// that ended (settleEdgeTallies, under this job's lease).
//
// A process may die at any instruction, so a tally is never taken out of the kv before
// the database has it: the job renames a dimension's live hash to a claimed one
// (atomically; the edge goes on counting into a new live hash), marks the claim with an
// id, commits the counts and the id in one transaction, and only then deletes the claim.
// A claim left by a run that died or failed is what the next run takes first; if its id
// is already committed (the run died after its commit), it is only deleted. Every count
// is added exactly once.
import type { Deps } from "../../core/deps.ts";
import { type Job, jobLeaseKey, result } from "../../core/job.ts";
import { addBandwidthBatch, recordBandwidthCrossings } from "../usage/public.ts";
import { BANDWIDTH_HASHES, parseBandwidthField } from "./meter.ts";
import { BANDWIDTH_DIMENSIONS, type BandwidthDimension } from "./resolver.ts";

/** A dimension's counts being attributed, until the ledger has them. */
export const bandwidthClaim = (dimension: BandwidthDimension) => `${BANDWIDTH_HASHES[dimension]}:claimed`;
/** The claim's id rides in the claimed hash as a field beside the counts. */
const CLAIM_ID_FIELD = /^claim:(.+)$/;

type Entry = { dimension: BandwidthDimension; ownerId: string; month: string; day?: string; bytes: number };

/** Attributes one dimension's tally: a claim left by an earlier run first, then what was tallied since. */
async function attributeDimension(deps: Deps, dimension: BandwidthDimension) {
  const live = BANDWIDTH_HASHES[dimension];
  const claim = bandwidthClaim(dimension);
  let claims = 0;
  const counted: Entry[] = [];
  for (let pass = 0; pass < 2; pass++) {
    const claimed = await deps.kv.claimHash(live, claim);
    if (Object.keys(claimed).length === 0) break;
    claims++;
    let claimId = Object.keys(claimed)
      .map((f) => CLAIM_ID_FIELD.exec(f)?.[1])
      .find(Boolean);
    if (!claimId) {
      // Marked before anything is committed: a claim without an id was never counted.
      claimId = crypto.randomUUID();
      await deps.kv.hincrby(claim, `claim:${claimId}`, 1);
    }
    const entries = Object.entries(claimed).flatMap(([field, n]) => {
      const f = parseBandwidthField(field);
      return f && n > 0 ? [{ dimension, ...f, bytes: n }] : [];
    });
    // A failure here leaves the claim in place for the next run; a claim whose id was
    // committed before adds nothing.
    const batch = { id: claimId, at: deps.clock.now() };
    const done = await deps.db.transaction(async (tx) => {
      // Past 80% or 100% of the plan's monthly bandwidth is told to the owner once a month.
      const moved = await addBandwidthBatch(tx, entries, batch, { plans: deps.plans, now: batch.at });
      const pairs = new Set(moved.map((r) => `${r.month}:${r.ownerId}`));
      const added = entries.filter((e) => pairs.has(`${e.month}:${e.ownerId}`));
      // Video bandwidth past 100%, 110% or 120% is told to the owner once, with the count that crossed it.
      if (dimension === "media_bandwidth") await recordBandwidthCrossings(tx, deps.plans, added, batch.at);
      return added;
    });
    await deps.kv.del(claim);
    counted.push(...done);
  }
  return { claims, counted };
}

/**
 * Attributes every tally the edge has flushed to the kv, whatever month it was served in:
 * the hourly job, and the month rollover settling the month that just ended.
 */
async function attributeEdgeTallies(deps: Deps) {
  let claims = 0;
  let bytes = 0;
  const owners = new Set<string>();
  for (const dimension of BANDWIDTH_DIMENSIONS) {
    const done = await attributeDimension(deps, dimension);
    claims += done.claims;
    for (const e of done.counted) {
      bytes += e.bytes;
      owners.add(e.ownerId);
    }
  }
  return { claims, bytes, users: owners.size };
}

const DRAIN_JOB = "attribute-image-bandwidth";
const LEASE_MS = 60_000;

/**
 * Attributes what is still waiting, for the month rollover settling the month that ended.
 * The tallies are taken under the hourly job's lease: two claimers of one tally could count
 * it twice. When that job holds it, it is attributing them at this moment: skipped.
 */
export async function settleEdgeTallies(deps: Deps): Promise<{ bytes: number; skipped: boolean }> {
  const lease = jobLeaseKey(DRAIN_JOB);
  const token = await deps.kv.acquireLease(lease, LEASE_MS);
  if (!token) return { bytes: 0, skipped: true };
  try {
    return { bytes: (await attributeEdgeTallies(deps)).bytes, skipped: false };
  } finally {
    await deps.kv.releaseLease(lease, token).catch(() => {});
  }
}

export const attributeImageBandwidthJob: Job = {
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
