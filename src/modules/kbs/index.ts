// /v1/kbs: knowledge bases (create, list, read, update, delete), a KB's manifest, the text
// at a path, and sync. The manifest and sync speak protocol v1 (v2 will be a second wire
// format on the same sync service) and carry the v1 sunset.
import { Elysia, t } from "elysia";
import { NoContent, Ok, ok, sharedModels } from "../../http/envelope.ts";
import { OWN_PATHS, withHeaders } from "../../http/openapi.ts";
import type { Services } from "../../services.ts";
import { conflictsRoutes } from "./conflicts.routes.ts";
import { createKbChecked, deleteKb, listKbs, toKbItem, updateKb } from "./manage.ts";
import { readManifest } from "./manifest.ts";
import {
  CreateKbBody,
  DeleteKbQuery,
  KbItem,
  KbPage,
  KbParams,
  ListKbsQuery,
  Manifest,
  ManifestQuery,
  SyncQuery,
  SyncV1Body,
  SyncV1Result,
  UpdateKbBody,
} from "./model.ts";
import { rawByPath, rawByPathDocumentation } from "./raw.ts";
import { getKb } from "./service.ts";
import { runSync } from "./sync/service.ts";
import { instantOf, readV1, writeV1 } from "./sync/v1.ts";
import { requireV1, syncVersionOf, v1Headers } from "./sync/version.ts";

const SunsetHeaders = {
  Deprecation: t.String({ description: "`true` from SYNC_V1_DEPRECATED_AT on (v1 is deprecated)", "x-optional": true }),
  Sunset: t.String({ description: "from SYNC_V1_DEPRECATED_AT on: the HTTP-date from which v1 answers 410 SYNC_V1_SUNSET", "x-optional": true }),
};
const VERSION_NOTE =
  "Protocol version: header Service-Sync-Version (or query syncVersion; the header wins). Absent or 1: v1. Not a positive number: 400 INVALID_SYNC_VERSION; 2 (not available yet) or more: 400 SYNC_VERSION_UNSUPPORTED. v1 answers 410 SYNC_V1_SUNSET from SYNC_V1_SUNSET_AT on.";

export const kbsModule = (services: Services) => {
  const { deps, guard } = services;
  /** The protocol of a manifest or sync request, and the headers a v1 answer carries now (410 past the sunset). */
  const v1 = (header: string | undefined, query: string | undefined) => {
    requireV1(syncVersionOf(header, query));
    return v1Headers(deps.config, deps.clock.now());
  };

  return new Elysia({ name: "kbs", detail: { tags: ["kbs"] } })
    .use(sharedModels)
    .use(guard)
    .use(conflictsRoutes(services))
    .post("/v1/kbs", async ({ principal, body, status }) => status(201, ok(toKbItem(await createKbChecked(deps, principal.userId, body)))), {
      auth: { scope: "kb.write", tier: "mutation" },
      body: CreateKbBody,
      response: { 201: Ok(KbItem), 403: "Error", 409: "Error", 422: "Error" },
      detail: { summary: "Create a knowledge base (403 KB_LIMIT_REACHED past the plan's count, 409 KB_SLUG_TAKEN)" },
    })
    .get(
      "/v1/kbs",
      async ({ principal, query }) =>
        ok(await listKbs(deps, principal.userId, { cursor: query.cursor, limit: query.limit ?? 20, sort: query.sort ?? "updated_at" })),
      {
        auth: { scope: "kb.read", tier: "read" },
        query: ListKbsQuery,
        response: { 200: Ok(KbPage), 400: "Error" },
        detail: { summary: "List knowledge bases: most recently changed first, or by name" },
      },
    )
    .get("/v1/kbs/:id", async ({ principal, params }) => ok(toKbItem(await getKb(deps.db, { userId: principal.userId, id: params.id }))), {
      auth: { scope: "kb.read", tier: "read" },
      params: KbParams,
      response: { 200: Ok(KbItem), 404: "Error" },
      detail: { summary: "One knowledge base" },
    })
    .patch("/v1/kbs/:id", async ({ principal, params, body }) => ok(toKbItem(await updateKb(deps, principal.userId, params.id, body))), {
      auth: { scope: "kb.write", tier: "mutation" },
      params: KbParams,
      body: UpdateKbBody,
      response: { 200: Ok(KbItem), 404: "Error", 422: "Error" },
      detail: { summary: "Rename, describe or make default (the slug cannot change; isDefault clears it on the others)" },
    })
    .delete(
      "/v1/kbs/:id",
      async ({ principal, params, query, set }) => {
        await deleteKb(deps, principal.userId, params.id, query.cascade ?? false);
        set.status = 204;
      },
      {
        auth: { scope: "kb.write", tier: "mutation" },
        params: KbParams,
        query: DeleteKbQuery,
        response: { 204: NoContent, 404: "Error", 409: "Error" },
        detail: { summary: "Delete a knowledge base: 409 KB_NOT_EMPTY while it holds documents, unless cascade=true (its documents go with it)" },
      },
    )
    .get(
      "/v1/kbs/:id/manifest",
      async ({ principal, params, query, headers, set }) => {
        Object.assign(set.headers, v1(headers["service-sync-version"], query.syncVersion));
        const since = query.since === undefined ? undefined : instantOf(query.since, "query.since");
        const page = await readManifest(deps, principal.userId, params.id, { since, cursor: query.cursor, limit: query.limit ?? 200 });
        // Sent as built, not checked against the response schema on the way out: for a page
        // of 1000 entries that check (a date-time pattern and a hash pattern per entry, and
        // a copy of the whole body) cost more than reading the page. The entries are made
        // by readManifest from typed rows, and every answer the tests get is held to the
        // OpenAPI document (test/helpers/context.ts). Elysia still adds set.headers (the
        // sunset headers) to the Response.
        return new Response(JSON.stringify(ok(page)), { headers: { "content-type": "application/json" } });
      },
      {
        auth: { scope: "kb.read", tier: "read" },
        params: KbParams,
        query: ManifestQuery,
        response: { 200: withHeaders(Ok(Manifest), SunsetHeaders), 400: "Error", 403: "Error", 404: "Error", 410: "Error" },
        detail: {
          summary: "A KB's documents (path, hash, size, times), deleted ones included, oldest change first; store serverTime as the next since",
          description: `Needs an active plan (403 PLAN_INACTIVE). Pages of 1 to 1000 entries (default 200) and at most 5 MB of documents. ${VERSION_NOTE}`,
        },
      },
    )
    .get(
      "/v1/kbs/:id/raw",
      async ({ principal, params, query, set }) =>
        rawByPath(deps, principal.userId, params.id, (query as Record<string, string | undefined>).path, set.headers as Record<string, string>),
      { auth: { scope: "kb.read", tier: "read" }, params: KbParams, detail: { hide: true, [OWN_PATHS]: rawByPathDocumentation } },
    )
    .post(
      "/v1/kbs/:id/sync",
      async ({ principal, params, query, headers, body, set }) => {
        Object.assign(set.headers, v1(headers["service-sync-version"], query.syncVersion));
        const ops = readV1(body);
        return ok(writeV1(ops, await runSync(deps, principal.userId, params.id, ops)));
      },
      {
        auth: { scope: "kb.write", tier: "upload" },
        params: KbParams,
        query: SyncQuery,
        body: SyncV1Body,
        response: { 200: withHeaders(Ok(SyncV1Result), SunsetHeaders), 400: "Error", 403: "Error", 404: "Error", 410: "Error", 422: "Error", 503: "Error" },
        detail: {
          summary: "Push up to 100 upserts and deletes; each is applied, a conflict (with the remote state) or skipped, on its own",
          description: `Needs an active plan (403 PLAN_INACTIVE). ${VERSION_NOTE}`,
        },
      },
    );
};
