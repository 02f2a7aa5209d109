// GET /v1/kbs/:id/raw?path=: the text of the active document at a KB path, for its owner,
// with its id and the version a sync client needs (X-Doc-Id, X-Source-Hash, X-Updated-At).
// Never cached.
import type { Deps } from "../../../core/deps.ts";
import { AppError, notFound, validationError } from "../../../core/errors.ts";
import type { OwnPaths } from "../../../http/openapi.ts";
import { iso } from "../../../infra/clock.ts";
import { activeAtKbPath } from "../documents/kb-rows.ts";
import { normalizePath, pathProblemText } from "../documents/path.ts";
import { readContent } from "../documents/content.ts";
import { getKb } from "./service.ts";

const CONTENT_TYPES = { markdown: "text/markdown; charset=utf-8", typst: "text/plain; charset=utf-8" } as const;
const NOSNIFF = { "x-content-type-options": "nosniff" };

const refused = (e: AppError) => e.withHeaders({ ...NOSNIFF, "cache-control": "no-store" });

export async function rawByPath(deps: Deps, userId: string, kbId: string, path: string | undefined, extra: Record<string, string>): Promise<Response> {
  try {
    if (path === undefined || path === "") throw validationError("query.path", "the path of the document is required");
    const p = normalizePath(path);
    if (!p.ok) throw validationError("query.path", pathProblemText(p.problem));
    await getKb(deps.db, { userId, id: kbId });
    const row = await activeAtKbPath(deps.db, { userId, kbId, pathKey: p.key });
    if (!row) throw notFound("document");
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

/** Documented by hand: its answer is text, which the generator cannot describe. */
export const rawByPathDocumentation: OwnPaths = {
  paths: {
    "/v1/kbs/{id}/raw": {
      get: {
        tags: ["kbs"],
        summary: "The text of the active document at a KB path, with its version (X-Source-Hash, X-Updated-At)",
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
        ],
        responses: {
          200: {
            description: "the text: `text/markdown; charset=utf-8` for Markdown, `text/plain; charset=utf-8` for Typst",
            headers: {
              "X-Doc-Id": header("the document's id (for GET /v1/docs/{id}, its revisions)"),
              "X-Source-Hash": header("SHA-256 hex of the text", { type: "string", pattern: "^[0-9a-f]{64}$" }),
              "X-Updated-At": header("the document's updatedAt (a sync client's baseUpdatedAt), ISO 8601 UTC with milliseconds", {
                type: "string",
                pattern: "^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\.\\d{3}Z$",
              }),
              ETag: header("the SHA-256 of the content, quoted"),
              ...refusedHeaders,
              "RateLimit-Limit": { $ref: "#/components/headers/RateLimitLimit" },
              "RateLimit-Remaining": { $ref: "#/components/headers/RateLimitRemaining" },
              "RateLimit-Reset": { $ref: "#/components/headers/RateLimitReset" },
            },
            content: { "text/markdown": { schema: { type: "string" } }, "text/plain": { schema: { type: "string" } } },
          },
          401: { $ref: "#/components/responses/Unauthorized" },
          403: { $ref: "#/components/responses/Forbidden" },
          404: errorAnswer("NOT_FOUND: no such KB (or another user's), or no active document at the path"),
          422: { $ref: "#/components/responses/ValidationError" },
          429: { $ref: "#/components/responses/RateLimited" },
          502: errorAnswer("STORAGE_ERROR: the content could not be read"),
        },
      },
    },
  },
};
