// /v1/kbs: knowledge bases (create, list, read, update, delete), a KB's manifest, the text
// at a path, and sync. The manifest and sync speak protocol v1 (with the v1 sunset) or v2
// (Service-Sync-Version: 2): two wire formats on the same manifest and sync services.
import { depsAt } from "../../../http/addresses.ts";
import type { Principal } from "../../../core/principal.ts";
import { Elysia, t } from "elysia";
import { NoContent, Ok, ok, sharedModels } from "../../../http/envelope.ts";
import { AppError, validationError } from "../../../core/errors.ts";
import { OWN_PATHS, withHeaders } from "../../../http/openapi.ts";
import type { RouteServices } from "../../../wiring/services.ts";
import { conflictsRoutes } from "./conflicts.routes.ts";
import { kbFilesRoutes } from "../files/index.ts";
import { askedOf } from "../files/serve.ts";
import { linksRoutes } from "./links.routes.ts";
import { createKbChecked, listKbs, toKbItem, updateKb } from "./manage.ts";
import { trashKb } from "./trash.ts";
import { readManifest } from "./manifest.ts";
import { readManifestV2 } from "./manifest-v2.ts";
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
  SyncBody,
  SyncV1Result,
  SyncV2Result,
  UpdateKbBody,
} from "./model.ts";
import { rawByPath, rawByPathDocumentation } from "./raw-by-path.ts";
import { getKb } from "./service.ts";
import { runSync } from "../sync/service.ts";
import { instantOf, readV1, writeV1 } from "../sync/v1.ts";
import { readV2, writeV2 } from "../sync/v2.ts";
import { addTypstWarnings } from "../sync/typst-checks.ts";
import { syncVersionOf, v1Headers } from "../sync/version.ts";
import { v1CallRecorder } from "../sync/v1-callers.ts";

const SunsetHeaders = {
  Deprecation: t.String({ description: "`true` from SYNC_V1_DEPRECATED_AT on (v1 is deprecated)", "x-optional": true }),
  Sunset: t.String({ description: "from SYNC_V1_DEPRECATED_AT on: the HTTP-date from which v1 answers 410 SYNC_V1_SUNSET", "x-optional": true }),
};
const VERSION_NOTE =
  "Protocol version: header Service-Sync-Version (or query syncVersion; the header wins). Absent or 1: v1; 2: v2. Not a positive number: 400 INVALID_SYNC_VERSION; 3 or more: 400 SYNC_VERSION_UNSUPPORTED. v1 answers 410 SYNC_V1_SUNSET from SYNC_V1_SUNSET_AT on.";
const ManifestHeaders = {
  ...SunsetHeaders,
  ETag: t.String({ description: "v2: weak; send it as If-None-Match for a 304 when nothing changed", "x-optional": true }),
};
const json = (body: unknown, status = 200, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json", ...headers } });

export const kbsModule = (services: RouteServices) => {
  const { deps, guard, buckets, contentDeps } = services;
  const noteV1Call = v1CallRecorder(deps);
  /**
   * The protocol of a manifest or sync request; a v1 one gets the headers a v1 answer
   * carries now (410 past the sunset), and its account is noted as a v1 caller.
   */
  const versionOf = async (header: string | undefined, query: string | undefined, set: { headers: Record<string, unknown> }, principal: Principal) => {
    const version = syncVersionOf(header, query);
    if (version === 1) {
      Object.assign(set.headers, v1Headers(deps.config, deps.clock.now()));
      await noteV1Call(principal);
    }
    return version;
  };

  return new Elysia({ name: "kbs", detail: { tags: ["kbs"] } })
    .use(sharedModels)
    .use(guard)
    .use(conflictsRoutes(services))
    .use(kbFilesRoutes(services))
    .use(linksRoutes(services))
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
        await trashKb(deps, principal.userId, params.id, query.cascade ?? false);
        set.status = 204;
      },
      {
        auth: { scope: "kb.write", tier: "mutation" },
        params: KbParams,
        query: DeleteKbQuery,
        response: { 204: NoContent, 404: "Error", 409: "Error" },
        detail: {
          summary:
            "Move a knowledge base to the trash: 409 KB_NOT_EMPTY while it holds documents, unless cascade=true (its documents go with it, and come back with it)",
        },
      },
    )
    .get(
      "/v1/kbs/:id/manifest",
      async ({ principal, params, query, headers, set }) => {
        if ((await versionOf(headers["service-sync-version"], query.syncVersion, set, principal)) === 2) {
          const answer = await readManifestV2(deps, principal.userId, params.id, {
            since: query.since,
            cursor: query.cursor,
            limit: query.limit ?? 200,
            tombstones: query.include === "tombstones",
            ifNoneMatch: headers["if-none-match"],
          });
          if (answer.notModified) return new Response(null, { status: 304, headers: { etag: answer.etag } });
          return json(ok(answer.data), 200, answer.etag ? { etag: answer.etag } : {});
        }
        if (query.include !== undefined) throw validationError("query.include", "include=tombstones is a v2 parameter (send Service-Sync-Version: 2)");
        const since = query.since === undefined ? undefined : instantOf(query.since, "query.since");
        const page = await readManifest(deps, principal.userId, params.id, { since, cursor: query.cursor, limit: query.limit ?? 200 });
        // Sent as built, not checked against the response schema on the way out: for a page
        // of 1000 entries that check (a date-time pattern and a hash pattern per entry, and
        // a copy of the whole body) cost more than reading the page. The entries are made
        // by readManifest from typed rows, and every answer the tests get is held to the
        // OpenAPI document (test/helpers/context.ts). Elysia still adds set.headers (the
        // sunset headers) to the Response.
        return json(ok(page));
      },
      {
        auth: { scope: "kb.read", tier: "read" },
        params: KbParams,
        query: ManifestQuery,
        response: { 200: withHeaders(Ok(Manifest), ManifestHeaders), 304: NoContent, 400: "Error", 403: "Error", 404: "Error", 410: "Error", 422: "Error" },
        detail: {
          summary:
            "A KB's documents (path, hash, size, times), deleted ones included, oldest change first; store serverTime (v2: sinceCursor) as the next since",
          description: `Needs an active plan (403 PLAN_INACTIVE). Pages of 1 to 1000 entries (default 200) and at most 5 MB of documents. v2: since is an ISO instant or a sinceCursor; the last page carries sinceCursor, and with include=tombstones the tombstones after since; a weak ETag, and 304 for If-None-Match when nothing changed; a since older than the plan's tombstone retention answers tombstoneCursorExpired (410 TOMBSTONE_CURSOR_EXPIRED with include=tombstones). ${VERSION_NOTE}`,
        },
      },
    )
    .get(
      "/v1/kbs/:id/raw",
      async ({ principal, params, query, set, request }) =>
        rawByPath(
          deps,
          principal.userId,
          params.id,
          (query as Record<string, string | undefined>).path,
          askedOf(request),
          set.headers as Record<string, string>,
        ),
      { auth: { scope: "kb.read", tier: "read" }, params: KbParams, detail: { hide: true, [OWN_PATHS]: rawByPathDocumentation } },
    )
    .post(
      "/v1/kbs/:id/sync",
      async ({ principal, params, query, headers, body, set, request }) => {
        if ((await versionOf(headers["service-sync-version"], query.syncVersion, set, principal)) === 2) {
          const ops = readV2(body);
          await buckets.take(principal.userId, "syncOp", ops.length);
          const preserveBoth = query.conflictResolution === "preserve_both";
          const { conflicted, ...data } = writeV2(ops, await runSync(depsAt(contentDeps, request), principal.userId, params.id, ops, { preserveBoth }));
          await addTypstWarnings(deps, ops, data.results);
          if (conflicted)
            throw new AppError("SYNC_CONFLICT", "some ops were refused: their base is not master's (see meta.results); the others were applied", data);
          return ok(data);
        }
        if (query.conflictResolution === "preserve_both") {
          throw validationError("query.conflictResolution", "conflictResolution is a v2 parameter (send Service-Sync-Version: 2)");
        }
        const ops = readV1(body);
        await buckets.take(principal.userId, "syncOp", ops.length);
        // v1 does not see KB files (sync/decide.ts).
        const mode = { preserveBoth: false, documentsOnly: true };
        return ok(writeV1(ops, await runSync(depsAt(contentDeps, request), principal.userId, params.id, ops, mode)));
      },
      {
        auth: { scope: "kb.write", tier: "upload" },
        params: KbParams,
        query: SyncQuery,
        body: SyncBody,
        response: {
          200: withHeaders(Ok(t.Union([SyncV1Result, SyncV2Result])), SunsetHeaders),
          400: "Error",
          403: "Error",
          404: "Error",
          409: "Error",
          410: "Error",
          422: "Error",
          503: "Error",
        },
        detail: {
          summary:
            "Push ops; each is applied, a conflict or skipped, on its own. v1: up to 100 upserts and deletes. v2: up to 200 upserts, updates, deletes, moves and tombstone_acks, results[] per op, 409 SYNC_CONFLICT (meta.results) when any was refused",
          description: `Needs an active plan (403 PLAN_INACTIVE). Ops run independently: an op whose values break a rule (a path rule, NUL or a lone surrogate in its content, a base that is no calendar instant or no SHA-256 hex) is skipped with reason VALIDATION_ERROR (meta.path names the field, meta.problem the rule) and the others apply. The request's shape refuses it whole (422): the op count (INVALID_OP_BATCH_SIZE), a field an op's kind carries and lacks, an op or field of another version, v2's SYNC_HASH_REQUIRED. Every v1 entry and v2 result carries the op's opIndex. ${VERSION_NOTE}`,
        },
      },
    );
};
