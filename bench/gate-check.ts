// The comparison of bench/gate.ts, apart from the measuring so that a test can give it
// figures: each measured ratio (baseline's CPU per request / shelf's, higher is better)
// against the one last recorded in bench/baselines/ratios.json, failing when it falls
// more than `margin` (a fraction of the recorded ratio) below it.

/** bench/baselines/ratios.json. */
export interface RecordedRatios {
  /** How far below its recorded ratio a measured one may fall, as a fraction of it (0.15: down to 0.85x). */
  margin: number;
  /** When, by what command and at what load the ratios were recorded. */
  recorded: { at: string; command: string; load: string };
  /** Each comparison's CPU-per-request ratio, baseline / shelf. */
  ratios: Record<string, number>;
}

export interface Verdict {
  name: string;
  recorded: number | null;
  measured: number | null;
  /** The lowest measured ratio that passes: recorded * (1 - margin). */
  floor: number | null;
  ok: boolean;
  why: string;
}

/**
 * One verdict per comparison in either set. A measured ratio passes at or above its floor;
 * one with no recorded ratio passes (it is new: --record adds it); a recorded comparison
 * that was not measured, or a measurement that is not a positive number, fails.
 */
export function judge(recorded: Record<string, number>, measured: Record<string, number>, margin: number): Verdict[] {
  if (!(margin >= 0 && margin < 1)) throw new Error(`the margin must be a fraction from 0 to 1, not ${margin}`);
  const names = [...new Set([...Object.keys(recorded), ...Object.keys(measured)])].sort();
  return names.map((name) => {
    const r = recorded[name] ?? null;
    const m = measured[name] ?? null;
    if (m === null) return { name, recorded: r, measured: null, floor: null, ok: false, why: "recorded but not measured" };
    if (!(Number.isFinite(m) && m > 0)) return { name, recorded: r, measured: m, floor: null, ok: false, why: "not a measurement" };
    if (r === null) return { name, recorded: null, measured: m, floor: null, ok: true, why: "not recorded yet (--record adds it)" };
    const floor = r * (1 - margin);
    return m >= floor
      ? { name, recorded: r, measured: m, floor, ok: true, why: `at or above ${floor.toFixed(3)}` }
      : { name, recorded: r, measured: m, floor, ok: false, why: `below ${floor.toFixed(3)}: ${((1 - m / r) * 100).toFixed(0)}% under the recorded ratio` };
  });
}

/** The names of the comparisons whose verdict failed. */
export const failed = (verdicts: Verdict[]) => verdicts.filter((v) => !v.ok).map((v) => v.name);
