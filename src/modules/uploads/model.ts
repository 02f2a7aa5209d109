import { t } from "elysia";
import { Enum, Int } from "../../http/envelope.ts";
import { ID_PATTERN } from "../../infra/ids.ts";
import { UPLOAD_KINDS } from "./table.ts";

export const UploadParams = t.Object({ id: t.String({ pattern: ID_PATTERN }) });

/** What a finished upload made: its kind's own upload answer, with its type, id and a URL. */
const UploadResource = t.Object(
  {
    id: t.String(),
    type: Enum(UPLOAD_KINDS),
    url: t.Optional(t.String({ description: "images and audio: the file's public URL; videos: the video's API resource (its playback URL comes once it is ready)" })),
  },
  { additionalProperties: true, title: "UploadResource" },
);

export const UploadState = t.Object(
  {
    id: t.String(),
    status: Enum(["uploading", "processing", "complete", "failed"], {
      description: "uploading: bytes still arriving; processing: every byte is in and the file is going through its kind's pipeline; complete: `resource` exists; failed: the pipeline refused the file (`failure` says why)",
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
  "Upload-Offset": t.Integer({ description: "bytes stored so far" }),
  "Upload-Expires": t.String({ description: "RFC 9110 date after which an unfinished upload is gone" }),
};

/** The bytes of a PATCH, or of a POST that carries the first ones. */
export const OffsetStream = {
  "application/offset+octet-stream": { schema: { type: "string", format: "binary" } },
} as const;
