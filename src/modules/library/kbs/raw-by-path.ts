// GET /v1/kbs/:id/raw?path=: the text of the active document at a KB path, for its owner,
// with its id and the version a sync client needs (X-Doc-Id, X-Source-Hash, X-Updated-At);
// or, where the path holds a file, its bytes as files/serve.ts answers them (its own type,
// byte ranges, the headers that keep it from running). Never cached.
import type { Deps } from "../../../core/deps.ts";
import { AppError, notFound, validationError } from "../../../core/errors.ts";
import type { OwnPaths } from "../../../http/openapi.ts";
import { iso } from "../../../infra/clock.ts";
import { activeAtKbPath } from "../documents/kb-rows.ts";
import { normalizePath, pathProblemText } from "../documents/path.ts";
import { readContent } from "../documents/content.ts";
import { heldBlob } from "../files/blobs.ts";
import { type Asked, serveBlob } from "../files/serve.ts";
import { getKb } from "./service.ts";

const CONTENT_TYPES = { markdown: "text/markdown; charset=utf-8", typst: "text/plain; charset=utf-8" } as const;
const NOSNIFF = { "x-content-type-options": "nosniff" };

const refused = (e: AppError) => e.withHeaders({ ...NOSNIFF, "cache-control": "no-store" });

export async function rawByPath(
  deps: Deps,
  userId: string,
  kbId: string,
  path: string | undefined,
  asked: Asked,
  extra: Record<string, string>,
): Promise<Response> {
  try {
    if (path === undefined || path === "") throw validationError("query.path", "the path of the document is required");
    const p = normalizePath(path);
    if (!p.ok) throw validationError("query.path", pathProblemText(p.problem));
    await getKb(deps.db, { userId, id: kbId });
    const row = await activeAtKbPath(deps.db, { userId, kbId, pathKey: p.key });
    if (!row) throw notFound("document");
    const version = { "x-doc-id": row.id, "x-updated-at": iso(row.updatedAt) };
    if (row.format === "file") {
      const blob = await heldBlob(deps.db, userId, row.sourceHash);
      if (!blob) throw new AppError("STORAGE_ERROR", "the file's bytes are missing", { sourceHash: row.sourceHash });
      return await serveBlob(deps, blob, row.filename, asked, { ...extra, ...version });
    }
    const text = await readContent(deps, row);
    return new Response(text, {
      status: 200,
      headers: {
        ...extra,
        "content-type": CONTENT_TYPES[row.format],
        "x-doc-id": row.id,
        "x-source-hash": row.sourceHash,
        "x-updated-at": iso(row.updatedAt),
        etag: `"${row.sourceHash}"`,
        "cache-control": "no-store",
        ...NOSNIFF,
      },
    });
  } catch (e) {
    throw e instanceof AppError ? refused(e) : e;
  }
}

const header = (description: string, schema: Record<string, unknown> = { type: "string" }) => ({ description, required: true, schema });
const envelope = { "application/json": { schema: { $ref: "#/components/schemas/Error" } } };
const refusedHeaders = {
  "Cache-Control": header("no-store", { type: "string", const: "no-store" }),
  "X-Content-Type-Options": header("nosniff", { type: "string", const: "nosniff" }),
};
const errorAnswer = (description: string) => ({ description, headers: refusedHeaders, content: envelope });
const rateHeaders = {
  "RateLimit-Limit": { $ref: "#/components/headers/RateLimitLimit" },
  "RateLimit-Remaining": { $ref: "#/components/headers/RateLimitRemaining" },
  "RateLimit-Reset": { $ref: "#/components/headers/RateLimitReset" },
};
/** Headers only some answers of the status carry. */
const optional = (headers: Record<string, { description: string; schema: Record<string, unknown> }>) =>
  Object.fromEntries(Object.entries(headers).map(([name, h]) => [name, { ...h, required: false }]));

const fileHeaders = {
  "Content-Security-Policy": header("a file: runs and loads nothing (sandbox), whatever its type"),
  "Content-Disposition": header(
    "a file: `inline` for types a browser shows without running them (raster images, audio, video, PDF, plain text, CSV, Markdown, JSON), `attachment` for any other (HTML, SVG, XML, scripts...), with the file's name",
  ),
  "Accept-Ranges": header("a file: bytes", { type: "string", const: "bytes" }),
};

/** Documented by hand: its answer is text, which the generator cannot describe. */
export const rawByPathDocumentation: OwnPaths = {
  paths: {
    "/v1/kbs/{id}/raw": {
      get: {
        tags: ["kbs"],
        summary: "The text of the active document at a KB path, or the bytes of the file there, with its version (X-Source-Hash, X-Updated-At)",
        description:
          "A file (manifest v2 kind `file`) answers its bytes with the Content-Type told from them when they were stored, X-Source-Hash (the SHA-256 of the bytes) and a strong ETag (If-None-Match: 304), Accept-Ranges: bytes and one Range at a time (206 with Content-Range; 416 with Content-Range bytes */size past the end; If-Range honoured), `X-Content-Type-Options: nosniff`, a Content-Security-Policy with `sandbox` that runs and loads nothing, and Content-Disposition `attachment` for any type a browser could run. A document answers its text whole.",
        "x-required-scope": "kb.read",
        "x-rate-limit-tier": "read",
        security: [{ bearer: [] }],
        parameters: [
          { name: "id", in: "path", required: true, schema: { type: "string", pattern: "^[A-Za-z0-9_-]{21}$" } },
          {
            name: "path",
            in: "query",
            required: true,
            description: "the relative path, URL-encoded; NFC-normalized, and matched whatever its letter case",
            schema: { type: "string", minLength: 1, maxLength: 4096 },
          },
          { name: "Range", in: "header", required: false, description: "a file: one range, `bytes=a-b`, `bytes=a-` or `bytes=-n`", schema: { type: "string" } },
          { name: "If-None-Match", in: "header", required: false, description: "a file: its ETag, for a 304", schema: { type: "string" } },
        ],
        responses: {
          200: {
            description:
              "the text: `text/markdown; charset=utf-8` for Markdown, `text/plain; charset=utf-8` for Typst; a file's bytes with its own Content-Type",
            headers: {
              "X-Doc-Id": header("the document's id (for GET /v1/docs/{id}, its revisions)"),
              "X-Source-Hash": header("SHA-256 hex of the text", { type: "string", pattern: "^[0-9a-f]{64}$" }),
              "X-Updated-At": header("the document's updatedAt (a sync client's baseUpdatedAt), ISO 8601 UTC with milliseconds", {
                type: "string",
                pattern: "^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\.\\d{3}Z$",
              }),
              ETag: header("the SHA-256 of the content, quoted"),
              ...refusedHeaders,
              ...optional(fileHeaders),
              ...rateHeaders,
            },
            content: {
              "text/markdown": { schema: { type: "string" } },
              "text/plain": { schema: { type: "string" } },
              "*/*": { schema: { type: "string", format: "binary" } },
            },
          },
          206: {
            description: "a file: the Range asked for (Content-Range bytes a-b/size)",
            headers: {
              "Content-Range": header("bytes a-b/size"),
              "X-Source-Hash": header("SHA-256 hex of the file", { type: "string", pattern: "^[0-9a-f]{64}$" }),
              ETag: header("the SHA-256 of the file, quoted"),
              ...refusedHeaders,
              ...optional(fileHeaders),
              ...rateHeaders,
            },
            content: { "*/*": { schema: { type: "string", format: "binary" } } },
          },
          304: { description: "a file: If-None-Match names its ETag", headers: { ETag: header("the SHA-256 of the file, quoted"), ...refusedHeaders } },
          416: {
            description: "a file: the Range starts past its end (Content-Range bytes */size)",
            headers: { "Content-Range": header("bytes */size"), ...refusedHeaders },
          },
          401: { $ref: "#/components/responses/Unauthorized" },
          403: { $ref: "#/components/responses/Forbidden" },
          404: errorAnswer("NOT_FOUND: no such KB (or another user's), or no active document at the path"),
          422: { $ref: "#/components/responses/ValidationError" },
          429: { $ref: "#/components/responses/RateLimited" },
          502: errorAnswer("STORAGE_ERROR: the content (a file's bytes) could not be read"),
        },
      },
    },
  },
};
