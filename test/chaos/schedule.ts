// The fault schedule: from a seed, the same faults at the same offsets every time (a failing
// seed replays). One fault at a time, each followed by its recovery: a node SIGKILLed and
// started again, Redis or Postgres (fast shutdown) restarted, s3rver stopped for seconds.

/** mulberry32: a small seeded PRNG, enough to spread faults. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type FaultKind = "kill-api" | "kill-worker" | "restart-redis" | "restart-postgres" | "stop-s3";

export interface Fault {
  /** Milliseconds after the load starts. */
  at: number;
  kind: FaultKind;
  /** Which node (kill-api, kill-worker). */
  target: number;
  /** How long the part or node stays down. */
  downMs: number;
}

const KINDS: FaultKind[] = ["kill-api", "kill-worker", "restart-redis", "restart-postgres", "stop-s3"];

/** Faults over `loadMs`: every kind at least once (in a seeded order), then random ones, 8 to 20 s apart. */
export function faultSchedule(seed: number, loadMs: number, nodes: { apis: number; workers: number }): Fault[] {
  const rnd = prng(seed);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(rnd() * xs.length)]!;
  const firsts = [...KINDS].sort(() => rnd() - 0.5);
  const out: Fault[] = [];
  let at = 5_000 + rnd() * 5_000;
  while (at < loadMs - 15_000) {
    const kind = firsts.shift() ?? pick(KINDS);
    const target = Math.floor(rnd() * (kind === "kill-api" ? nodes.apis : nodes.workers));
    out.push({ at: Math.round(at), kind, target, downMs: Math.round(1_000 + rnd() * 3_000) });
    at += 8_000 + rnd() * 12_000;
  }
  return out;
}
