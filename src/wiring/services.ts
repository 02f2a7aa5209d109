// The per-process services the HTTP layer shares: identity (token signer and principal
// lookup, with its caches), rate limiter, the edge's caches and meter, and the job
// runner. Built once per process, closed on shutdown: close() ends their timers and kv
// subscriptions.
import type { Deps } from "./deps.ts";
import { authGuard } from "../http/guard.ts";
import { createRateLimiter } from "../http/rate-limit.ts";
import { createIdentity } from "../modules/identity/public.ts";
import { createEdgeCache, createMeter, createResolverRegistry, onInvalidation } from "../modules/edge/public.ts";
import { audioEdgeResolver } from "../modules/audio/public.ts";
import { imageEdgeResolver } from "../modules/images/public.ts";
import { accessTokenResolver } from "../modules/oauth/public.ts";
import { createTranscodeWorker, createVideoProviders, videoEdgeResolver } from "../modules/videos/public.ts";
import { allJobs } from "../../jobs/index.ts";
import { createJobRunner } from "../../jobs/runner.ts";

export function createServices(deps: Deps) {
  const oauthTokens = accessTokenResolver(deps);
  const identity = createIdentity(deps, [oauthTokens]);
  const limiter = createRateLimiter(deps.kv, deps.log, { limits: deps.config.rateLimits, clock: deps.clock });
  const runner = createJobRunner(deps, allJobs);
  const guard = authGuard(identity, limiter);
  // The edge's bandwidth tally: flushed to the kv every second and at shutdown.
  const meter = createMeter(deps.kv, deps.log);
  // The edge's records and hot bytes, dropped on every node when an object changes.
  const edgeCache = createEdgeCache(deps.clock.nowMs);
  const edgeInvalidations = onInvalidation(deps, (kind, id) => edgeCache.drop(kind, id));
  // What the edge serves: each media kind registers its resolver here.
  const edgeResolvers = createResolverRegistry();
  edgeResolvers.register(imageEdgeResolver(deps.db));
  edgeResolvers.register(videoEdgeResolver(deps));
  edgeResolvers.register(audioEdgeResolver(deps.db));
  // The worker role's transcode loop (started by serve for worker nodes only).
  const transcoder = createTranscodeWorker(deps, { providers: createVideoProviders(deps) });
  return {
    deps,
    identity,
    limiter,
    runner,
    guard,
    meter,
    edgeCache,
    edgeResolvers,
    transcoder,
    async close() {
      await Promise.all([identity.close(), oauthTokens.close(), meter.close(), edgeInvalidations.close()]);
    },
  };
}
export type Services = ReturnType<typeof createServices>;
