// GET /health: the state of every part, 200 when all answer, 503 when one does not.
import { Elysia, t } from "elysia";
import type { Deps } from "../../deps.ts";
import { Ok, ok, sharedModels } from "../../http/envelope.ts";
import { TimeoutError, withTimeout } from "../../infra/timeout.ts";
import { VERSION } from "../../version.ts";

const Check = t.Object({ ok: t.Boolean(), kind: t.String(), latencyMs: t.Number(), error: t.Optional(t.String()) });
const Health = t.Object({
  status: t.Union([t.Literal("ok"), t.Literal("unhealthy")]),
  version: t.String(),
  checks: t.Object({ database: Check, kv: Check, storage: Check }),
});

async function probe(kind: string, fn: () => Promise<void>, timeoutMs = 2000) {
  const started = performance.now();
  try {
    await withTimeout(fn(), timeoutMs, kind);
    return { ok: true, kind, latencyMs: Math.round(performance.now() - started) };
  } catch (e) {
    // Only the error's class of failure goes out: no addresses or credentials.
    return { ok: false, kind, latencyMs: Math.round(performance.now() - started), error: e instanceof TimeoutError ? "timed out" : "unreachable" };
  }
}

export const systemModule = (deps: Deps) =>
  new Elysia({ name: "system" }).use(sharedModels).get(
    "/health",
    async ({ set, status }) => {
      const [database, kv, storage] = await Promise.all([
        probe(deps.database.kind, () => deps.database.ping()),
        probe(deps.kv.kind, () => deps.kv.ping()),
        probe(deps.storage.kind, () => deps.storage.ping()),
      ]);
      const healthy = database.ok && kv.ok && storage.ok;
      const body = { status: healthy ? ("ok" as const) : ("unhealthy" as const), version: VERSION, checks: { database, kv, storage } };
      set.headers["cache-control"] = "no-store";
      if (healthy) return ok(body);
      return status(503, { success: false as const, error: "a dependency is unavailable", code: "SERVICE_UNAVAILABLE" as const, meta: body });
    },
    {
      detail: { tags: ["system"], summary: "Health of the database, kv and storage" },
      response: { 200: Ok(Health), 503: "Error" },
    },
  );
