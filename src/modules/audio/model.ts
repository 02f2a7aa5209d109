import { t } from "elysia";
import { Int } from "../../http/envelope.ts";
import { PlainText } from "../../core/text.ts";
import { ID_PATTERN } from "../../infra/ids.ts";
import { FORMAT_NAMES } from "./formats.ts";

const Title = PlainText({ minLength: 1, maxLength: 255, notBlank: true });
const Instant = t.String({ format: "date-time" });

/** The audio resource, also an item of the unified media listing. */
export const AudioItem = t.Object(
  {
    id: t.String({ pattern: ID_PATTERN }),
    type: t.Literal("audio"),
    url: t.String({ description: "plays at once on the media edge (ranges); a private file only with its owner's credential" }),
    filename: t.String(),
    sizeBytes: Int({ description: "bytes of the stored file" }),
    mimeType: t.String({ description: "from the file's bytes, not the name or the declared type" }),
    title: t.String(),
    thumbnailUrl: t.String({ description: "the embedded cover (JPEG), else the format's default SVG" }),
    placeholder: t.Nullable(
      t.String({ description: "ThumbHash (base64) of the cover, to paint before its bytes arrive; null when there is no cover, or until made" }),
    ),
    durationSeconds: t.Nullable(t.Number({ description: "null when the file does not say" })),
    bitrate: t.Nullable(Int({ description: "kbps; null when the file does not say" })),
    status: t.Literal("ready"),
    isPublic: t.Boolean(),
    createdAt: Instant,
  },
  { title: "AudioItem" },
);
export type AudioItem = typeof AudioItem.static;

/** GET /v1/audio/{id}: the resource plus what else the file said about itself. */
export const Audio = t.Object(
  {
    ...AudioItem.properties,
    sampleRate: t.Nullable(Int({ description: "Hz" })),
    channels: t.Nullable(Int()),
    codec: t.Nullable(t.String()),
    tags: t.Object(
      {
        title: t.Optional(t.String()),
        artist: t.Optional(t.String()),
        album: t.Optional(t.String()),
        albumArtist: t.Optional(t.String()),
        genre: t.Optional(t.String()),
        year: t.Optional(Int()),
        track: t.Optional(Int()),
      },
      { description: "the file's own tags, as read at upload" },
    ),
    updatedAt: Instant,
  },
  { title: "Audio" },
);
export type Audio = typeof Audio.static;

export const AudioParams = t.Object({ id: t.String({ pattern: ID_PATTERN }) });

/** Both fields optional; `{}` changes nothing. isPublic is taken as well as is_public. */
export const UpdateAudioBody = t.Object(
  { title: t.Optional(Title), is_public: t.Optional(t.Boolean()), isPublic: t.Optional(t.Boolean()) },
  { additionalProperties: false },
);
export type UpdateAudioBody = typeof UpdateAudioBody.static;

/** Documents the multipart body for the OpenAPI document; the route streams it. */
export const AudioUploadForm = {
  "multipart/form-data": {
    schema: {
      type: "object" as const,
      required: ["file"],
      properties: {
        file: {
          type: "string" as const,
          format: "binary",
          description: `${FORMAT_NAMES}, told by its first bytes; at most the plan's audio size and duration (trial 50 MB / 10 min, pro 100 MB / 1 h, pro_plus 500 MB / 4 h)`,
        },
        title: { type: "string" as const, description: "at most 255 characters; default: the title the file's tags carry, else the file name" },
        isPublic: { type: "string" as const, enum: ["true", "false"], description: "default true; a private file plays only for its owner" },
      },
    },
  },
};
