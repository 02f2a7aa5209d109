import { Elysia } from "elysia";
import { Ok, ok, sharedModels } from "../../http/envelope.ts";
import type { RouteServices } from "../../wiring/services.ts";
import { requireUser } from "../identity/public.ts";
import { monthKey } from "../../infra/clock.ts";
import { dailyBandwidth } from "./daily.ts";
import { DailyBandwidth, MonthQuery, Usage } from "./model.ts";
import { getUsage } from "./service.ts";

export const usageModule = ({ deps, guard }: RouteServices) =>
  new Elysia({ name: "usage", detail: { tags: ["account"] } })
    .use(sharedModels)
    .use(guard)
    .get(
      "/v1/user/me/usage",
      async ({ principal }) => {
        const user = await requireUser(deps.db, principal.userId);
        return ok(await getUsage(deps, user));
      },
      {
        auth: { scope: "usage.read", tier: "read" },
        response: { 200: Ok(Usage), 404: "Error" },
        detail: {
          summary: "Quota use and limits",
          description:
            "docs.revisionCount and docs.revisionBytes measure the account's version history; planLimits.revisionBytes is the plan's cap on those bytes (-1: none). History is never a reason to refuse a write: one that would pass the cap prunes the account's oldest revisions, across its documents, in the same transaction.",
        },
      },
    )
    .get(
      "/v1/user/me/usage/daily",
      async ({ principal, query }) => {
        const user = await requireUser(deps.db, principal.userId);
        const now = deps.clock.now();
        return ok(await dailyBandwidth(deps.db, user.id, query.month ?? monthKey(now), now));
      },
      {
        auth: { scope: "usage.read", tier: "read" },
        query: MonthQuery,
        response: { 200: Ok(DailyBandwidth), 404: "Error", 422: "Error" },
        detail: {
          summary: "Bandwidth per day over a month",
          description:
            "Image and media bytes served on each UTC day of `month` (default: this month) up to today, zero where none; counted hourly, as the month's bandwidth is. Daily counts are kept 62 days: older days read as zero.",
        },
      },
    );
