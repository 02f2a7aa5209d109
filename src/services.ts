// The per-process services the HTTP layer shares: identity (token signer and principal
// lookup, with its caches), rate limiter, the edge's caches and meter, and the job
// runner. Built once per process, closed on shutdown: close() ends their timers and kv
// subscriptions.
import type { Deps } from "./deps.ts";
import { authGuard } from "./http/guard.ts";
import { createRateLimiter } from "./http/rate-limit.ts";
import { createIdentity } from "./modules/identity/public.ts";
import { createEdgeCache } from "./modules/edge/cache.ts";
import { onInvalidation } from "./modules/edge/invalidation.ts";
import { createMeter } from "./modules/edge/meter.ts";
import { allJobs } from "../jobs/index.ts";
import { createJobRunner } from "../jobs/runner.ts";

export function createServices(deps: Deps) {
  const identity = createIdentity(deps);
  const limiter = createRateLimiter(deps.kv, deps.log);
  const runner = createJobRunner(deps, allJobs);
  const guard = authGuard(identity, limiter);
  // The edge's bandwidth tally: flushed to the kv every second and at shutdown.
  const meter = createMeter(deps.kv, deps.log);
  // The edge's records and hot bytes, dropped on every node when an image changes.
  const edgeCache = createEdgeCache(deps.clock.nowMs);
  const edgeInvalidations = onInvalidation(deps, (id) => edgeCache.drop(id));
  return {
    deps,
    identity,
    // The media edge's name for resolvePrincipal, until it calls it by that name.
    authn: { authenticate: identity.resolvePrincipal },
    limiter,
    runner,
    guard,
    meter,
    edgeCache,
    async close() {
      await Promise.all([identity.close(), meter.close(), edgeInvalidations.close()]);
    },
  };
}
export type Services = ReturnType<typeof createServices>;
