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

/**
 * A timestamp as the database sends it as text ("2026-11-27 09:09:51.123456+00": DateStyle
 * ISO, the sessions in UTC) to what iso() makes of it, without a Date on the way: a page of
 * 1000 manifest entries parsed and printed 2000 of them. Milliseconds are cut as a Date
 * cuts them. Any other form (an offset, a year past 9999) goes through a Date.
 */
export function isoOfDbText(text: string): string {
  const n = text.length;
  const plain = n === 22 || (n >= 24 && n <= 29 && text.charCodeAt(19) === 46); // no fraction, or "." and 1 to 6 digits
  if (plain && text.charCodeAt(10) === 32 && text.endsWith("+00")) {
    const fraction = n === 29 ? text.slice(19, 23) : n === 22 ? ".000" : `${text.slice(19, n - 3)}000`.slice(0, 4);
    // join, not a template: a template makes a rope, which JSON.stringify flattens when it
    // prints the page, and that made printing a page of 1000 entries half as slow again.
    return [text.slice(0, 10), "T", text.slice(11, 19), fraction, "Z"].join("");
  }
  return new Date(text).toISOString();
}
