// /v1/docs: documents (upload, list, read, raw text, update, delete, batch raw fetch),
// their version history, and the operators' CDN host allow-list.
import { depsAt } from "../../../http/addresses.ts";
import { Elysia } from "elysia";
import { notePrincipal } from "../../../http/access-log.ts";
import { NoContent, Ok, ok, sharedModels } from "../../../http/envelope.ts";
import { AppError } from "../../../core/errors.ts";
import { formBody } from "../../../http/form-body.ts";
import { FORM_BODY_SCHEMA, OWN_PATHS } from "../../../http/openapi.ts";
import type { RouteServices } from "../../../wiring/services.ts";
import { listCdnHosts, replaceCdnHosts } from "./cdn-hosts.ts";
import { createDocument } from "./create.ts";
import {
  BatchDeleteResult,
  CdnHosts,
  CdnHostsBody,
  ClearRevisionsResult,
  CreateDocBody,
  DocItem,
  DocPage,
  DocParams,
  DocSearchResult,
  DocUploadForm,
  IdsBody,
  ListDocsQuery,
  RawBatchBody,
  RenderQuery,
  RestoreResult,
  RevisionList,
  RevisionParams,
  RevisionWithContent,
  SearchDocsQuery,
  UpdateDocBody,
  UploadResult,
} from "./model.ts";
import { rawBatchDocumentation, rawDocumentation, type Reader, serveRaw } from "./raw-text.ts";
import { clearRevisions, listRevisions, readRevision, restoreRevision } from "./revisions.ts";
import { searchDocuments } from "./search.ts";
import { renderDocumentation, serveRender } from "./typst-render.ts";
import { docFormReader } from "./upload-form.ts";
import { trashDocuments } from "./trash.ts";
import { deleteDocument, getDocument, listDocuments, rawBatch, toDocItem, updateDocument } from "./service.ts";
import { iso } from "../../../infra/clock.ts";

const tagsOf = (tag: string | undefined) => [...new Set((tag ?? "").split(",").map((s) => s.trim()))].filter(Boolean);

export const documentsModule = ({ deps, guard, identity, limiter, buckets, contentDeps }: RouteServices) => {
  /**
   * The caller when a credential is sent (routes where one is optional; 401 for a bad
   * one), counted against the read tier like any read; anonymous reads of public
   * documents are not counted per user.
   */
  const optionalReader = async (request: Request): Promise<Reader | null> => {
    const authorization = request.headers.get("authorization");
    if (authorization === null) return null;
    const p = await identity.resolvePrincipal(authorization);
    notePrincipal(request, p);
    return { userId: p.userId, scopes: p.scopes, rateHeaders: await limiter.hit(p.userId, "read") };
  };

  return (
    new Elysia({ name: "documents", detail: { tags: ["documents"] } })
      .use(sharedModels)
      .use(guard)
      .post(
        "/v1/docs",
        async ({ principal, body, status, request }) => {
          await buckets.take(principal.userId, "upload");
          const out = await createDocument(depsAt(contentDeps, request), principal.userId, body);
          return status(out.status, ok(out.result));
        },
        {
          auth: { scope: "kb.write", tier: "upload" },
          // JSON, or a form with the document as its `file` part (upload-form.ts).
          parse: formBody(docFormReader(deps)),
          body: CreateDocBody,
          response: {
            200: Ok(UploadResult),
            201: Ok(UploadResult),
            404: "Error",
            408: "Error",
            409: "Error",
            422: "Error",
            451: "Error",
            502: "Error",
            503: "Error",
          },
          detail: {
            summary: "Upload a Markdown or Typst document (201), or get the existing one for the same content in the same place (200, duplicate)",
            description:
              "The body is JSON, or multipart/form-data with the document as its `file` part (its name the filename unless a `filename` field is sent) and the other fields as form fields. The format comes from the filename's extension. With kbId and relativePath the document is placed in a KB; an active document at that path gets the new content (200, same id). rewriteImages stores inline data: images as hosted images.",
            [FORM_BODY_SCHEMA]: DocUploadForm,
          },
        },
      )
      .get(
        "/v1/docs",
        async ({ principal, query }) =>
          ok(
            await listDocuments(deps, principal.userId, {
              cursor: query.cursor,
              limit: query.limit ?? 20,
              q: query.q,
              tags: tagsOf(query.tag),
              isPublic: query.isPublic,
              sort: query.sort ?? "created_desc",
              kbId: query.kbId,
              inKb: query.inKb,
            }),
          ),
        {
          auth: { scope: "kb.read", tier: "read" },
          query: ListDocsQuery,
          response: { 200: Ok(DocPage), 400: "Error" },
          detail: { summary: "List documents (newest first by default)" },
        },
      )
      .get(
        "/v1/docs/search",
        async ({ principal, query }) =>
          ok(await searchDocuments(deps.db, principal.userId, { q: query.q, kbId: query.kbId, cursor: query.cursor, limit: query.limit ?? 10 })),
        {
          auth: { scope: "kb.read", tier: "read" },
          query: SearchDocsQuery,
          response: { 200: Ok(DocSearchResult), 400: "Error", 404: "Error", 422: "Error" },
          detail: {
            summary: "Search the caller's documents by words in their title, KB path and text (best first, with snippets)",
            description:
              "Full-text search over the caller's documents (not deleted ones), in KBs or not: q in web search syntax (words, \"a quoted phrase\", -word to exclude, or), matched word for word with no stemming, letter case ignored. kbId keeps one KB's documents (404 NOT_FOUND for a KB that is not the caller's). Best first: a match in the title weighs most, then in the KB path, then in the text; ties newest first. Each hit's snippet is plain text (escape it before showing it as HTML) with every matched word between « and »; marks gives the offsets of those words in it, so a « of the document's own is never taken for one. The text of a document larger than 256 KiB lives in the object store and is not searched: it is found by its title and path only. Pages of `limit` (1 to 50, default 10) with nextCursor, sent back as cursor with the same q and kbId (400 INVALID_CURSOR for another). 422 VALIDATION_ERROR (meta.path query.q) for a q with no word to look for (only punctuation, or only exclusions).",
          },
        },
      )
      .get("/v1/docs/:id", async ({ principal, params }) => ok(toDocItem(await getDocument(deps.db, { userId: principal.userId, id: params.id }))), {
        auth: { scope: "kb.read", tier: "read" },
        params: DocParams,
        response: { 200: Ok(DocItem), 404: "Error" },
        detail: { summary: "One document's metadata" },
      })
      .get(
        "/v1/docs/:id/raw",
        async ({ params, headers, request }) => serveRaw(deps, params.id, () => optionalReader(request), headers["if-none-match"] ?? null),
        { params: DocParams, detail: { hide: true, [OWN_PATHS]: rawDocumentation } },
      )
      .get(
        "/v1/docs/:id/render",
        async ({ params, query, headers, request }) =>
          serveRender(deps, params.id, query.format ?? "pdf", () => optionalReader(request), headers["if-none-match"] ?? null),
        { params: DocParams, query: RenderQuery, detail: { hide: true, [OWN_PATHS]: renderDocumentation } },
      )
      .patch("/v1/docs/:id", async ({ principal, params, body }) => ok(toDocItem(await updateDocument(deps, principal.userId, params.id, body))), {
        auth: { scope: "kb.write", tier: "mutation" },
        params: DocParams,
        body: UpdateDocBody,
        response: { 200: Ok(DocItem), 404: "Error", 422: "Error" },
        detail: { summary: "Change a document's title, visibility or tags (not its content)" },
      })
      .delete(
        "/v1/docs/:id",
        async ({ principal, params, set }) => {
          await deleteDocument(deps, principal.userId, params.id);
          set.status = 204;
        },
        {
          auth: { scope: "kb.write", tier: "mutation" },
          params: DocParams,
          response: { 204: NoContent, 404: "Error" },
          detail: { summary: "Move a document to the trash (in a KB: its path is reported deleted by the manifest until a restore puts it back)" },
        },
      )
      .delete(
        "/v1/docs",
        async ({ principal, body }) => {
          const deleted = await trashDocuments(deps, principal.userId, body.ids);
          return ok({ results: body.ids.map((id) => (deleted.has(id) ? { id, deleted: true } : { id, deleted: false, reason: "NOT_FOUND" as const })) });
        },
        {
          auth: { scope: "kb.write", tier: "mutation" },
          body: IdsBody,
          response: { 200: Ok(BatchDeleteResult), 422: "Error" },
          detail: { summary: "Move up to 50 documents to the trash; a result per id, in input order" },
        },
      )
      // The router reads `:batch` as a parameter, so the path is matched as /v1/docs/:id
      // and anything but raw:batch there is the router's 404; the route documents itself.
      .post(
        "/v1/docs/:id",
        async ({ params, body, request }) => {
          if (params.id !== "raw:batch") throw new AppError("NOT_FOUND", "no such route", { entity: "route" });
          const reader = await optionalReader(request);
          return ok(await rawBatch(deps, reader?.scopes.includes("kb.read") ? reader.userId : null, body.ids));
        },
        { body: RawBatchBody, detail: { hide: true, [OWN_PATHS]: rawBatchDocumentation } },
      )
      .get("/v1/docs/:id/revisions", async ({ principal, params }) => ok(await listRevisions(deps, principal.userId, params.id)), {
        auth: { scope: "kb.read", tier: "read" },
        params: DocParams,
        response: { 200: Ok(RevisionList), 404: "Error" },
        detail: { summary: "A document's revisions, newest first, and their total bytes (also on an expired plan)" },
      })
      .get("/v1/docs/:id/revisions/:revId", async ({ principal, params }) => ok(await readRevision(deps, principal.userId, params.id, params.revId)), {
        auth: { scope: "kb.read", tier: "read" },
        params: RevisionParams,
        response: { 200: Ok(RevisionWithContent), 404: "Error", 502: "Error" },
        detail: { summary: "One revision with its content (404 DOC_REVISION_NOT_FOUND)" },
      })
      .post(
        "/v1/docs/:id/revisions/:revId/restore",
        async ({ principal, params }) => {
          const out = await restoreRevision(deps, principal.userId, params.id, params.revId);
          return ok({
            id: out.row.id,
            duplicate: out.duplicate,
            sourceHash: out.row.sourceHash,
            sizeBytes: out.row.sizeBytes,
            updatedAt: iso(out.row.updatedAt),
            savedRevision: out.saved,
          });
        },
        {
          auth: { scope: "kb.write", tier: "mutation" },
          params: RevisionParams,
          response: { 200: Ok(RestoreResult), 404: "Error", 409: "Error", 502: "Error" },
          detail: { summary: "Put a revision's content back; the current content is kept as a revision first (403 PLAN_INACTIVE without an active plan)" },
        },
      )
      .delete("/v1/user/me/doc-revisions", async ({ principal }) => ok(await clearRevisions(deps, principal.userId)), {
        auth: { scope: "kb.write", tier: "mutation" },
        response: { 200: Ok(ClearRevisionsResult) },
        detail: { tags: ["account"], summary: "Delete the caller's oldest document revisions, at most 200 a call; repeat while hasMore" },
      })
      .get("/v1/admin/doc-cdn-hosts", async () => ok({ hosts: await listCdnHosts(deps.db) }), {
        auth: { scope: "admin", tier: "read" },
        response: { 200: Ok(CdnHosts) },
        detail: { tags: ["admin"], summary: "The CDN hosts whose images documents may link without a warning" },
      })
      .put("/v1/admin/doc-cdn-hosts", async ({ body }) => ok({ hosts: await replaceCdnHosts(deps, body.hosts) }), {
        auth: { scope: "admin", session: true, tier: "mutation" },
        body: CdnHostsBody,
        response: { 200: Ok(CdnHosts), 422: "Error" },
        detail: {
          tags: ["admin"],
          summary: "Replace the CDN host allow-list: bare hostnames, exact or with a leading dot for subdomains (422 DOC_INVALID_PATTERN)",
        },
      })
  );
};
