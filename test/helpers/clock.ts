// A clock that stands still until a test moves it. The shared app's clock runs at real
// speed from wherever a test moved it; a rule that measures time itself (a TTL, a window,
// a cache's age) is given this one instead when a test needs "not yet" to stay true
// however long the machine takes between two steps.
import type { Clock } from "../../src/infra/clock.ts";

export function stoppedClock(startMs = Date.now()): Clock {
  let t = startMs;
  return {
    now: () => new Date(t),
    nowMs: () => t,
    advance(ms) {
      t += ms;
    },
  };
}
