// Readiness: one set of part checks at a time, its answer reused for a short interval, so
// no request rate (load balancers, probes, a flood) turns into more than one S3 list, one
// query and one kv ping per interval.
import type { Deps } from "../../core/deps.ts";
import { TimeoutError, withTimeout } from "../../infra/timeout.ts";

export interface Check {
  ok: boolean;
  kind: string;
  latencyMs: number;
  error?: string;
}

export interface Readiness {
  healthy: boolean;
  checks: { database: Check; kv: Check; storage: Check };
  /** When the checks finished, on the injectable clock. */
  checkedAt: Date;
}

/** How long one set of checks answers for. */
export const READINESS_TTL_MS = 1000;

async function probe(kind: string, fn: () => Promise<void>, timeoutMs = 2000): Promise<Check> {
  const started = performance.now();
  try {
    await withTimeout(fn(), timeoutMs, kind);
    return { ok: true, kind, latencyMs: Math.round(performance.now() - started) };
  } catch (e) {
    // Only the error's class of failure goes out: no addresses or credentials.
    return { ok: false, kind, latencyMs: Math.round(performance.now() - started), error: e instanceof TimeoutError ? "timed out" : "unreachable" };
  }
}

export function createReadiness(deps: Pick<Deps, "database" | "kv" | "storage" | "clock">, ttlMs = READINESS_TTL_MS) {
  let last: Readiness | undefined;
  let inFlight: Promise<Readiness> | undefined;

  async function run(): Promise<Readiness> {
    const [database, kv, storage] = await Promise.all([
      probe(deps.database.kind, () => deps.database.ping()),
      probe(deps.kv.kind, () => deps.kv.ping()),
      probe(deps.storage.kind, () => deps.storage.ping()),
    ]);
    return { healthy: database.ok && kv.ok && storage.ok, checks: { database, kv, storage }, checkedAt: deps.clock.now() };
  }

  return {
    /** The cached answer while it is fresh; otherwise the one check in flight, started if none is. */
    check(): Promise<Readiness> {
      if (last && deps.clock.nowMs() - last.checkedAt.getTime() < ttlMs) return Promise.resolve(last);
      inFlight ??= run()
        .then((r) => {
          last = r;
          return r;
        })
        .finally(() => {
          inFlight = undefined;
        });
      return inFlight;
    },
    /** The last answer, however old, without checking anything (liveness reports it). */
    last: (): Readiness | undefined => last,
  };
}
