// What every benchmark reports: the subject and its baseline run in turn, pass after pass,
// in the same process, and the median of the per-pass ratios with their range. One noisy
// pass on a shared 2-core machine then moves neither the median nor the conclusion.

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

export interface Interleaved {
  /** Median of each side's figure over the passes. */
  subject: number;
  baseline: number;
  /** Median of the per-pass ratios subject / baseline, and their lowest and highest. */
  ratio: number;
  low: number;
  high: number;
  passes: number;
}

/**
 * Runs `baseline` then `subject` `passes` times (after one unreported warm-up pass of
 * each); each returns a figure where higher is better (requests/s, images/s).
 */
export async function interleave(passes: number, subject: () => Promise<number>, baseline: () => Promise<number>): Promise<Interleaved> {
  await baseline();
  await subject();
  const s: number[] = [];
  const b: number[] = [];
  const r: number[] = [];
  for (let i = 0; i < passes; i++) {
    const base = await baseline();
    const subj = await subject();
    b.push(base);
    s.push(subj);
    r.push(subj / base);
  }
  return { subject: median(s), baseline: median(b), ratio: median(r), low: Math.min(...r), high: Math.max(...r), passes };
}

const fmt = (n: number, d: number) => n.toFixed(d);

/** "0.812 (0.78-0.85, 5 passes)". */
export const ratioText = (x: Interleaved) => `${fmt(x.ratio, 3)} (${fmt(x.low, 2)}-${fmt(x.high, 2)}, ${x.passes} passes)`;
