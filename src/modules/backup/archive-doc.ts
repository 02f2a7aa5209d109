// The download route's OpenAPI entry, written by hand: its answer is the zip's bytes,
// which the generator cannot describe.
import type { OwnPaths } from "../../http/openapi.ts";

const header = (description: string, schema: Record<string, unknown> = { type: "string" }) => ({ description, required: true, schema });
const error = (description: string) => ({ description, content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } } });
const served = {
  "Content-Disposition": header('attachment; filename="shelf-export-YYYY-MM-DD.zip"'),
  "Accept-Ranges": header("bytes"),
  ETag: header("the archive's validator"),
  "Cache-Control": header("private, no-store"),
};
const zip = { "application/zip": { schema: { type: "string", format: "binary" } } };

export const archiveDocumentation: OwnPaths = {
  paths: {
    "/v1/backup/{id}/archive": {
      get: {
        tags: ["backup"],
        summary: "The archive of a ready export, by the signed downloadUrl GET /v1/backup/{id} hands its owner (no credential; ranges)",
        parameters: [
          { name: "id", in: "path", required: true, schema: { type: "string", pattern: "^[A-Za-z0-9_-]{21}$" } },
          { name: "expires", in: "query", required: true, schema: { type: "string", pattern: "^[0-9]{1,12}$" } },
          { name: "signature", in: "query", required: true, schema: { type: "string", pattern: "^[A-Za-z0-9_-]{43}$" } },
          { name: "Range", in: "header", required: false, description: "one range, `bytes=a-b`, `bytes=a-` or `bytes=-n`", schema: { type: "string" } },
          { name: "If-None-Match", in: "header", required: false, description: "the ETag, for a 304", schema: { type: "string" } },
        ],
        responses: {
          200: { description: "the whole zip", headers: served, content: zip },
          206: {
            description: "the Range asked for (Content-Range bytes a-b/size)",
            headers: { ...served, "Content-Range": header("bytes a-b/size") },
            content: zip,
          },
          304: { description: "If-None-Match names the ETag" },
          404: error("NOT_FOUND: no such export, or the signature is not this export's"),
          409: error("CONFLICT: the export is not ready (meta.state)"),
          410: error("EXPORT_EXPIRED: the export expired and its archive was removed"),
          416: { description: "the Range starts past the end (Content-Range bytes */size)", headers: { "Content-Range": header("bytes */size") } },
          422: { $ref: "#/components/responses/ValidationError" },
          502: error("STORAGE_ERROR: the archive could not be read"),
        },
      },
    },
  },
};
