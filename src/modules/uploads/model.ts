import { t } from "elysia";
import { Enum, Int } from "../../http/envelope.ts";
import { ID_PATTERN } from "../../infra/ids.ts";
import { type OwnPaths, TOUCHES_NO_PART } from "../../http/openapi.ts";
import { UPLOAD_KINDS } from "./table.ts";

export const UploadParams = t.Object({ id: t.String({ pattern: ID_PATTERN }) });

/** What a finished upload made: its kind's own upload answer, with its type, id and a URL. */
const UploadResource = t.Object(
  {
    id: t.String(),
    type: Enum(UPLOAD_KINDS),
    url: t.Optional(
      t.String({ description: "images and audio: the file's public URL; videos: the video's API resource (its playback URL comes once it is ready)" }),
    ),
  },
  { additionalProperties: true, title: "UploadResource" },
);

export const UploadState = t.Object(
  {
    id: t.String(),
    status: Enum(["uploading", "processing", "complete", "failed"], {
      description:
        "uploading: bytes still arriving; processing: every byte is in and the file is going through its kind's pipeline; complete: `resource` exists; failed: the pipeline refused the file (`failure` says why)",
    }),
    kind: Enum(UPLOAD_KINDS),
    offset: Int({ description: "bytes stored so far (Upload-Offset)" }),
    length: Int({ description: "the whole file's bytes (Upload-Length)" }),
    filename: t.String(),
    expiresAt: t.String({ format: "date-time", description: "unfinished by then, the upload expires (Upload-Expires)" }),
    createdAt: t.String({ format: "date-time" }),
    resource: t.Nullable(UploadResource),
    failure: t.Optional(t.Object({ code: t.String(), message: t.String() })),
  },
  { title: "UploadState" },
);
export type UploadState = typeof UploadState.static;

/** The tus headers of an answer, for the OpenAPI document. */
export const TusHeaders = {
  "Tus-Resumable": t.String({ description: "1.0.0, on every answer" }),
};
export const OffsetHeaders = {
  ...TusHeaders,
  "Upload-Offset": Int({ description: "bytes stored so far" }),
};

// Sent to tus discovery, not to a browser's preflight (which the API's CORS rule answers first).
const header = (description: string, type: "string" | "integer" = "string") => ({ required: false, description, schema: { type } });
const cors = (description: string) => ({ required: true, description, schema: { type: "string" } });

/**
 * OPTIONS /v1/uploads, which the generator does not describe: tus discovery, and the
 * CORS preflight of a browser client (no credential), answered as on every /v1 path.
 */
export const optionsDocumentation = (description: string): OwnPaths => {
  const options = {
    tags: ["uploads"],
    summary: "What the tus server supports; also the CORS preflight of a browser client (no credential)",
    description: `${description} A CORS preflight (with Access-Control-Request-Method) is answered with the Access-Control-* headers alone, as on every /v1 path.`,
    [TOUCHES_NO_PART]: true,
    responses: {
      204: {
        description: "No Content",
        headers: {
          "Tus-Resumable": header("1.0.0"),
          "Tus-Version": header("the protocol versions served: 1.0.0"),
          "Tus-Extension": header("creation,creation-with-upload,termination,expiration,checksum"),
          "Tus-Max-Size": header(
            "the largest file any plan takes, or an account archive (MIGRATION_MAX_BYTES), in bytes (each plan's own limit per kind applies at creation)",
            "integer",
          ),
          "Tus-Checksum-Algorithm": header("the Upload-Checksum algorithms taken"),
          "Access-Control-Allow-Origin": cors("*"),
          "Access-Control-Allow-Methods": cors("the methods a page may use"),
          "Access-Control-Allow-Headers": cors("the headers a page may send: Authorization, Content-Type, the tus headers, ..."),
          "Access-Control-Max-Age": cors("seconds a browser may keep the answer"),
        },
      },
    },
  };
  return {
    paths: {
      "/v1/uploads": { options },
      "/v1/uploads/{id}": { options: { ...options, summary: "The same, at an upload's URL (where a browser's preflight of its PATCH, HEAD or DELETE goes)" } },
    },
  };
};

/** The bytes of a PATCH, or of a POST that carries the first ones. */
export const OffsetStream = {
  "application/offset+octet-stream": { schema: { type: "string", format: "binary" } },
} as const;
