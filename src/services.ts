// The per-process services the HTTP layer shares: token signer, authenticator (with its
// caches), rate limiter, the edge's caches and meter, and the job runner. Built once per
// process, closed on shutdown: close() ends their timers and kv subscriptions.
import type { Deps } from "./deps.ts";
import { createAuthenticator } from "./http/auth.ts";
import { authGuard } from "./http/guard.ts";
import { createRateLimiter } from "./http/rate-limit.ts";
import { createTokenSigner } from "./modules/auth/tokens.ts";
import { createEdgeCache } from "./modules/edge/cache.ts";
import { onInvalidation } from "./modules/edge/invalidation.ts";
import { createMeter } from "./modules/edge/meter.ts";
import { allJobs } from "../jobs/index.ts";
import { createJobRunner } from "../jobs/runner.ts";

export function createServices(deps: Deps) {
  const signer = createTokenSigner(deps.config.JWT_SECRET, deps.clock);
  const authn = createAuthenticator(deps, signer);
  const limiter = createRateLimiter(deps.kv, deps.log);
  const runner = createJobRunner(deps, allJobs);
  const guard = authGuard(deps, authn, limiter);
  // The edge's bandwidth tally: flushed to the kv every second and at shutdown.
  const meter = createMeter(deps.kv, deps.log);
  // The edge's records and hot bytes, dropped on every node when an image changes.
  const edgeCache = createEdgeCache(deps.clock.nowMs);
  const edgeInvalidations = onInvalidation(deps, (id) => edgeCache.drop(id));
  return {
    deps,
    signer,
    authn,
    limiter,
    runner,
    guard,
    meter,
    edgeCache,
    async close() {
      await Promise.all([authn.close(), meter.close(), edgeInvalidations.close()]);
    },
  };
}
export type Services = ReturnType<typeof createServices>;
