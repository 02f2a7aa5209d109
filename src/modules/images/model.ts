import { t } from "elysia";
import { PlainText } from "../../core/text.ts";
import { Int, Page } from "../../http/envelope.ts";
import { IMAGE_ID_PATTERN } from "../../infra/ids.ts";
import { FORMAT_NAMES } from "./formats.ts";

/** At most 10 tags of at most 32 characters (shared by upload and update): not blank, no control or bidi characters. */
export const Tags = t.Array(PlainText({ minLength: 1, maxLength: 32, notBlank: true }), {
  maxItems: 10,
  uniqueItems: true,
});
/** The tag rule in words, for a form's refusal. */
export const TAGS_RULE = "at most 10, each 1 to 32 characters, no repeats";
/** A new name for an image: one path segment, no control or bidi characters. */
const Filename = PlainText({ minLength: 1, maxLength: 255, alsoRefuse: "/\\\\" });

const core = {
  id: t.String({ pattern: IMAGE_ID_PATTERN }),
  url: t.String({ description: "permanent public URL: MEDIA_URL/<id>.<ext>" }),
  filename: t.String(),
  size: Int({ description: "bytes of the stored original (metadata stripped)" }),
  width: Int(),
  height: Int(),
};

/** The upload response. */
export const UploadedImage = t.Object({ ...core, created_at: t.String({ format: "date-time" }) }, { title: "UploadedImage" });
export type UploadedImage = typeof UploadedImage.static;

/** List items, GET one and PATCH: the upload's fields plus is_public and tags. */
export const ImageItem = t.Object(
  {
    ...core,
    is_public: t.Boolean(),
    tags: t.Array(t.String()),
    thumbnail_url: t.String({
      description: "a small variant for lists: url?w=256 (the shape kept; an SVG's url as it is); any allowed size works the same way",
    }),
    placeholder: t.Nullable(
      t.String({ description: "ThumbHash (base64, about 30 characters) to paint before the bytes arrive; null until made, or when the picture gives none" }),
    ),
    created_at: t.String({ format: "date-time" }),
  },
  { title: "Image" },
);
export type ImageItem = typeof ImageItem.static;

export const ImagePage = Page(ImageItem, { total: Int({ description: "all images in the library" }) });

export const ImageParams = t.Object({ id: t.String({ pattern: IMAGE_ID_PATTERN }) });

export const ListImagesQuery = t.Object({
  cursor: t.Optional(t.String()),
  limit: t.Optional(t.Integer({ minimum: 1, maximum: 100, default: 20 })),
  tag: t.Optional(PlainText({ minLength: 1, maxLength: 32 })),
});

export const UpdateImageBody = t.Object(
  { filename: t.Optional(Filename), is_public: t.Optional(t.Boolean()), tags: t.Optional(Tags) },
  { additionalProperties: false, minProperties: 1 },
);
export type UpdateImageBody = typeof UpdateImageBody.static;

/** Documents the multipart body for the OpenAPI document; the route reads it as a stream. */
export const UploadForm = {
  "multipart/form-data": {
    schema: {
      type: "object" as const,
      required: ["file"],
      properties: {
        file: { type: "string" as const, format: "binary", description: `${FORMAT_NAMES}; at most 50 MB (SVG 10 MB)` },
        tags: { type: "string" as const, description: 'JSON array of at most 10 tags of at most 32 characters, e.g. ["cats","2024"]' },
        is_public: { type: "string" as const, enum: ["true", "false"], description: "default true; a private image is not served to anonymous requests" },
      },
    },
  },
};
