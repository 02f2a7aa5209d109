// Image bandwidth metering without a database write per request: each node adds the
// bytes it served to an in-process tally per owner and month, and flushes the tally to
// one kv hash every FLUSH_MS (HINCRBY: atomic across nodes). The hourly job
// attribute-image-bandwidth moves that hash into the usage ledger.
import type { Kv } from "../../infra/kv/index.ts";
import type { Log } from "../../infra/log.ts";

export const BANDWIDTH_HASH = "bw:image";
const FLUSH_MS = 1_000;

/** A hash field: the month the bytes were served in and their owner. */
export const bandwidthField = (month: string, ownerId: string) => `${month}:${ownerId}`;
export function parseBandwidthField(field: string): { month: string; ownerId: string } | null {
  const m = /^(\d{4}-\d{2}):(.+)$/.exec(field);
  return m ? { month: m[1]!, ownerId: m[2]! } : null;
}

export interface Meter {
  add(month: string, ownerId: string, bytes: number): void;
  flush(): Promise<void>;
  close(): Promise<void>;
}

export function createMeter(kv: Kv, log: Log): Meter {
  let tally = new Map<string, number>();
  let flushing: Promise<void> = Promise.resolve();

  async function flushOnce() {
    if (tally.size === 0) return;
    const batch = tally;
    tally = new Map();
    for (const [field, bytes] of batch) {
      try {
        await kv.hincrby(BANDWIDTH_HASH, field, bytes);
      } catch (err) {
        // Kept for the next flush: bandwidth is never dropped because the kv blinked.
        tally.set(field, (tally.get(field) ?? 0) + bytes);
        log.warn("bandwidth flush failed; retrying later", { err });
      }
    }
  }
  // One flush at a time, in order: a caller awaiting flush() sees everything added before.
  const flush = () => (flushing = flushing.then(flushOnce));
  const timer = setInterval(() => void flush(), FLUSH_MS);
  timer.unref();

  const meter: Meter = {
    add(month, ownerId, bytes) {
      if (bytes <= 0) return;
      const field = bandwidthField(month, ownerId);
      tally.set(field, (tally.get(field) ?? 0) + bytes);
    },
    flush,
    async close() {
      clearInterval(timer);
      await flush();
    },
  };
  return meter;
}
