// GET /metrics: the node's metrics in the Prometheus text format (docs/operators.md,
// "Metrics"). Never public: with METRICS_TOKEN it answers that Bearer token only; with
// METRICS_ADDRESS on a listener of its own (every role, workers too) and not on the api
// port. Anything else is the 404 of a path no route serves, so a prober learns nothing.
import { createHash, timingSafeEqual } from "node:crypto";
import type { Deps } from "../../core/deps.ts";
import { AppError } from "../../core/errors.ts";
import { createReadiness, type Readiness } from "./readiness.ts";

const noSuchRoute = () => new AppError("NOT_FOUND", "no such route", { entity: "route" });

/** Hashed first so that both sides have one length: the comparison then takes the same time whatever was sent. */
const digest = (text: string) => createHash("sha256").update(text).digest();

function authorized(request: Request, token: string | undefined): boolean {
  if (token === undefined) return true;
  const given = request.headers.get("authorization") ?? "";
  const bearer = given.startsWith("Bearer ") ? given.slice(7) : "";
  return timingSafeEqual(digest(bearer), digest(token));
}

/** The parts' probes of the readiness checks, read at each scrape (cached as /ready's are). */
export function probeDependencies(deps: Pick<Deps, "metrics">, readiness: { check(): Promise<Readiness> }): void {
  deps.metrics.dependencies(async () => {
    const { checks } = await readiness.check();
    return Object.fromEntries(Object.entries(checks).map(([name, c]) => [name, { ok: c.ok, latencyMs: c.latencyMs }]));
  });
}

/** The scrape's answer; throws the 404 AppError when the request may not have it. */
export async function scrape(deps: Pick<Deps, "metrics" | "config">, request: Request, served = true): Promise<Response> {
  if (!served || !deps.metrics.enabled || !authorized(request, deps.config.METRICS_TOKEN)) throw noSuchRoute();
  const { contentType, text } = await deps.metrics.render();
  return new Response(text, { headers: { "content-type": contentType, "cache-control": "no-store" } });
}

/** The api port serves /metrics only with a token and no listener of its own. */
export const metricsOnApiPort = (config: Deps["config"]) => config.METRICS_TOKEN !== undefined && config.METRICS_ADDRESS === undefined;

/**
 * METRICS_ADDRESS's listener: GET /metrics, and the 404 envelope for anything else.
 * Undefined when it is unset.
 */
export function listenMetrics(deps: Deps): { url: string; stop(): void } | undefined {
  const address = deps.config.METRICS_ADDRESS;
  if (!address) return undefined;
  probeDependencies(deps, createReadiness(deps));
  const colon = address.lastIndexOf(":");
  const hostname = address.slice(0, colon).replace(/^\[(.*)\]$/, "$1") || "0.0.0.0";
  const notFound = () => {
    const e = noSuchRoute();
    return Response.json({ success: false, error: e.message, code: e.code, meta: e.meta }, { status: e.status, headers: { "cache-control": "no-store" } });
  };
  const server = Bun.serve({
    hostname,
    port: Number(address.slice(colon + 1)),
    fetch: async (request) => {
      if (request.method !== "GET" || new URL(request.url).pathname !== "/metrics") return notFound();
      try {
        return await scrape(deps, request);
      } catch (e) {
        if (e instanceof AppError) return notFound();
        deps.log.error("metrics scrape failed", { err: e });
        return new Response("metrics unavailable\n", { status: 500 });
      }
    },
  });
  deps.log.info("metrics listening", { url: `${server.url.href}metrics` });
  return { url: `${server.url.href}metrics`, stop: () => void server.stop(true) };
}
