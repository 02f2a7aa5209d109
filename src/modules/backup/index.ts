// /v1/backup: the whole-account export (docs/api.md, "Backup"). POST queues an export that a
// worker writes as one zip in the object store (worker.ts); GET shows its progress and,
// when ready, a signed download URL (download.ts) that serves the archive with ranges until
// it expires (EXPORT_RETENTION_H) and the expire-exports job removes it.
import { Elysia, t } from "elysia";
import { addressesOf } from "../../http/addresses.ts";
import { NoContent, Ok, ok, sharedModels } from "../../http/envelope.ts";
import { OWN_PATHS } from "../../http/openapi.ts";
import { AppError } from "../../core/errors.ts";
import type { Principal } from "../../core/principal.ts";
import type { RouteServices } from "../../wiring/services.ts";
import { archiveDocumentation } from "./archive-doc.ts";
import { createDownloadSigner, serveArchive } from "./download.ts";
import { ArchiveQuery, ExportListQuery, ExportPage, ExportParams, ExportView, NewExportBody } from "./model.ts";
import { createExport, deleteExport, getExport, listExports, scopesOf, toView } from "./service.ts";
import { EXPORT_KINDS, type ExportKind, type ExportRow } from "./table.ts";

/** An export holds no more than the credential may read: media.read for media, kb.read for documents and KBs. */
function assertScopes(principal: Principal, kinds: readonly ExportKind[]) {
  const missing = scopesOf(kinds).find((s) => !principal.scopes.includes(s));
  if (missing) {
    throw new AppError(principal.via === "oauth" ? "OAUTH_SCOPE_INSUFFICIENT" : "FORBIDDEN", `this credential lacks the ${missing} scope`, {
      required: missing,
    });
  }
}

export const backupModule = ({ deps, guard }: RouteServices) => {
  const signer = createDownloadSigner(deps.config.JWT_SECRET);
  const view = (request: Request, row: ExportRow) => {
    const { PUBLIC_URL } = addressesOf(deps.config, request);
    return toView(row, deps.clock.now(), (r) => signer.url(PUBLIC_URL, r));
  };
  return new Elysia({ name: "backup", detail: { tags: ["backup"] } })
    .use(sharedModels)
    .use(guard)
    .post(
      "/v1/backup",
      async ({ principal, body: sent, request, status }) => {
        const body = sent ?? {};
        if (body.kbIds && body.kinds && !body.kinds.includes("kbs")) {
          throw new AppError("VALIDATION_ERROR", "kbIds narrows the kbs kind: name kbs in kinds too, or leave kinds out", {
            path: "/kbIds",
            issues: [{ path: "/kbIds", message: "kbIds needs kinds to hold kbs" }],
          });
        }
        const kinds = body.kinds ?? (body.kbIds ? (["kbs"] as ExportKind[]) : [...EXPORT_KINDS]);
        assertScopes(principal, kinds);
        const { PUBLIC_URL, MEDIA_URL } = addressesOf(deps.config, request);
        const row = await createExport(deps, { userId: principal.userId, kinds, kbIds: body.kbIds, publicUrl: PUBLIC_URL, mediaUrl: MEDIA_URL });
        return status(202, ok(view(request, row)));
      },
      {
        auth: { scope: "media.read", tier: "mutation" },
        // No body at all is {}: everything.
        body: t.Optional(NewExportBody),
        response: { 202: Ok(ExportView), 404: "Error", 422: "Error" },
        detail: {
          summary: "Start an export of the whole account, or of chosen kinds and KBs, as one zip archive (202; a worker writes it)",
          description:
            "An empty body exports everything: images, videos and audio (each original as stored), documents with their revisions, and each KB as its folder tree with its files, plus manifest.json (docs/api.md, \"Backup\"). kbIds alone exports those KBs only. Needs media.read, and kb.read too when documents or KBs are exported (403 without). 404 NOT_FOUND for a KB that is not the caller's. Counted against the plan's exports a day (429 RATE_LIMITED with Retry-After past it, meta.type exports_per_day); the archive counts against no storage. The owner is told when it is ready or failed (notification export_ready / export_failed).",
        },
      },
    )
    .get(
      "/v1/backup",
      async ({ principal, query, request }) => {
        const page = await listExports(deps.db, principal.userId, { cursor: query.cursor, limit: query.limit ?? 20 });
        return ok({ items: page.items.map((r) => view(request, r)), nextCursor: page.nextCursor });
      },
      {
        auth: { scope: "media.read", tier: "read" },
        query: ExportListQuery,
        response: { 200: Ok(ExportPage), 400: "Error" },
        detail: { summary: "The caller's exports, newest first (cursor pages)" },
      },
    )
    .get(
      "/v1/backup/:id",
      async ({ principal, params, request }) => {
        const row = await getExport(deps.db, principal.userId, params.id);
        assertScopes(principal, row.kinds);
        return ok(view(request, row));
      },
      {
        auth: { scope: "media.read", tier: "read" },
        params: ExportParams,
        response: { 200: Ok(ExportView), 404: "Error" },
        detail: {
          summary: "One export: its state, progress, and when ready its downloadUrl and expiresAt",
          description: "Needs the scopes its kinds need, as POST does (403 without). 404 for another user's export.",
        },
      },
    )
    .delete(
      "/v1/backup/:id",
      async ({ principal, params, set }) => {
        await deleteExport(deps, principal.userId, params.id);
        set.status = 204;
      },
      {
        auth: { scope: "media.read", tier: "mutation" },
        params: ExportParams,
        response: { 204: NoContent, 404: "Error" },
        detail: {
          summary: "Delete an export: its archive goes and its downloadUrl stops working; one being written stops",
          description: "The day's count of exports is not given back.",
        },
      },
    )
    .get(
      "/v1/backup/:id/archive",
      ({ params, query, request }) =>
        serveArchive(deps, signer, params.id, query, {
          method: request.method,
          range: request.headers.get("range"),
          ifRange: request.headers.get("if-range"),
          ifNoneMatch: request.headers.get("if-none-match"),
        }),
      {
        params: ExportParams,
        query: ArchiveQuery,
        detail: { hide: true, [OWN_PATHS]: archiveDocumentation },
      },
    );
};
