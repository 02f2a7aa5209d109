// GET /health (liveness): the process is up; touches no part, so it can be asked at any
// rate and a restart policy never kills a node because its database is away.
// GET /ready (readiness): database, kv and storage answer; 200 or 503, from checks shared
// by every caller and reused for READINESS_TTL_MS (readiness.ts). Load balancers route on it.
import { Elysia, t } from "elysia";
import type { Deps } from "../../core/deps.ts";
import { Ok, ok, sharedModels } from "../../http/envelope.ts";
import { TOUCHES_NO_PART } from "../../http/openapi.ts";
import { iso } from "../../infra/clock.ts";
import { VERSION } from "../../infra/version.ts";
import { metricsOnApiPort, probeDependencies, scrape } from "./metrics.ts";
import { createReadiness, type Readiness } from "./readiness.ts";

const Check = t.Object({ ok: t.Boolean(), kind: t.String(), latencyMs: t.Number(), error: t.Optional(t.String()) });
const Checks = t.Object({ database: Check, kv: Check, storage: Check });
const Status = t.Union([t.Literal("ok"), t.Literal("unhealthy")]);
const Live = t.Object({
  status: Status,
  version: t.String(),
  /** The last readiness answer, if one was asked for: never checked on this request. */
  checks: t.Optional(Checks),
  checkedAt: t.Optional(t.String({ format: "date-time" })),
});
const Ready = t.Object({ status: Status, version: t.String(), checks: Checks, checkedAt: t.String({ format: "date-time" }) });

const readyBody = (r: Readiness) => ({
  status: r.healthy ? ("ok" as const) : ("unhealthy" as const),
  version: VERSION,
  checks: r.checks,
  checkedAt: iso(r.checkedAt),
});

export const systemModule = (deps: Deps) => {
  const readiness = createReadiness(deps);
  const onApiPort = metricsOnApiPort(deps.config);
  if (onApiPort) probeDependencies(deps, readiness);
  return (
    new Elysia({ name: "system" })
      .use(sharedModels)
      .get(
        "/health",
        ({ set }) => {
          set.headers["cache-control"] = "no-store";
          const last = readiness.last();
          return ok(last ? { ...readyBody(last), status: "ok" as const } : { status: "ok" as const, version: VERSION });
        },
        {
          detail: {
            tags: ["system"],
            summary: "Liveness: the process is up (for restarts); checks no part, carries the last readiness checks if any",
            [TOUCHES_NO_PART]: true,
          },
          response: { 200: Ok(Live) },
        },
      )
      .get(
        "/ready",
        async ({ set, status }) => {
          set.headers["cache-control"] = "no-store";
          const r = await readiness.check();
          const body = readyBody(r);
          if (r.healthy) return ok(body);
          return status(503, { success: false as const, error: "a dependency is unavailable", code: "SERVICE_UNAVAILABLE" as const, meta: body });
        },
        {
          detail: { tags: ["system"], summary: "Readiness: the database, kv and storage answer (for routing); checked at most once a second" },
          response: { 200: Ok(Ready), 503: "Error" },
        },
      )
      // An operator's endpoint, not the API's: out of the OpenAPI document, as its scrapers read
      // no envelope. Where the api port does not serve it, the same 404 as a path of no route.
      .get("/metrics", ({ request }) => scrape(deps, request, onApiPort), { detail: { hide: true } })
  );
};
