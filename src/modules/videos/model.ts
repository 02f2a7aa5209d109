import { t } from "elysia";
import { Enum, Int } from "../../http/envelope.ts";
import { Page } from "../../http/envelope.ts";
import { PlainText } from "../../core/text.ts";
import { ID_PATTERN } from "../../infra/ids.ts";
import { Tags } from "../images/public.ts";
import { CONTAINER_NAMES } from "./containers.ts";
import { VIDEO_STATUSES } from "./table.ts";

const Title = PlainText({ minLength: 1, maxLength: 255, notBlank: true });
const Status = Enum(VIDEO_STATUSES);
const Instant = t.String({ format: "date-time" });

const core = {
  id: t.String({ pattern: ID_PATTERN }),
  title: t.String(),
  filename: t.String(),
  sizeBytes: Int({ description: "bytes of the uploaded original" }),
  status: Status,
  isPublic: t.Boolean(),
  tags: t.Array(t.String()),
};

/** The upload response: always `processing`. */
export const UploadedVideo = t.Object({ ...core, createdAt: Instant, updatedAt: Instant }, { title: "UploadedVideo" });
export type UploadedVideo = typeof UploadedVideo.static;

/** A list item: no playback_url, createdAt only. */
export const VideoListItem = t.Object(
  {
    ...core,
    duration_seconds: t.Optional(t.Number({ description: "once ready" })),
    thumbnail_url: t.Optional(t.String({ description: "once ready, or a custom thumbnail" })),
    placeholder: t.Nullable(
      t.String({ description: "ThumbHash (base64) of the thumbnail, to paint before its bytes arrive; null until made, or when there is none" }),
    ),
    createdAt: Instant,
  },
  { title: "VideoListItem" },
);
export type VideoListItem = typeof VideoListItem.static;

/** The full video. */
export const Video = t.Object(
  {
    ...core,
    duration_seconds: t.Optional(t.Number({ description: "once ready" })),
    playback_url: t.Optional(t.String({ description: "HLS master playlist, once ready; a private video's needs a signature (POST .../sign)" })),
    direct_url: t.Optional(t.String({ description: "progressive MP4, once ready" })),
    thumbnail_url: t.Optional(t.String()),
    placeholder: t.Nullable(t.String({ description: "ThumbHash (base64) of the thumbnail; null until made, or when there is none" })),
    failure_reason: t.Optional(t.String({ description: "why transcoding failed (status failed)" })),
    progress: t.Optional(
      t.Number({ minimum: 0, maximum: 1, description: "while processing: how far transcoding is, 0 to 1, as GET /v1/videos/{id}/status gives it" }),
    ),
    bandwidth_state: t.Optional(Enum(["ok", "degraded", "suspended"], { description: "the owner's video bandwidth state, in GET /v1/videos/{id}" })),
    createdAt: Instant,
    updatedAt: Instant,
  },
  { title: "Video" },
);
export type Video = typeof Video.static;

export const VideoPage = Page(VideoListItem);

export const VideoStatusPoll = t.Object(
  {
    status: Status,
    progress: t.Number({ minimum: 0, maximum: 1 }),
    eta_seconds: t.Nullable(t.Number({ minimum: 0, description: "best effort" })),
  },
  { title: "VideoStatus" },
);
export type VideoStatusPoll = typeof VideoStatusPoll.static;

export const VideoParams = t.Object({ id: t.String({ pattern: ID_PATTERN }) });

export const ListVideosQuery = t.Object({
  cursor: t.Optional(t.String()),
  limit: t.Optional(t.Integer({ minimum: 1, maximum: 50, default: 20 })),
  tag: t.Optional(PlainText({ minLength: 1, maxLength: 32 })),
  status: t.Optional(
    t.String({
      pattern: `^(${VIDEO_STATUSES.join("|")})(,(${VIDEO_STATUSES.join("|")}))*$`,
      description: "one or more of processing, ready, failed, comma-separated",
    }),
  ),
  isPublic: t.Optional(t.Boolean()),
});
export type ListVideosQuery = typeof ListVideosQuery.static;

export const UpdateVideoBody = t.Object(
  { title: t.Optional(Title), isPublic: t.Optional(t.Boolean()), tags: t.Optional(Tags) },
  { additionalProperties: false, minProperties: 1 },
);
export type UpdateVideoBody = typeof UpdateVideoBody.static;

/** Documents the multipart body for the OpenAPI document; the route streams it. */
export const VideoUploadForm = {
  "multipart/form-data": {
    schema: {
      type: "object" as const,
      required: ["file"],
      properties: {
        file: { type: "string" as const, format: "binary", description: `${CONTAINER_NAMES}; at most the plan's video size (pro 500 MB, pro_plus 2 GB)` },
        title: { type: "string" as const, description: "default: the file name" },
        tags: { type: "string" as const, description: 'JSON array of at most 10 tags of at most 32 characters, e.g. ["talks"]' },
        isPublic: { type: "string" as const, enum: ["true", "false"], description: "default true; a private video plays only through a signed URL" },
      },
    },
  },
};

export const ThumbnailForm = {
  "multipart/form-data": {
    schema: {
      type: "object" as const,
      required: ["file"],
      properties: { file: { type: "string" as const, format: "binary", description: "JPEG, PNG or WebP, at most 2 MB; 1280x720 recommended" } },
    },
  },
};

/** One caption track of a video (captions.ts). */
export const CaptionItem = t.Object(
  {
    language: t.String({ description: "its BCP 47 tag, canonical (en, pt-BR)" }),
    label: t.String({ description: "the name players show" }),
    sizeBytes: Int({ description: "bytes of its WebVTT file, counted in image storage" }),
    updatedAt: Instant,
    url: t.String({ description: "its WebVTT file on the media edge (signed for a couple of hours while the video is private)" }),
  },
  { title: "Caption" },
);
export type CaptionItem = typeof CaptionItem.static;
export const CaptionList = t.Object({ items: t.Array(CaptionItem) });
export const CaptionParams = t.Object({ id: t.String({ pattern: ID_PATTERN }), language: t.String({ minLength: 1, maxLength: 64 }) });
export const CaptionQuery = t.Object({ label: t.Optional(t.String({ maxLength: 200 })) });
