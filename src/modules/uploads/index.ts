// /v1/uploads: resumable uploads (tus 1.0.0 with creation, creation-with-upload,
// termination, expiration and checksum) for videos, audio and images, plus GET of an
// upload's state. Every answer carries Tus-Resumable (and, as every /v1 answer, the CORS
// headers a browser client needs to read the tus headers: http/cors.ts); errors keep the
// envelope with the status tus fixes.
import { depsAt } from "../../http/addresses.ts";
import { Elysia, t } from "elysia";
import { Int, NoContent, Ok, ok, sharedModels } from "../../http/envelope.ts";
import { OWN_PATHS, withHeaders } from "../../http/openapi.ts";
import type { RouteServices } from "../../wiring/services.ts";
import { OffsetHeaders, OffsetStream, optionsDocumentation, TusHeaders, UploadParams, UploadState } from "./model.ts";
import { appendToUpload, beginUpload, liveUpload, terminateUpload, toState, uploadFailed } from "./service.ts";
import type { Resource } from "./kinds.ts";
import type { UploadRow } from "./table.ts";
import {
  assertTusVersion,
  CHECKSUM_ALGORITHMS,
  commonHeaders,
  formatMetadata,
  intHeader,
  OFFSET_STREAM,
  parseChecksum,
  parseMetadata,
  TUS_EXTENSIONS,
  TUS_VERSION,
} from "./tus.ts";
import { AppError } from "../../core/errors.ts";
import { declaredLength, lingeringClose } from "../../http/body-limit.ts";

const PREFIX = "/v1/uploads";

/** A refused POST or PATCH closes its connection after a lingering read of its body (http/body-limit.ts). */
async function closingOnError<T>(request: Request, headers: Record<string, unknown>, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (e) {
    await lingeringClose(request);
    headers.connection = "close";
    throw e;
  }
}

export const uploadsModule = ({ deps, guard, buckets, contentDeps: kindDeps }: RouteServices) => {
  // An absolute path (RFC 9110 allows it; tus clients resolve it against the endpoint
  // they posted to): right on whichever host or node the client reached, under
  // PUBLIC_URL's own path when the API is served below one.
  const base = new URL(deps.config.PUBLIC_URL).pathname.replace(/\/+$/, "");
  const location = (id: string) => `${base}${PREFIX}/${id}`;
  const offsetHeaders = (row: UploadRow) => ({
    "upload-offset": String(row.offset),
    ...(row.status === "uploading" && { "upload-expires": row.expiresAt.toUTCString() }),
  });
  const resourceHeaders = (r: Resource | undefined): Record<string, string> => (r ? { "x-resource-id": r.id, "x-resource-url": r.url } : {});
  const isOffsetStream = (request: Request) => (request.headers.get("content-type") ?? "").split(";")[0]!.trim().toLowerCase() === OFFSET_STREAM;
  /** A body that is not application/offset+octet-stream: 415, unread. */
  const assertOffsetStream = (request: Request) => {
    if (!isOffsetStream(request)) {
      throw new AppError("UNSUPPORTED_MEDIA_TYPE", `the body must be ${OFFSET_STREAM}`);
    }
  };
  const checksumAndBody = (request: Request) => ({
    checksum: parseChecksum(request.headers.get("upload-checksum")),
    body: request.body,
    declared: declaredLength(request),
  });
  const maxSize = () => {
    const plans = Object.values(deps.plans);
    return Math.max(...plans.flatMap((p) => [p.videoMaxBytes, p.audioMaxBytes, p.imageMaxBytes]), deps.config.MIGRATION_MAX_BYTES);
  };

  // OPTIONS is not a method the document generator describes: it documents itself.
  const optionsDetail = {
    hide: true,
    [OWN_PATHS]: optionsDocumentation(
      `Tus-Version ${TUS_VERSION}; Tus-Extension ${TUS_EXTENSIONS}; Tus-Max-Size: the largest file any plan takes, or an archive (MIGRATION_MAX_BYTES); Tus-Checksum-Algorithm ${CHECKSUM_ALGORITHMS.join(",")}. Access-Control-Allow-Origin is *: the credential is a Bearer header, never a cookie.`,
    ),
  };

  return (
    new Elysia({ name: "uploads", prefix: PREFIX, detail: { tags: ["uploads"] } })
      .use(sharedModels)
      // Before the guard's check: a 401 carries the tus header too.
      .onTransform({ as: "local" }, ({ set }) => void Object.assign(set.headers, commonHeaders()))
      .use(guard)
      .options("", ({ set }) => discovery(set), { detail: optionsDetail })
      // A browser's preflight of a PATCH, HEAD or DELETE asks the upload's own URL.
      .options("/:id", ({ set }) => discovery(set), { detail: { hide: true } })
      .post(
        "",
        ({ principal, request, set }) =>
          closingOnError(request, set.headers, async () => {
            assertTusVersion(request);
            const length = intHeader(request, "upload-length");
            if (length === undefined)
              throw new AppError("BAD_REQUEST", "Upload-Length is required (Upload-Defer-Length is not supported)", { header: "upload-length" });
            // creation-with-upload: a body of the tus type carries the first bytes; any other is dropped.
            const hasBody = isOffsetStream(request) && request.body !== null;
            if (!hasBody) await request.body?.cancel().catch(() => {});
            const metadata = parseMetadata(request.headers.get("upload-metadata"));
            // An archive's import makes documents too: it needs what POST /v1/migration needs.
            if (metadata.kind === "archive" && !principal.scopes.includes("kb.write")) {
              throw new AppError(principal.via === "oauth" ? "OAUTH_SCOPE_INSUFFICIENT" : "FORBIDDEN", "an archive upload needs the kb.write scope", {
                required: "kb.write",
              });
            }
            // The creation is the upload's one charge (its PATCHes are not): a video's also queues a transcode.
            if (metadata.kind === "video") await buckets.take(principal.userId, "transcode");
            await buckets.take(principal.userId, "upload");
            const { row, resource } = await beginUpload(
              depsAt(kindDeps, request),
              principal.userId,
              length,
              metadata,
              hasBody ? () => checksumAndBody(request) : undefined,
            );
            Object.assign(set.headers, { location: location(row.id), ...offsetHeaders(row), ...resourceHeaders(resource) });
            set.status = 201;
          }),
        {
          auth: { scope: "media.write", tier: "upload" },
          parse: "none",
          response: {
            201: withHeaders(NoContent, { ...OffsetHeaders, Location: t.String({ description: "the upload's URL, as an absolute path" }) }),
            400: "Error",
            409: "Error",
            412: "Error",
            413: "Error",
            415: "Error",
            422: "Error",
            451: "Error",
            460: "Error",
            502: "Error",
            503: "Error",
          },
          detail: {
            summary: "Create a resumable upload (tus creation; creation-with-upload takes the first bytes)",
            description:
              "Headers: Tus-Resumable 1.0.0, Upload-Length, Upload-Metadata (base64 values): `kind` (video, audio or image) and `filename` required; `title`, `isPublic`, `tags` (JSON array) optional. " +
              "Refused before a byte is taken as the kind's own upload route refuses: a trial plan's video 403 PLAN_REQUIRED, a plan without audio 403 FORBIDDEN, over the plan's size 413 FILE_TOO_LARGE, no room for Upload-Length 403 QUOTA_EXCEEDED, no upload left today 429. " +
              "Upload-Length is held in media_storage (img_storage for an image) until the upload completes, is terminated or expires. Answers Location, Upload-Offset and, while unfinished, Upload-Expires.",
            requestBody: { required: false, content: OffsetStream },
          },
        },
      )
      // Elysia answers a HEAD of a path with parameters from the GET route of that path
      // (its handler, hooks and guard) even when a HEAD route exists: both routes answer
      // a HEAD through stateAnswer, and this one documents it.
      .head("/:id", ({ principal, params, request, set }) => stateAnswer(principal.userId, params.id, request, set.headers), {
        auth: { scope: "media.write", tier: "read" },
        params: UploadParams,
        response: { 200: withHeaders(Ok(UploadState), { ...OffsetHeaders, "Upload-Length": Int() }), 404: "Error", 410: "Error", 412: "Error" },
        detail: {
          summary:
            "An upload's offset (tus): Upload-Offset, Upload-Length, Upload-Metadata, Upload-Expires; 410 once expired (UPLOAD_EXPIRED) or failed (UPLOAD_FAILED)",
        },
      })
      .patch(
        "/:id",
        ({ principal, params, request, set }) =>
          closingOnError(request, set.headers, async () => {
            assertTusVersion(request);
            assertOffsetStream(request);
            const offset = intHeader(request, "upload-offset");
            if (offset === undefined) throw new AppError("BAD_REQUEST", "Upload-Offset is required", { header: "upload-offset" });
            const { row, resource, replayed } = await appendToUpload(depsAt(kindDeps, request), principal.userId, params.id, {
              offset,
              ...checksumAndBody(request),
            });
            Object.assign(set.headers, { ...offsetHeaders(row), ...resourceHeaders(resource), ...(replayed && (await lingeringClose(request))) });
            set.status = 204;
          }),
        {
          // The bytes were admitted when the upload was created (the upload tier); a large
          // file takes hundreds of PATCHes, so they count on the roomiest tier (600 a
          // minute: 4.8 GB a minute in 8 MiB PATCHes), which still bounds a flood.
          auth: { scope: "media.write", tier: "read" },
          params: UploadParams,
          parse: "none",
          response: {
            204: withHeaders(NoContent, OffsetHeaders),
            400: "Error",
            403: "Error",
            404: "Error",
            409: "Error",
            410: "Error",
            412: "Error",
            413: "Error",
            415: "Error",
            422: "Error",
            429: "Error",
            451: "Error",
            460: "Error",
            502: "Error",
            503: "Error",
          },
          detail: {
            summary: "Append bytes at Upload-Offset (tus); the last ones finish the upload",
            description:
              "Content-Type application/offset+octet-stream; Upload-Offset must be the upload's offset (409 CONFLICT with meta.offset otherwise, or while another PATCH to it runs). " +
              `Upload-Checksum (${CHECKSUM_ALGORITHMS.join(", ")}) is checked before the bytes count: 460 CHECKSUM_MISMATCH keeps none of them. ` +
              "The PATCH that brings the last byte answers once the file went through its kind's pipeline (a video is then processing; audio and images are ready), with X-Resource-Id and X-Resource-Url naming what it made; a refusal of the pipeline (422 INVALID_FILE_TYPE, 451) fails the upload and gives its storage back.",
            requestBody: { required: true, content: OffsetStream },
          },
        },
      )
      .delete(
        "/:id",
        async ({ principal, params, request, set }) => {
          assertTusVersion(request);
          await terminateUpload(deps, principal.userId, params.id);
          set.status = 204;
        },
        {
          auth: { scope: "media.write", tier: "mutation" },
          params: UploadParams,
          response: { 204: withHeaders(NoContent, TusHeaders), 404: "Error", 409: "Error", 412: "Error" },
          detail: { summary: "Terminate an upload (tus termination): its bytes deleted, its held storage given back; 409 once complete" },
        },
      )
      .get("/:id", ({ principal, params, request, set }) => stateAnswer(principal.userId, params.id, request, set.headers), {
        auth: { scope: "media.write", tier: "read" },
        params: UploadParams,
        response: { 200: Ok(UploadState), 404: "Error", 410: "Error", 412: "Error" },
        detail: {
          summary: "An upload's state, and what it made once complete",
          description:
            "For a client that lost the last PATCH's answer: `resource` names the video, audio or image the upload made. 410 UPLOAD_EXPIRED once an unfinished upload expired.",
        },
      })
  );

  /** OPTIONS: what the server supports (a browser's preflight is answered before it: http/cors.ts). */
  function discovery(set: { headers: Record<string, unknown>; status?: number | string }) {
    Object.assign(set.headers, {
      "tus-version": TUS_VERSION,
      "tus-extension": TUS_EXTENSIONS,
      "tus-max-size": String(maxSize()),
      "tus-checksum-algorithm": CHECKSUM_ALGORITHMS.join(","),
    });
    set.status = 204;
  }

  /** GET: the state; HEAD (tus) the same with the offset and the rest in headers (the body is dropped). */
  async function stateAnswer(userId: string, id: string, request: Request, headers: Record<string, unknown>) {
    const head = request.method === "HEAD";
    if (head) assertTusVersion(request);
    const row = await liveUpload(deps, userId, id);
    if (head && row.status === "failed") throw uploadFailed(row);
    if (head) {
      Object.assign(headers, {
        ...offsetHeaders(row),
        "upload-length": String(row.length),
        "upload-metadata": formatMetadata(row.metadata),
        ...resourceHeaders(row.resource as Resource | undefined),
      });
    }
    return ok(toState(row));
  }
};
