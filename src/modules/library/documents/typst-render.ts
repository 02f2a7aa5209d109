// GET /v1/docs/:id/render?format=pdf|svg: a Typst document as PDF or SVG, to whom may read
// its raw text (raw-text.ts: anyone for a public document, its owner for a private one).
// Only Typst renders: a Markdown document is 415. A source that does not compile is 422
// with the compiler's diagnostics. The bytes depend on the text alone, so the ETag is the
// sourceHash with the format, and renders are cached by sourceHash (typst.ts).
import type { Deps } from "../../../core/deps.ts";
import { AppError } from "../../../core/errors.ts";
import type { OwnPaths } from "../../../http/openapi.ts";
import { readContent } from "./content.ts";
import { matches, NOSNIFF, PRIVATE_CACHE, PUBLIC_CACHE, type Reader, readableDocument } from "./raw-text.ts";
import { RENDER_TYPES, type RenderFormat, renderTypst } from "./typst.ts";

/**
 * An SVG is opened by browsers as a page of this origin: it may hold no script, load
 * nothing, and style itself inline only (the compiler's plain SVG needs no more).
 */
const SVG_POLICY = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; font-src data:";

export async function serveRender(
  deps: Deps,
  id: string,
  format: RenderFormat,
  who: () => Promise<Reader | null>,
  ifNoneMatch: string | null,
): Promise<Response> {
  const { row, reader } = await readableDocument(deps, id, who);
  const shared = { ...reader?.rateHeaders, ...NOSNIFF, "cache-control": row.isPublic ? PUBLIC_CACHE : PRIVATE_CACHE };
  if (row.format !== "typst") {
    throw new AppError("UNSUPPORTED_MEDIA_TYPE", "only Typst documents render; a Markdown document is read as its raw text", { format: row.format }, shared);
  }
  const etag = `"${row.sourceHash}.${format}"`;
  const base = (row.filename.endsWith(".typ") ? row.filename.slice(0, -4) : row.filename) || "document";
  const headers: Record<string, string> = {
    ...shared,
    "content-type": RENDER_TYPES[format],
    etag,
    "content-disposition": `inline; filename*=UTF-8''${encodeURIComponent(`${base}.${format}`)}`,
    ...(format === "svg" ? { "content-security-policy": SVG_POLICY } : {}),
  };
  if (matches(ifNoneMatch, etag)) return new Response(null, { status: 304, headers });
  let bytes: Uint8Array;
  try {
    bytes = await renderTypst(deps, row.sourceHash, await readContent(deps, row), format);
  } catch (e) {
    throw e instanceof AppError ? e.withHeaders(shared) : e;
  }
  return new Response(bytes as Uint8Array<ArrayBuffer>, { status: 200, headers });
}

const errorAnswer = (name: string) => ({ $ref: `#/components/responses/${name}` });
const envelope = { "application/json": { schema: { $ref: "#/components/schemas/Error" } } };

/** The route's own part of the OpenAPI document (its answer is bytes, which the generator cannot describe). */
export const renderDocumentation: OwnPaths = {
  paths: {
    "/v1/docs/{id}/render": {
      get: {
        tags: ["documents"],
        summary: "A Typst document rendered as PDF or SVG: anyone for a public document, its owner (kb.read) for a private one",
        description:
          "Compiled with no file or network access (no imports of files or packages), within TYPST_TIMEOUT_MS and TYPST_MEMORY_MB; renders are cached by the document's sourceHash. 415 UNSUPPORTED_MEDIA_TYPE for a Markdown document; 422 VALIDATION_ERROR with `meta.reason` TYPST_COMPILE_FAILED and `meta.diagnostics` when the source does not compile, TYPST_TIMEOUT or TYPST_MEMORY at a bound; 503 SERVICE_UNAVAILABLE when this server has no Typst compiler or it is busy.",
        security: [{}, { bearer: [] }],
        parameters: [
          { name: "id", in: "path", required: true, schema: { type: "string", pattern: "^[A-Za-z0-9_-]{21}$" } },
          {
            name: "format",
            in: "query",
            required: false,
            description: "pdf (the default) or svg (the pages stacked in one image)",
            schema: { type: "string", enum: ["pdf", "svg"] },
          },
          { name: "If-None-Match", in: "header", required: false, description: "the ETag: 304 when it matches", schema: { type: "string" } },
        ],
        responses: {
          200: {
            description: "the render: `application/pdf` or `image/svg+xml`",
            headers: {
              ETag: { description: "the sourceHash and the format, quoted", required: true, schema: { type: "string" } },
              "Cache-Control": {
                description: "`public, max-age=300` for a public document, `no-store` for a private one",
                required: true,
                schema: { type: "string" },
              },
              "X-Content-Type-Options": { description: "nosniff", required: true, schema: { type: "string", const: "nosniff" } },
            },
            content: { "application/pdf": { schema: { type: "string", format: "binary" } }, "image/svg+xml": { schema: { type: "string" } } },
          },
          304: { description: "Not Modified: If-None-Match names the ETag" },
          401: { description: "UNAUTHORIZED: no (or an invalid) credential, and the document is not public (or does not exist)", content: envelope },
          404: { description: "NOT_FOUND: no such document, or another user's private one", content: envelope },
          415: { description: "UNSUPPORTED_MEDIA_TYPE: a Markdown document (only Typst renders)", content: envelope },
          422: {
            description: "VALIDATION_ERROR: the source does not compile (meta.diagnostics), or a bound was hit; or a bad id or format",
            content: envelope,
          },
          429: errorAnswer("RateLimited"),
          502: { description: "STORAGE_ERROR: the content could not be read", content: envelope },
          503: { description: "SERVICE_UNAVAILABLE: no Typst compiler on this server, or it is busy (Retry-After)", content: envelope },
        },
      },
    },
  },
};
