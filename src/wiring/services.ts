// The per-process services the HTTP layer shares: identity (token signer and principal
// lookup, with its caches), rate limiter and token buckets, the edge's caches and meter, the job runner, the
// platform's compliance check and the SVG sanitizer's worker. Built once per process,
// closed on shutdown: close() ends their timers, kv subscriptions and workers.
import type { Deps } from "./deps.ts";
import { authGuard } from "../http/guard.ts";
import { createBuckets } from "../http/buckets.ts";
import { createRateLimiter } from "../http/rate-limit.ts";
import { bucketRates, createIdentity } from "../modules/identity/public.ts";
import { createEdgeCache, createMeter, createResolverRegistry, onInvalidation } from "../modules/edge/public.ts";
import { audioEdgeResolver } from "../modules/audio/public.ts";
import { createExportWorker } from "../modules/backup/public.ts";
import { createMigrationWorker } from "../modules/migration/public.ts";
import { type Compliance, createCompliance } from "../modules/compliance/public.ts";
import { createSvgSanitizer, imageEdgeResolver } from "../modules/images/public.ts";
import { createDelegation } from "../modules/mcp/public.ts";
import { notify } from "../modules/notifications/public.ts";
import { createWebhookWorker } from "../modules/webhooks/public.ts";
import { accessTokenResolver } from "../modules/oauth/public.ts";
import { createTranscodeWorker, createVideoProviders, videoEdgeResolver } from "../modules/videos/public.ts";
import { allJobs } from "../../jobs/index.ts";
import { createJobRunner } from "../../jobs/runner.ts";

/**
 * `compliance`: the check `shelf serve` built before the database opened (a blocklist that
 * cannot be read stops a start before it touches the database); built here otherwise.
 */
export function createServices(deps: Deps, opts: { compliance?: Compliance } = {}) {
  // The platform's check of every upload before it is committed (a no-op on overseas),
  // handed to the modules that take uploads.
  const compliance = opts.compliance ?? createCompliance(deps.config, { log: deps.log });
  // The images module's worker: started at the first SVG upload, killed by close().
  const svgSanitizer = createSvgSanitizer({ timeoutMs: deps.config.SVG_SANITIZE_TIMEOUT_MS, log: deps.log });
  const oauthTokens = accessTokenResolver(deps);
  // The hosted MCP server's tools call the API in process with a credential of one request's life.
  const mcpDelegation = createDelegation();
  const identity = createIdentity(deps, [oauthTokens, mcpDelegation.resolver]);
  const limiter = createRateLimiter(deps.kv, deps.log, { limits: deps.config.rateLimits, clock: deps.clock, metrics: deps.metrics });
  // Per-user token buckets on uploads, transcodes, sync ops and MCP tool calls, sized by the user's plan.
  const buckets = createBuckets(deps.kv, deps.log, { clock: deps.clock, rateOf: bucketRates(deps), metrics: deps.metrics });
  const runner = createJobRunner(deps, allJobs);
  const guard = authGuard(identity, limiter);
  // The edge's bandwidth tally: flushed to the kv every second and at shutdown.
  const meter = createMeter(deps.kv, deps.log);
  // The edge's records and hot bytes, dropped on every node when an object changes.
  const edgeCache = createEdgeCache(deps.clock.nowMs);
  const edgeInvalidations = onInvalidation(deps, (kind, id) => edgeCache.drop(kind, id));
  // What the edge serves: each media kind registers its resolver here.
  const edgeResolvers = createResolverRegistry();
  edgeResolvers.register(imageEdgeResolver(deps));
  edgeResolvers.register(videoEdgeResolver(deps));
  edgeResolvers.register(audioEdgeResolver(deps));
  // The worker role's transcode loop (started by serve for worker nodes only).
  const transcoder = createTranscodeWorker(deps, { providers: createVideoProviders(deps) });
  // The worker role's account export loop (started by serve for worker nodes only).
  const exporter = createExportWorker(deps);
  // The worker role's account import loop (started by serve for worker nodes only).
  const importer = createMigrationWorker({ ...deps, compliance, svgSanitizer });
  // The worker role's webhook deliverer (started by serve for worker nodes only).
  const webhooks = createWebhookWorker(deps);
  return {
    deps,
    identity,
    limiter,
    buckets,
    runner,
    guard,
    meter,
    edgeCache,
    edgeResolvers,
    transcoder,
    exporter,
    importer,
    webhooks,
    compliance,
    svgSanitizer,
    mcpDelegation,
    // Identity tells its security events through it: identity cannot import notifications, which reads identity's users.
    notify,
    async close() {
      await Promise.all([identity.close(), oauthTokens.close(), meter.close(), edgeInvalidations.close(), svgSanitizer.close()]);
    },
  };
}
/** What the wiring builds once per process. */
export type Services = ReturnType<typeof createServices>;

/**
 * What a module's routes are handed: the process's services, and the deps the rules that
 * take a user's content need (the parts, the platform's check of every upload, the SVG
 * sanitizer), built once per app from the services it is given.
 */
export type RouteServices = Services & { contentDeps: Services["deps"] & Pick<Services, "compliance" | "svgSanitizer"> };

export const routeServices = (s: Services): RouteServices => ({ ...s, contentDeps: { ...s.deps, compliance: s.compliance, svgSanitizer: s.svgSanitizer } });
