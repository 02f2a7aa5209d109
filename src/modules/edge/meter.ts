// Bandwidth metering without a database write per request: each node adds the bytes it
// served to an in-process tally per quota dimension, owner and UTC day, and flushes it
// every FLUSH_MS to one kv hash per dimension (HINCRBY: atomic across nodes). The hourly
// job attribute-image-bandwidth moves those hashes into the usage ledger.
import type { Kv } from "../../infra/kv/index.ts";
import type { Log } from "../../infra/log.ts";
import { BANDWIDTH_DIMENSIONS, type BandwidthDimension } from "./resolver.ts";

/**
 * Each dimension's live tally. Image bandwidth keeps the hash it has always had, so an
 * upgrade finds the tally (and any claim) the previous version left, and nodes of both
 * versions count into one hash during a rolling deploy.
 */
export const BANDWIDTH_HASHES: Readonly<Record<BandwidthDimension, string>> = {
  image_bandwidth: "bw:image",
  media_bandwidth: "bw:media",
};
const FLUSH_MS = 1_000;

/** A hash field: the UTC day ("YYYY-MM-DD") the bytes were served in and their owner. */
const bandwidthField = (day: string, ownerId: string) => `${day}:${ownerId}`;
/**
 * A field's day (and the month it falls in) and owner. A field of a version that tallied
 * per month ("YYYY-MM:owner"), left in the kv at upgrade, has a month and no day: it counts
 * to the month only.
 */
export function parseBandwidthField(field: string): { month: string; day?: string; ownerId: string } | null {
  const m = /^(\d{4}-\d{2})(-\d{2})?:(.+)$/.exec(field);
  if (!m) return null;
  return m[2] ? { month: m[1]!, day: m[1]! + m[2], ownerId: m[3]! } : { month: m[1]!, ownerId: m[3]! };
}

export interface Meter {
  /** `day`: "YYYY-MM-DD", UTC, the day the bytes were served in. */
  add(dimension: BandwidthDimension, day: string, ownerId: string, bytes: number): void;
  flush(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Bytes per dimension, day and owner. Keyed by the day's and the owner's own strings, not by
 * their field: a hit then builds no string (the edge's day and the object's owner are the
 * same string at every hit, their hashes kept), and the fields are made once per flush.
 */
type Tallies = Record<BandwidthDimension, Map<string, Map<string, number>>>;
const emptyTallies = () => Object.fromEntries(BANDWIDTH_DIMENSIONS.map((d) => [d, new Map()])) as Tallies;

export function createMeter(kv: Kv, log: Log): Meter {
  let tallies = emptyTallies();
  let flushing: Promise<void> = Promise.resolve();

  const count = (dimension: BandwidthDimension, day: string, ownerId: string, bytes: number) => {
    const days = tallies[dimension];
    let owners = days.get(day);
    if (!owners) days.set(day, (owners = new Map()));
    owners.set(ownerId, (owners.get(ownerId) ?? 0) + bytes);
  };

  async function flushOnce() {
    if (BANDWIDTH_DIMENSIONS.every((d) => tallies[d].size === 0)) return;
    const batch = tallies;
    tallies = emptyTallies();
    for (const dimension of BANDWIDTH_DIMENSIONS) {
      for (const [day, owners] of batch[dimension]) {
        for (const [ownerId, bytes] of owners) {
          try {
            await kv.hincrby(BANDWIDTH_HASHES[dimension], bandwidthField(day, ownerId), bytes);
          } catch (err) {
            // Kept for the next flush: bandwidth is never dropped because the kv blinked.
            count(dimension, day, ownerId, bytes);
            log.warn("bandwidth flush failed; retrying later", { dimension, err });
          }
        }
      }
    }
  }
  // One flush at a time, in order: a caller awaiting flush() sees everything added before.
  const flush = () => (flushing = flushing.then(flushOnce));
  const timer = setInterval(() => void flush(), FLUSH_MS);
  timer.unref();

  return {
    add(dimension, day, ownerId, bytes) {
      if (bytes > 0) count(dimension, day, ownerId, bytes);
    },
    flush,
    async close() {
      clearInterval(timer);
      await flush();
    },
  };
}
