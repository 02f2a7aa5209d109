// The shapes of /v1/collections: a collection, its items in order, and the bodies that
// create, change, fill and order one.
import { t } from "elysia";
import { PlainText } from "../../core/text.ts";
import { Enum, Int, Page } from "../../http/envelope.ts";
import { ID_PATTERN } from "../../infra/ids.ts";
import { AudioItem } from "../audio/public.ts";
import { ImageItem } from "../images/public.ts";
import { VideoListItem } from "../videos/public.ts";
import { COLLECTION_LIMITS as L } from "./limits.ts";
import { ITEM_KINDS } from "./table.ts";

const Instant = t.String({ format: "date-time" });
const Kind = Enum(ITEM_KINDS, { description: "image, video or audio" });
/** An image's id (11 characters) or a video's or audio file's (21). */
const MediaId = t.String({ pattern: "^[A-Za-z0-9_-]{11}(?:[A-Za-z0-9_-]{10})?$" });
const Title = PlainText({ minLength: 1, maxLength: L.titleChars, notBlank: true });
const Description = t.Nullable(PlainText({ maxLength: L.descriptionChars }));

/** One item named by its kind and id. */
const ItemRef = t.Object({ kind: Kind, id: MediaId }, { additionalProperties: false });
const ItemRefs = (maxItems: number, description: string, minItems = 1) => t.Array(ItemRef, { minItems, maxItems, description });

export const Collection = t.Object(
  {
    id: t.String({ pattern: ID_PATTERN }),
    title: t.String(),
    description: t.Nullable(t.String()),
    itemCount: Int({ description: "items its listing shows (one deleted since is not counted)" }),
    cover: t.Nullable(
      t.Object({
        kind: Kind,
        id: t.String(),
        thumbnailUrl: t.Nullable(t.String({ description: "the item's thumbnail; null for a video without one yet" })),
        chosen: t.Boolean({ description: "true when set by PATCH; false when it is the first item, shown for want of one" }),
      }),
      { description: "null when the collection has no item" },
    ),
    createdAt: Instant,
    updatedAt: Instant,
  },
  { title: "Collection" },
);
export type Collection = typeof Collection.static;

export const CollectionPage = Page(Collection);

export const CollectionEntry = t.Object(
  {
    kind: Kind,
    id: t.String(),
    position: Int({ description: "its place in the order, from 0" }),
    addedAt: Instant,
    item: t.Union([ImageItem, VideoListItem, AudioItem], {
      description:
        "the item as its kind lists it: an image as GET /v1/images/{id}, a video as GET /v1/videos lists it, an audio file as GET /v1/media lists it",
    }),
  },
  { title: "CollectionEntry" },
);
export type CollectionEntry = typeof CollectionEntry.static;
export const CollectionEntryPage = Page(CollectionEntry);

export const CollectionParams = t.Object({ id: t.String({ pattern: ID_PATTERN }) });

export const ListQuery = t.Object({
  cursor: t.Optional(t.String()),
  limit: t.Optional(t.Integer({ minimum: 1, maximum: L.pageMax, default: 20 })),
});

export const CreateCollectionBody = t.Object(
  {
    title: Title,
    description: t.Optional(Description),
    items: t.Optional(ItemRefs(L.itemsPerRequest, `its first items, in order (at most ${L.itemsPerRequest}, no repeats)`, 0)),
  },
  { additionalProperties: false },
);
export type CreateCollectionBody = typeof CreateCollectionBody.static;

export const UpdateCollectionBody = t.Object(
  {
    title: t.Optional(Title),
    description: t.Optional(Description),
    cover: t.Optional(t.Nullable(ItemRef, { description: "an item of the collection (409 COLLECTION_COVER_NOT_ITEM otherwise); null: the first item" })),
  },
  { additionalProperties: false, minProperties: 1 },
);
export type UpdateCollectionBody = typeof UpdateCollectionBody.static;

export const AddItemsBody = t.Object(
  {
    items: ItemRefs(L.itemsPerRequest, `at most ${L.itemsPerRequest}, no repeats; one already in the collection keeps its place`),
    position: t.Optional(Int({ minimum: 0, description: "where the first goes (0: first); past the end, or absent: at the end" })),
  },
  { additionalProperties: false },
);
export type AddItemsBody = typeof AddItemsBody.static;

export const RemoveItemsBody = t.Object(
  { items: ItemRefs(L.itemsPerRequest, `at most ${L.itemsPerRequest}, no repeats; one not in the collection is passed by`) },
  { additionalProperties: false },
);
export type RemoveItemsBody = typeof RemoveItemsBody.static;

export const OrderBody = t.Object(
  { items: ItemRefs(L.itemsPerCollection, "every item of the collection, each once, in the new order") },
  { additionalProperties: false },
);
export type OrderBody = typeof OrderBody.static;

export const AddItemsResult = t.Object({
  added: Int({ description: "items put in" }),
  alreadyIn: Int({ description: "items that were in it already (left where they were)" }),
  collection: Collection,
});
export const RemoveItemsResult = t.Object({
  removed: Int({ description: "items taken out" }),
  notIn: Int({ description: "items named that were not in it" }),
  collection: Collection,
});
