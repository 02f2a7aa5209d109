// /v1/kbs/:id/files/:sha256: a KB file's bytes by their hash. PUT stores them (before a
// sync v2 op of kind `file` links them to a path), HEAD says whether the owner holds them,
// GET answers them as raw by path does. Dedup is per owner: the hash names the caller's
// own bytes only, in any of its KBs.
import { depsAt } from "../../../http/addresses.ts";
import { Elysia, t } from "elysia";
import { NoContent, Ok, ok, sharedModels } from "../../../http/envelope.ts";
import { AppError, notFound } from "../../../core/errors.ts";
import { declaredLength, lingeringClose, uploadBodyOf } from "../../../http/body-limit.ts";
import { OWN_PATHS, type OwnPaths, withHeaders } from "../../../http/openapi.ts";
import type { RouteServices } from "../../../wiring/services.ts";
import { getKb } from "../kbs/service.ts";
import { heldBlob } from "./blobs.ts";
import { FileParams, PutFileQuery, StoredFile } from "./model.ts";
import { askedOf, serveBlob } from "./serve.ts";
import { precheckFile, storeFile } from "./upload.ts";

const REFUSAL = { "x-content-type-options": "nosniff", "cache-control": "no-store" };

/** A refused PUT closes its connection after a lingering read of its body (http/body-limit.ts). */
async function closingOnError<T>(request: Request, headers: Record<string, unknown>, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (e) {
    Object.assign(headers, await lingeringClose(request), { connection: "close" });
    throw e;
  }
}

export const kbFilesRoutes = ({ deps, guard, buckets, contentDeps }: RouteServices) => {
  /** The caller's blob in the KB's owner's files (404 for a KB not the caller's, or bytes it does not hold). */
  const blobOf = async (userId: string, kbId: string, sha256: string) => {
    await getKb(deps.db, { userId, id: kbId });
    const blob = await heldBlob(deps.db, userId, sha256);
    if (!blob) throw notFound("file");
    return blob;
  };
  /** GET the bytes, HEAD their size and type (Elysia may answer a HEAD from the GET route: both come here). */
  const answer = async (userId: string, params: { id: string; sha256: string }, request: Request, route: "GET" | "HEAD", headers: Record<string, unknown>) => {
    try {
      const blob = await blobOf(userId, params.id, params.sha256);
      return await serveBlob(deps, blob, blob.sha256, askedOf(request, route), headers as Record<string, string>);
    } catch (e) {
      throw e instanceof AppError ? e.withHeaders(REFUSAL) : e;
    }
  };

  return new Elysia({ name: "kb-files", detail: { tags: ["kbs"] } })
    .use(sharedModels)
    .use(guard)
    .put(
      "/v1/kbs/:id/files/:sha256",
      ({ principal, params, query, request, set }) =>
        closingOnError(request, set.headers, async () => {
          const pre = await precheckFile(deps, { userId: principal.userId, kbId: params.id, sha256: params.sha256, declaredLength: declaredLength(request) });
          if ("existing" in pre) {
            // The bytes are the owner's already: the body is not read, and the connection closes after it.
            Object.assign(set.headers, await lingeringClose(request));
            const b = pre.existing;
            return ok({ sha256: b.sha256, sizeBytes: b.sizeBytes, contentType: b.contentType, stored: "existing" as const });
          }
          // New bytes are sync work: one token of the syncOp bucket, not of the media uploads' bucket.
          await buckets.take(principal.userId, "syncOp");
          const out = await storeFile(depsAt(contentDeps, request), pre.uploader, { sha256: params.sha256, name: query.name }, uploadBodyOf(request));
          const b = out.blob;
          set.status = out.stored === "new" ? 201 : 200;
          return ok({ sha256: b.sha256, sizeBytes: b.sizeBytes, contentType: b.contentType, stored: out.stored });
        }),
      {
        auth: { scope: "kb.write", tier: "file" },
        params: FileParams,
        query: PutFileQuery,
        // Streamed to storage while hashed (src/core/streamed-body.ts), never buffered by Elysia.
        parse: "none",
        response: {
          200: Ok(StoredFile),
          201: Ok(StoredFile),
          400: "Error",
          403: "Error",
          404: "Error",
          408: "Error",
          411: "Error",
          413: "Error",
          422: "Error",
          451: "Error",
          502: "Error",
          503: "Error",
        },
        detail: {
          summary: "Store a KB file's bytes under their SHA-256 (201 new; 200 existing: the owner holds them already, the body unread)",
          description:
            "The body is the file itself (any Content-Type), with a Content-Length (411 LENGTH_REQUIRED without one). Refused before a byte is read: 413 FILE_TOO_LARGE past the plan's attachmentMaxBytes, 403 QUOTA_EXCEEDED (meta.type img_storage) when the bytes do not fit the plan's image storage, 403 PLAN_INACTIVE. Streamed to the object store while hashed: 422 HASH_MISMATCH when the bytes' SHA-256 is not the one in the URL, and nothing is kept or counted. The Content-Type is told from the bytes (else from `name`'s extension, else application/octet-stream) and kept with them. The bytes count in img_storage once per owner and hash, however many paths, branches or KBs link them; unlinked, they are removed by the orphan sweep ORPHAN_SWEEP_AFTER_H after their last PUT. Link them to a path with a sync v2 upsert or update of kind `file`. Rate: the `file` tier (600 a minute by default), and new bytes take one token of the syncOp bucket; an existing answer takes none.",
          requestBody: { required: true, content: { "application/octet-stream": { schema: { type: "string", format: "binary" } } } },
        },
      },
    )
    .head("/v1/kbs/:id/files/:sha256", ({ principal, params, request, set }) => answer(principal.userId, params, request, "HEAD", set.headers), {
      auth: { scope: "kb.read", tier: "read" },
      params: FileParams,
      response: {
        200: withHeaders(NoContent, {
          "Content-Length": t.String({ description: "the file's size in bytes" }),
          "Content-Type": t.String({ description: "the file's type, told from its bytes when stored" }),
          "X-Source-Hash": t.String({ description: "the SHA-256 of the bytes" }),
        }),
        404: "Error",
        422: "Error",
      },
      detail: { summary: "Whether the caller holds a KB file with these bytes (200 with its size and type) or not (404): ask before a PUT" },
    })
    .get("/v1/kbs/:id/files/:sha256", ({ principal, params, request, set }) => answer(principal.userId, params, request, "GET", set.headers), {
      auth: { scope: "kb.read", tier: "read" },
      params: FileParams,
      detail: { hide: true, [OWN_PATHS]: byHashDocumentation },
    });
};

const header = (description: string, schema: Record<string, unknown> = { type: "string" }) => ({ description, required: true, schema });
const refusedHeaders = {
  "Cache-Control": header("no-store", { type: "string", const: "no-store" }),
  "X-Content-Type-Options": header("nosniff", { type: "string", const: "nosniff" }),
};
const errorAnswer = (description: string) => ({
  description,
  headers: refusedHeaders,
  content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } },
});
const served = {
  "RateLimit-Limit": { $ref: "#/components/headers/RateLimitLimit" },
  "RateLimit-Remaining": { $ref: "#/components/headers/RateLimitRemaining" },
  "RateLimit-Reset": { $ref: "#/components/headers/RateLimitReset" },
  "X-Source-Hash": header("SHA-256 hex of the bytes", { type: "string", pattern: "^[0-9a-f]{64}$" }),
  ETag: header("the SHA-256 of the bytes, quoted"),
  "Content-Security-Policy": header("runs and loads nothing (sandbox), whatever the type"),
  "Content-Disposition": header("`inline` for types a browser shows without running them, `attachment` for any other"),
  ...refusedHeaders,
};

/** Documented by hand: its answer is the file's bytes, which the generator cannot describe. */
const byHashDocumentation: OwnPaths = {
  paths: {
    "/v1/kbs/{id}/files/{sha256}": {
      get: {
        tags: ["kbs"],
        summary: "A KB file's bytes by their SHA-256, as raw by path answers them (its type, ranges, nosniff, a sandbox CSP)",
        "x-required-scope": "kb.read",
        "x-rate-limit-tier": "read",
        security: [{ bearer: [] }],
        parameters: [
          { name: "id", in: "path", required: true, schema: { type: "string", pattern: "^[A-Za-z0-9_-]{21}$" } },
          { name: "sha256", in: "path", required: true, schema: { type: "string", pattern: "^[0-9a-f]{64}$" } },
          { name: "Range", in: "header", required: false, description: "one range, `bytes=a-b`, `bytes=a-` or `bytes=-n`", schema: { type: "string" } },
          { name: "If-None-Match", in: "header", required: false, description: "the ETag, for a 304", schema: { type: "string" } },
        ],
        responses: {
          200: { description: "the bytes, with their own Content-Type", headers: served, content: { "*/*": { schema: { type: "string", format: "binary" } } } },
          206: {
            description: "the Range asked for (Content-Range bytes a-b/size)",
            headers: { ...served, "Content-Range": header("bytes a-b/size") },
            content: { "*/*": { schema: { type: "string", format: "binary" } } },
          },
          304: { description: "If-None-Match names the ETag", headers: { ETag: served.ETag, ...refusedHeaders } },
          401: { $ref: "#/components/responses/Unauthorized" },
          403: { $ref: "#/components/responses/Forbidden" },
          404: errorAnswer("NOT_FOUND: no such KB (or another user's), or the caller holds no file with these bytes"),
          416: {
            description: "the Range starts past the end (Content-Range bytes */size)",
            headers: { "Content-Range": header("bytes */size"), ...refusedHeaders },
          },
          422: { $ref: "#/components/responses/ValidationError" },
          429: { $ref: "#/components/responses/RateLimited" },
          502: errorAnswer("STORAGE_ERROR: the bytes could not be read"),
        },
      },
    },
  },
};
