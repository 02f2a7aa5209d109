// A per-node budget of a scarce resource (memory held by upload bodies, decoded pixels,
// image-work slots): work asks for units before it starts and gives them back when done.
// When the budget is spent, work queues in arrival order for at most `maxWaitMs` and is
// then refused, so a burst of large uploads slows a node down instead of swapping it out.

export class BudgetBusyError extends Error {
  override name = "BudgetBusyError";
  constructor(
    readonly budget: string,
    /** Seconds after which a retry has a fair chance. */
    readonly retryAfterS: number,
  ) {
    super(`the ${budget} budget of this node is spent`);
  }
}

export interface BudgetSettings {
  name: string;
  /** Units available at once (bytes, pixels...). A single request for more waits until it runs alone. */
  capacity: number;
  /** Holders at once; Infinity when only units count. */
  maxHolders?: number;
  /** How long a request may queue before BudgetBusyError. */
  maxWaitMs: number;
}

type Waiter = { units: number; grant: () => void; timer?: Timer };

export interface Budget {
  readonly name: string;
  /** Resolves to a release function once `units` fit; rejects with BudgetBusyError after maxWaitMs. */
  acquire(units: number): Promise<() => void>;
  /** Units and holders in use now, and requests queued (for tests, health and logs). */
  usage(): { used: number; holders: number; queued: number };
}

export function createBudget(s: BudgetSettings): Budget {
  const maxHolders = s.maxHolders ?? Number.POSITIVE_INFINITY;
  let used = 0;
  let holders = 0;
  const queue: Waiter[] = [];

  // A request larger than the whole budget is clamped: it runs when nothing else does.
  const clamp = (units: number) => Math.min(Math.max(0, units), s.capacity);
  const fits = (units: number) => holders < maxHolders && used + units <= s.capacity;

  function take(units: number): () => void {
    used += units;
    holders++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      used -= units;
      holders--;
      drain();
    };
  }

  // Strictly in arrival order: a large request at the head is not starved by small ones.
  function drain() {
    while (queue.length && fits(queue[0]!.units)) {
      const w = queue.shift()!;
      clearTimeout(w.timer);
      w.grant();
    }
  }

  return {
    name: s.name,
    acquire(requested) {
      const units = clamp(requested);
      if (!queue.length && fits(units)) return Promise.resolve(take(units));
      if (s.maxWaitMs <= 0) return Promise.reject(new BudgetBusyError(s.name, 1));
      return new Promise((resolve, reject) => {
        const w: Waiter = { units, grant: () => resolve(take(units)) };
        w.timer = setTimeout(() => {
          queue.splice(queue.indexOf(w), 1);
          drain();
          reject(new BudgetBusyError(s.name, Math.max(1, Math.ceil(s.maxWaitMs / 1000))));
        }, s.maxWaitMs);
        queue.push(w);
      });
    },
    usage: () => ({ used, holders, queued: queue.length }),
  };
}
