import { Elysia } from "elysia";
import { Ok, ok, sharedModels } from "../../http/envelope.ts";
import type { Services } from "../../wiring/services.ts";
import { requireUser } from "../identity/public.ts";
import { Usage } from "./model.ts";
import { getUsage } from "./service.ts";

export const usageModule = ({ deps, guard }: Services) =>
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
    );
