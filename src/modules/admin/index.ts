// /v1/admin/*: operators only (the account's isAdmin flag). Reads take any credential of
// an admin account; changes (a user's plan or admin flag, running a job) take only an
// admin's signed-in session, so a leaked API key of an admin cannot grant anything.
import { Elysia, t } from "elysia";
import { Ok, ok, Page, sharedModels } from "../../http/envelope.ts";
import { notFound, validationError } from "../../core/errors.ts";
import { iso, isoOrNull } from "../../infra/clock.ts";
import { ID_PATTERN } from "../../infra/ids.ts";
import type { RouteServices } from "../../wiring/services.ts";
import {
  listUsers,
  Me,
  PLAN_EXPIRY_RULE,
  PLAN_NAMES,
  PlanEnum,
  PlanLimitsSchema,
  parsePlanExpiry,
  toMe,
  type UserPatch,
  updateUser,
} from "../identity/public.ts";

// The runner is handed in with the services; its run record is its type, not a jobs/ import.
type JobRun = Awaited<ReturnType<RouteServices["runner"]["runNow"]>>;

const JobRunModel = t.Object({
  id: t.String(),
  name: t.String(),
  trigger: t.String(),
  outcome: t.String(),
  startedAt: t.String({ format: "date-time" }),
  finishedAt: t.Nullable(t.String({ format: "date-time" })),
  summary: t.Nullable(t.String()),
  /** What the run did, by name ({ deleted: 3 }); null unless it finished ok. */
  counts: t.Nullable(t.Record(t.String(), t.Number())),
  error: t.Nullable(t.String()),
});
const toRun = (r: JobRun) => ({
  id: r.id,
  name: r.name,
  trigger: r.trigger,
  outcome: r.outcome,
  startedAt: iso(r.startedAt),
  finishedAt: isoOrNull(r.finishedAt),
  summary: r.summary,
  counts: r.counts ?? null,
  error: r.error,
});

export const adminModule = ({ deps, guard, runner }: RouteServices) =>
  new Elysia({ name: "admin", detail: { tags: ["admin"] } })
    .use(sharedModels)
    .use(guard)
    .get(
      "/v1/admin/users",
      async ({ query }) => ok(await listUsers(deps.db, deps.clock.now(), { cursor: query.cursor, limit: query.limit ?? 20, email: query.email })),
      {
        auth: { scope: "admin", tier: "read" },
        query: t.Object({
          email: t.Optional(t.String({ minLength: 1, maxLength: 254, description: "keeps the accounts whose e-mail address contains this (any case)" })),
          cursor: t.Optional(t.String()),
          limit: t.Optional(t.Integer({ minimum: 1, maximum: 50, default: 20 })),
        }),
        response: { 200: Ok(Page(Me)), 400: "Error" },
        detail: { summary: "Every account, newest first (cursor), each as its owner sees it; `email` narrows by address" },
      },
    )
    .get("/v1/admin/plans", () => ok({ items: PLAN_NAMES.map((name) => ({ name, limits: deps.plans[name] })) }), {
      auth: { scope: "admin", tier: "read" },
      response: { 200: Ok(t.Object({ items: t.Array(t.Object({ name: PlanEnum, limits: PlanLimitsSchema })) })) },
      detail: { summary: "Each plan and its limits as this server applies them (defaults with PLAN_OVERRIDES); -1 is no cap" },
    })
    .patch(
      "/v1/admin/users/:id",
      async ({ params, body }) => {
        const patch: UserPatch = { plan: body.plan, isAdmin: body.isAdmin };
        if (body.planExpiresAt !== undefined && body.planExpiresAt !== null) {
          const at = parsePlanExpiry(body.planExpiresAt);
          if (!at) throw validationError("body.planExpiresAt", `planExpiresAt must be ${PLAN_EXPIRY_RULE}`);
          patch.planExpiresAt = at;
        } else patch.planExpiresAt = body.planExpiresAt;
        const user = await updateUser(deps.db, params.id, patch, deps.clock.now());
        if (!user) throw notFound("user");
        return ok(toMe(user, deps.clock.now()));
      },
      {
        auth: { scope: "admin", session: true, tier: "mutation" },
        params: t.Object({ id: t.String({ pattern: ID_PATTERN }) }),
        body: t.Object(
          {
            plan: t.Optional(PlanEnum),
            planExpiresAt: t.Optional(t.Nullable(t.String({ format: "date-time" }))),
            isAdmin: t.Optional(t.Boolean()),
          },
          { additionalProperties: false },
        ),
        response: { 200: Ok(Me), 404: "Error", 409: "Error", 422: "Error" },
        detail: { summary: "Set a user's plan, plan expiry or admin flag; taking the flag from the instance's only admin is 409 CONFLICT" },
      },
    )
    .get(
      "/v1/admin/jobs",
      async () => {
        const items = await Promise.all(
          runner.jobs.map(async (j) => {
            const [last] = await runner.recentRuns(j.name, 1);
            return { name: j.name, schedule: j.schedule, description: j.description, lastRun: last ? toRun(last) : null };
          }),
        );
        return ok({ items });
      },
      {
        auth: { scope: "admin", tier: "read" },
        response: {
          200: Ok(
            t.Object({ items: t.Array(t.Object({ name: t.String(), schedule: t.String(), description: t.String(), lastRun: t.Nullable(JobRunModel) })) }),
          ),
        },
        detail: { summary: "Every scheduled job and its last run" },
      },
    )
    .post("/v1/admin/jobs/:name/run", async ({ params }) => ok(toRun(await runner.runNow(params.name))), {
      auth: { scope: "admin", session: true, tier: "mutation" },
      params: t.Object({ name: t.String({ maxLength: 64 }) }),
      response: { 200: Ok(JobRunModel), 404: "Error" },
      detail: { summary: "Run a job now and return its recorded run" },
    });
