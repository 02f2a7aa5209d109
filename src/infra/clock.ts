// One injectable clock. Expiry, retention and month rollover are tested by moving it.
export interface Clock {
  now(): Date;
  nowMs(): number;
  /** Moves the clock forward (tests only; nothing in production calls it). */
  advance(ms: number): void;
}

/** A clock running at real speed, starting at `start` (SHELF_TEST_NOW) or at the real time. */
export function createClock(start?: string): Clock {
  let offset = start ? Date.parse(start) - Date.now() : 0;
  return {
    now: () => new Date(Date.now() + offset),
    nowMs: () => Date.now() + offset,
    advance(ms) {
      offset += ms;
    },
  };
}

/** "YYYY-MM" of an instant, in UTC: the key of every monthly counter. */
export const monthKey = (d: Date) => d.toISOString().slice(0, 7);
/** "YYYY-MM-DD" of an instant, in UTC: the key of every daily counter. */
export const dayKey = (d: Date) => d.toISOString().slice(0, 10);

/** Every timestamp in a response: ISO 8601 UTC with milliseconds. */
export const iso = (d: Date) => d.toISOString();
export const isoOrNull = (d: Date | null | undefined) => (d ? d.toISOString() : null);
