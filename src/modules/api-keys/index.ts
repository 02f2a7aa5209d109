// /v1/api-keys: create (signed-in sessions only), list, revoke.
import { Elysia, t } from "elysia";
import { Ok, sharedModels } from "../../http/envelope.ts";
import { ID_PATTERN } from "../../infra/ids.ts";
import type { Services } from "../../services.ts";
import { requireUser } from "../auth/service.ts";
import { CreateKeyBody, CreatedKey, KeyPage, ListQuery } from "./model.ts";
import { createApiKey, listApiKeys, revokeApiKey } from "./service.ts";

export const apiKeysModule = ({ deps, authn, guard }: Services) =>
  new Elysia({ name: "api-keys", detail: { tags: ["api-keys"] } })
    .use(sharedModels)
    .use(guard)
    .post(
      "/v1/api-keys",
      async ({ principal, body, status }) => {
        const user = await requireUser(deps.db, principal.userId);
        const created = await createApiKey(deps, user.id, deps.plans[user.plan], body);
        return status(201, { success: true as const, data: created });
      },
      {
        auth: { scope: "session", tier: "mutation" },
        body: CreateKeyBody,
        response: { 201: Ok(CreatedKey), 403: "Error", 422: "Error" },
        detail: { summary: "Create an API key; the key is in this response only" },
      },
    )
    .get(
      "/v1/api-keys",
      async ({ principal, query }) => ({
        success: true as const,
        data: await listApiKeys(deps, principal.userId, { cursor: query.cursor, limit: query.limit ?? 20 }, authn.pendingLastUsed),
      }),
      {
        auth: { scope: "account.read", tier: "read" },
        query: ListQuery,
        response: { 200: Ok(KeyPage) },
        detail: { summary: "List active keys (never the key itself)" },
      },
    )
    .delete(
      "/v1/api-keys/:id",
      async ({ principal, params, set }) => {
        const hash = await revokeApiKey(deps, principal.userId, params.id);
        await authn.revokeKeyHash(hash);
        set.status = 204;
      },
      {
        auth: { scope: "account.read", tier: "mutation" },
        params: t.Object({ id: t.String({ pattern: ID_PATTERN }) }),
        response: { 404: "Error" },
        detail: { summary: "Revoke a key (204, no body): refused everywhere within 5 s, permanently" },
      },
    );
