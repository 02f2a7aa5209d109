// /v1/migration: importing an account export's archive into the caller's account
// (docs/api.md, "Migration"). POST takes the zip (multipart `file`, streamed into the
// object store) and queues its import, which a worker runs (worker.ts); GET shows its
// status, progress and report.
import { Elysia } from "elysia";
import { AppError, validationError } from "../../core/errors.ts";
import type { Principal } from "../../core/principal.ts";
import { addressesOf } from "../../http/addresses.ts";
import { readBody, uploadBodyOf } from "../../http/body-limit.ts";
import { parseJsonBytes } from "../../core/json-text.ts";
import { Value } from "@sinclair/typebox/value";
import { Ok, ok, sharedModels } from "../../http/envelope.ts";
import type { RouteServices } from "../../wiring/services.ts";
import { MigrationForm, MigrationFromUpload, MigrationFromUploadJson, MigrationListQuery, MigrationPage, MigrationParams, MigrationView } from "./model.ts";
import { createMigration, getMigration, listMigrations, migrationOfUpload, toView } from "./service.ts";

/** An import makes media and documents: it needs kb.write beside media.write. */
function assertKbWrite(principal: Principal) {
  if (principal.scopes.includes("kb.write")) return;
  throw new AppError(principal.via === "oauth" ? "OAUTH_SCOPE_INSUFFICIENT" : "FORBIDDEN", "this credential lacks the kb.write scope", {
    required: "kb.write",
  });
}

export const migrationModule = ({ deps, guard, buckets }: RouteServices) =>
  new Elysia({ name: "migration", detail: { tags: ["migration"] } })
    .use(sharedModels)
    .use(guard)
    .post(
      "/v1/migration",
      async ({ principal, request, status }) => {
        assertKbWrite(principal);
        // A finished upload of kind archive started its import when its last byte was in: named, it is answered.
        if (/^application\/json\b/i.test(request.headers.get("content-type") ?? "")) {
          const body = parseJsonBytes(await readBody(request, 4096));
          if (!Value.Check(MigrationFromUpload, body)) {
            const missing = typeof body !== "object" || body === null || !("uploadId" in body);
            throw validationError("body.uploadId", `uploadId ${missing ? "is required" : "must be"}: the id of a finished upload of kind archive`);
          }
          return status(202, ok(toView(await migrationOfUpload(deps.db, principal.userId, body.uploadId))));
        }
        await buckets.take(principal.userId, "upload");
        const { MEDIA_URL } = addressesOf(deps.config, request);
        const row = await createMigration(deps, principal.userId, uploadBodyOf(request), MEDIA_URL);
        return status(202, ok(toView(row)));
      },
      {
        auth: { scope: "media.write", tier: "upload" },
        // Streamed to storage (src/core/streamed-upload.ts), never buffered by Elysia.
        parse: "none",
        response: {
          202: Ok(MigrationView),
          400: "Error",
          403: "Error",
          404: "Error",
          408: "Error",
          409: "Error",
          413: "Error",
          422: "Error",
          429: "Error",
          502: "Error",
        },
        detail: {
          summary: "Import an account export's archive into this account (multipart file, or { uploadId } of a resumable upload; 202, a worker imports it)",
          description:
            "The zip GET /v1/backup/{id}'s downloadUrl gives, from this instance or another. 422 INVALID_FILE_TYPE for a file that is not a zip, 413 FILE_TOO_LARGE past MIGRATION_MAX_BYTES, 409 CONFLICT while another import of the account is queued or running. Needs media.write and kb.write (403 without). " +
            'The worker checks the whole archive before it stores anything (names, links, sizes, checksums, the manifest, the room the plan leaves) and refuses a hostile or broken one with a code in report.error, importing nothing. Items keep their ids where free; media links in Markdown are written with this instance\'s MEDIA_URL; a re-run skips what is already here (docs/api.md, "Migration").',
          requestBody: { required: true, content: { ...MigrationForm, ...MigrationFromUploadJson } },
        },
      },
    )
    .get(
      "/v1/migration",
      async ({ principal, query }) => ok(await listMigrations(deps.db, principal.userId, { cursor: query.cursor, limit: query.limit ?? 20 })),
      {
        auth: { scope: "media.read", tier: "read" },
        query: MigrationListQuery,
        response: { 200: Ok(MigrationPage), 400: "Error" },
        detail: { summary: "The caller's imports, newest first (cursor pages)" },
      },
    )
    .get("/v1/migration/:id", async ({ principal, params }) => ok(toView(await getMigration(deps.db, principal.userId, params.id))), {
      auth: { scope: "media.read", tier: "read" },
      params: MigrationParams,
      response: { 200: Ok(MigrationView), 404: "Error" },
      detail: { summary: "One import: its status, progress and, once ended, its report (what was imported, skipped and why)" },
    });
