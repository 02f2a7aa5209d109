// The unified media listing's shapes: an item of any kind, each carrying its `type`, and
// the batch delete's request and per-id results.
import { t } from "elysia";
import { Enum, Page } from "../../http/envelope.ts";
import { ID_PATTERN } from "../../infra/ids.ts";
import { AudioItem } from "../audio/public.ts";
import { VideoListItem } from "../videos/public.ts";

/** The kinds, in the order items of one instant are listed. */
export const MEDIA_TYPES = ["video", "audio"] as const;
export type MediaType = (typeof MEDIA_TYPES)[number];

/** A video as GET /v1/videos lists it, plus `type`. */
const VideoMediaItem = t.Object({ type: t.Literal("video"), ...VideoListItem.properties }, { title: "VideoMediaItem" });

export const MediaPage = Page(t.Union([VideoMediaItem, AudioItem]));

export const ListMediaQuery = t.Object({
  type: t.Optional(Enum(MEDIA_TYPES, { description: "one kind only; both when absent" })),
  cursor: t.Optional(t.String()),
  limit: t.Optional(t.Integer({ minimum: 1, maximum: 50, default: 20 })),
});
export type ListMediaQuery = typeof ListMediaQuery.static;

export const MediaIdsBody = t.Object(
  { ids: t.Array(t.String({ pattern: ID_PATTERN }), { minItems: 1, maxItems: 50, uniqueItems: true, description: "1 to 50 distinct video or audio ids" }) },
  { additionalProperties: false },
);

export const MediaBatchDeleteResult = t.Object({
  results: t.Array(
    t.Object({
      id: t.String(),
      type: t.Optional(Enum(MEDIA_TYPES, { description: "the kind deleted; absent when nothing of the caller's has the id" })),
      deleted: t.Boolean(),
      reason: t.Optional(t.Literal("NOT_FOUND")),
    }),
    { description: "one per requested id, in request order" },
  ),
});
export type MediaBatchDeleteResult = typeof MediaBatchDeleteResult.static;
