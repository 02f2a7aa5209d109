// GET /v1/docs/:id/raw: the text itself, not JSON. Public documents are served to anyone
// and may be cached for five minutes; private ones only to their owner, never cached.
// Anonymous requests for anything that is not public get 401 whether it exists or not,
// and other users get 404, so the answer never tells a private document exists.
import type { Deps } from "../../../core/deps.ts";
import { AppError, notFound } from "../../../core/errors.ts";
import type { OwnPaths } from "../../../http/openapi.ts";
import { Ok } from "../../../http/envelope.ts";
import { readContent } from "./content.ts";
import { RawBatchBody, RawBatchResult } from "./model.ts";
import { findDocument } from "./service.ts";
import { type DocFormat, type DocumentRow, docFormat } from "./table.ts";

const CONTENT_TYPES: Record<DocFormat, string> = {
  markdown: "text/markdown; charset=utf-8",
  typst: "text/plain; charset=utf-8",
};
export const PUBLIC_CACHE = "public, max-age=300";
export const PRIVATE_CACHE = "no-store";
export const NOSNIFF = { "x-content-type-options": "nosniff" };

/** If-None-Match (weak comparison): `*` or a listed tag equal to ours. */
export const matches = (header: string | null, etag: string) =>
  !!header && (header.trim() === "*" || header.split(",").some((t) => t.trim().replace(/^W\//, "") === etag));

export interface Reader {
  userId: string;
  scopes: readonly string[];
  /** RateLimit-* of the read tier the request was counted against. */
  rateHeaders: Record<string, string>;
}

const refused = (e: AppError) => e.withHeaders({ ...NOSNIFF, "cache-control": PRIVATE_CACHE });

/**
 * The document `id` if the caller may read it (anyone a public one, its owner with kb.read
 * a private one); else 401 for an anonymous caller and 404 for anyone else. The raw text
 * and the render (typst-render.ts) answer alike. `who`: the caller, resolved from the
 * credential sent (null without one; a bad one throws).
 */
export async function readableDocument(deps: Deps, id: string, who: () => Promise<Reader | null>): Promise<{ row: DocumentRow; reader: Reader | null }> {
  const [row, reader] = await Promise.all([
    findDocument(deps.db, id),
    who().catch((e) => {
      throw e instanceof AppError ? refused(e) : e;
    }),
  ]);
  const mine = !!row && !!reader && row.ownerId === reader.userId && reader.scopes.includes("kb.read");
  if (!row || (!row.isPublic && !mine)) {
    if (!reader) throw refused(new AppError("UNAUTHORIZED", "this document needs its owner's credentials", {}, { "www-authenticate": 'Bearer realm="shelf"' }));
    throw refused(notFound("document"));
  }
  return { row, reader };
}

export async function serveRaw(deps: Deps, id: string, who: () => Promise<Reader | null>, ifNoneMatch: string | null): Promise<Response> {
  const { row, reader } = await readableDocument(deps, id, who);
  const etag = `"${row.sourceHash}"`;
  const headers: Record<string, string> = {
    ...reader?.rateHeaders,
    "content-type": CONTENT_TYPES[docFormat(row)],
    etag,
    "cache-control": row.isPublic ? PUBLIC_CACHE : PRIVATE_CACHE,
    ...NOSNIFF,
  };
  if (matches(ifNoneMatch, etag)) return new Response(null, { status: 304, headers });
  let text: string;
  try {
    text = await readContent(deps, row);
  } catch (e) {
    throw e instanceof AppError ? refused(e) : e;
  }
  return new Response(text, { status: 200, headers });
}

const errorAnswer = (name: string) => ({ $ref: `#/components/responses/${name}` });
const header = (description: string, schema: Record<string, unknown> = { type: "string" }) => ({ description, required: true, schema });
const envelope = { "application/json": { schema: { $ref: "#/components/schemas/Error" } } };
const sent = {
  ETag: header("the SHA-256 of the content, quoted"),
  "Cache-Control": header("`public, max-age=300` for a public document, `no-store` for a private one"),
  "X-Content-Type-Options": header("nosniff", { type: "string", const: "nosniff" }),
};
const refusedHeaders = { "Cache-Control": header("no-store", { type: "string", const: "no-store" }), "X-Content-Type-Options": sent["X-Content-Type-Options"] };

/** The route's own part of the OpenAPI document (its answer is text, which the generator cannot describe). */
export const rawDocumentation: OwnPaths = {
  paths: {
    "/v1/docs/{id}/raw": {
      get: {
        tags: ["documents"],
        summary: "A document's text: anyone for a public document, its owner (kb.read) for a private one",
        security: [{}, { bearer: [] }],
        parameters: [
          { name: "id", in: "path", required: true, schema: { type: "string", pattern: "^[A-Za-z0-9_-]{21}$" } },
          { name: "If-None-Match", in: "header", required: false, description: "the ETag: 304 when it matches", schema: { type: "string" } },
        ],
        responses: {
          200: {
            description: "the text: `text/markdown; charset=utf-8` for Markdown, `text/plain; charset=utf-8` for Typst",
            headers: sent,
            content: { "text/markdown": { schema: { type: "string" } }, "text/plain": { schema: { type: "string" } } },
          },
          304: { description: "Not Modified: If-None-Match names the ETag", headers: sent },
          401: {
            description: "UNAUTHORIZED: no (or an invalid) credential, and the document is not public (or does not exist)",
            headers: refusedHeaders,
            content: envelope,
          },
          404: { description: "NOT_FOUND: no such document, or another user's private one", headers: refusedHeaders, content: envelope },
          429: errorAnswer("RateLimited"),
          422: { description: "VALIDATION_ERROR: the id is not a document id", content: envelope },
          502: { description: "STORAGE_ERROR: the content could not be read", headers: refusedHeaders, content: envelope },
        },
      },
    },
  },
};

/** POST /v1/docs/raw:batch, documented by hand: the generator would read `:batch` as a parameter. */
export const rawBatchDocumentation: OwnPaths = {
  paths: {
    "/v1/docs/raw:batch": {
      post: {
        tags: ["documents"],
        summary: "The text of up to 50 documents, in input order: the caller's own (with kb.read) and public ones; public only without a credential",
        description:
          "`failed[]` says NOT_FOUND for an id that is absent, deleted, another user's private document or no document id at all (malformed: any string is accepted) alike (existence is not disclosed), CONTENT_FETCH_FAILED when the text could not be read. The batch itself is 422 when `ids` is not an array of strings or holds none or more than 50.",
        security: [{}, { bearer: [] }],
        requestBody: { required: true, content: { "application/json": { schema: RawBatchBody } } },
        responses: {
          200: { description: "OK", content: { "application/json": { schema: Ok(RawBatchResult) } } },
          400: errorAnswer("BadRequest"),
          401: errorAnswer("Unauthorized"),
          413: errorAnswer("PayloadTooLarge"),
          415: errorAnswer("UnsupportedMediaType"),
          422: errorAnswer("ValidationError"),
          429: errorAnswer("RateLimited"),
        },
      },
    },
  },
};
