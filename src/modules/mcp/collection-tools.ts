// The collection tools: list collections and read one's items, create one, add, remove and
// reorder its items (albums, playlists, series of images, videos and audio).
import { type Static, Type as T } from "@sinclair/typebox";
import { Cursor, Id, Instant, NextCursor, tool } from "./tool.ts";

const Kind = T.Union([T.Literal("image"), T.Literal("video"), T.Literal("audio")]);
const ItemRef = T.Object({ kind: Kind, id: Id }, { additionalProperties: false });
const ItemRefs = (maxItems: number, description: string) => T.Array(ItemRef, { minItems: 1, maxItems, description });

const Collection = T.Object({
  id: T.String(),
  title: T.String(),
  description: T.Union([T.String(), T.Null()]),
  itemCount: T.Integer(),
  coverUrl: T.Union([T.String(), T.Null()], { description: "the cover item's thumbnail" }),
  createdAt: Instant,
  updatedAt: Instant,
});
type Collection = Static<typeof Collection>;

interface ApiCollection {
  id: string;
  title: string;
  description: string | null;
  itemCount: number;
  cover: { thumbnailUrl: string | null } | null;
  createdAt: string;
  updatedAt: string;
}
const fromApi = (c: ApiCollection): Collection => ({
  id: c.id,
  title: c.title,
  description: c.description,
  itemCount: c.itemCount,
  coverUrl: c.cover?.thumbnailUrl ?? null,
  createdAt: c.createdAt,
  updatedAt: c.updatedAt,
});
const line = (c: Collection) => `${c.title} (id ${c.id}): ${c.itemCount} item${c.itemCount === 1 ? "" : "s"}`;

const listCollections = tool({
  name: "list_collections",
  title: "List collections",
  description: "The user's collections (ordered sets of images, videos and audio: albums, playlists, series), newest first, with their item counts.",
  scope: "media.read",
  readOnly: true,
  destructive: false,
  idempotent: true,
  input: T.Object({ cursor: Cursor }, { additionalProperties: false }),
  output: T.Object({ items: T.Array(Collection), nextCursor: NextCursor }),
  async run({ client }, args) {
    const page = await client.call<{ items: ApiCollection[]; nextCursor: string | null }>("GET", "/v1/collections", {
      query: { cursor: args.cursor, limit: 50 },
    });
    const items = page.items.map(fromApi);
    const text = items.length ? items.map((c) => `- ${line(c)}`).join("\n") : "No collections.";
    return { data: { items, nextCursor: page.nextCursor }, text: page.nextCursor ? `${text}\n(more: pass nextCursor)` : text };
  },
});

const Entry = T.Object({
  kind: Kind,
  id: T.String(),
  position: T.Integer(),
  name: T.String({ description: "an image's filename, a video's or audio file's title" }),
  url: T.Union([T.String(), T.Null()], { description: "an image's or audio file's URL; a video's thumbnail" }),
});
type Entry = Static<typeof Entry>;
interface ApiEntry {
  kind: "image" | "video" | "audio";
  id: string;
  position: number;
  item: { filename?: string; title?: string; url?: string; thumbnail_url?: string };
}

const readCollection = tool({
  name: "read_collection",
  title: "Read a collection",
  description: "A collection's items in their order (kind, id, position, name, URL), a page at a time: what reorder_collection needs to name.",
  scope: "media.read",
  readOnly: true,
  destructive: false,
  idempotent: true,
  input: T.Object({ id: Id, cursor: Cursor }, { additionalProperties: false }),
  output: T.Object({ items: T.Array(Entry), nextCursor: NextCursor }),
  async run({ client }, args) {
    const page = await client.call<{ items: ApiEntry[]; nextCursor: string | null }>("GET", `/v1/collections/${args.id}/items`, {
      query: { cursor: args.cursor, limit: 50 },
    });
    const items: Entry[] = page.items.map((e) => ({
      kind: e.kind,
      id: e.id,
      position: e.position,
      name: e.item.title ?? e.item.filename ?? e.id,
      url: (e.kind === "video" ? e.item.thumbnail_url : e.item.url) ?? null,
    }));
    const text = items.length ? items.map((e) => `${e.position}. ${e.kind} ${e.name} (id ${e.id})`).join("\n") : "No items on this page.";
    return { data: { items, nextCursor: page.nextCursor }, text: page.nextCursor ? `${text}\n(more: pass nextCursor)` : text };
  },
});

const createCollection = tool({
  name: "create_collection",
  title: "Create a collection",
  description:
    "Creates a collection with a title, a description and, if given, its first items in order (the user's own images, videos or audio, by kind and id).",
  scope: "media.write",
  readOnly: false,
  destructive: false,
  // Each call makes another collection.
  idempotent: false,
  input: T.Object(
    {
      title: T.String({ minLength: 1, maxLength: 120 }),
      description: T.Optional(T.String({ maxLength: 500 })),
      items: T.Optional(T.Array(ItemRef, { maxItems: 100 })),
    },
    { additionalProperties: false },
  ),
  output: Collection,
  async run({ client }, args) {
    const c = fromApi(await client.call<ApiCollection>("POST", "/v1/collections", { json: args }));
    return { data: c, text: `Created ${line(c)}` };
  },
});

const addToCollection = tool({
  name: "add_to_collection",
  title: "Add to a collection",
  description:
    "Adds the user's items to a collection, at the end or before the item at position (0 is first). All or nothing: an item not found adds nothing. One already in it keeps its place.",
  scope: "media.write",
  readOnly: false,
  destructive: false,
  // Adding the same items again changes nothing.
  idempotent: true,
  input: T.Object(
    { id: Id, items: ItemRefs(100, "1 to 100 items, no repeats"), position: T.Optional(T.Integer({ minimum: 0 })) },
    { additionalProperties: false },
  ),
  output: T.Object({ added: T.Integer(), alreadyIn: T.Integer(), collection: Collection }),
  async run({ client }, args) {
    const r = await client.call<{ added: number; alreadyIn: number; collection: ApiCollection }>("POST", `/v1/collections/${args.id}/items`, {
      json: { items: args.items, position: args.position },
    });
    const collection = fromApi(r.collection);
    return {
      data: { added: r.added, alreadyIn: r.alreadyIn, collection },
      text: `Added ${r.added}${r.alreadyIn ? ` (${r.alreadyIn} already in it)` : ""}: ${line(collection)}`,
    };
  },
});

const removeFromCollection = tool({
  name: "remove_from_collection",
  title: "Remove from a collection",
  description: "Takes items out of a collection; the items themselves stay in the library.",
  scope: "media.write",
  readOnly: false,
  destructive: true,
  idempotent: true,
  input: T.Object({ id: Id, items: ItemRefs(100, "1 to 100 items, no repeats") }, { additionalProperties: false }),
  output: T.Object({ removed: T.Integer(), notIn: T.Integer(), collection: Collection }),
  async run({ client }, args) {
    const r = await client.call<{ removed: number; notIn: number; collection: ApiCollection }>("DELETE", `/v1/collections/${args.id}/items`, {
      json: { items: args.items },
    });
    const collection = fromApi(r.collection);
    return {
      data: { removed: r.removed, notIn: r.notIn, collection },
      text: `Removed ${r.removed}${r.notIn ? ` (${r.notIn} not in it)` : ""}: ${line(collection)}`,
    };
  },
});

const reorderCollection = tool({
  name: "reorder_collection",
  title: "Reorder a collection",
  description: "Puts a collection's items in a new order: name every item of it (read_collection lists them) exactly once, in the order wanted.",
  scope: "media.write",
  readOnly: false,
  // It replaces the order that was there.
  destructive: true,
  idempotent: true,
  input: T.Object({ id: Id, items: ItemRefs(1000, "every item of the collection, each once") }, { additionalProperties: false }),
  output: Collection,
  async run({ client }, args) {
    const c = fromApi(await client.call<ApiCollection>("PUT", `/v1/collections/${args.id}/order`, { json: { items: args.items } }));
    return { data: c, text: `Reordered ${line(c)}` };
  },
});

export const COLLECTION_TOOLS = [listCollections, readCollection, createCollection, addToCollection, removeFromCollection, reorderCollection];
