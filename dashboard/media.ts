// The four kinds of the library as one shape, and where each lives in the public API:
// images (/v1/images), videos and audio (the unified listing /v1/media, and each kind's own
// routes), documents (/v1/docs). The listings are merged newest first by the library.
import { type Answer, call, type Sent } from "./api.ts";

export type Kind = "image" | "video" | "audio" | "doc";

type ImageRaw = Answer<"/v1/images/{id}", "get">;
type DocRaw = Answer<"/v1/docs/{id}", "get">;
// A listing gives less than an item's own GET: a video's playback URL, progress, failure
// reason and bandwidth state, and an audio file's own tags, come with the item alone. So a
// video or audio file is its listed shape, with what its GET adds there once it was read
// (the dialog reads it; a tile has the listing's).
export type VideoRaw = Answer<"/v1/videos", "get">["items"][number] & Partial<Answer<"/v1/videos/{id}", "get">>;
export type AudioRaw = Extract<Answer<"/v1/media", "get">["items"][number], { type: "audio" }> & Partial<Answer<"/v1/audio/{id}", "get">>;

interface Common {
  id: string;
  title: string;
  createdAt: string;
  size: number;
  isPublic: boolean;
  /** null: the kind has no tags (audio). */
  tags: string[] | null;
}

/** What the library shows of any item; `raw` is the API's own object of that kind. */
export type Item = Common &
  ({ kind: "image"; raw: ImageRaw } | { kind: "video"; raw: VideoRaw } | { kind: "audio"; raw: AudioRaw } | { kind: "doc"; raw: DocRaw });

interface ItemPage {
  items: Item[];
  next: string | null;
}

/** A listing of one or more kinds, one cursor page at a time. */
export type Source = (cursor: string | null, limit: number) => Promise<ItemPage>;

export const KIND_WORDS: Record<Kind, { one: string; many: string }> = {
  image: { one: "image", many: "images" },
  video: { one: "video", many: "videos" },
  audio: { one: "audio file", many: "audio files" },
  doc: { one: "document", many: "documents" },
};

// Each kind's object as an Item: the kinds name their fields differently.
const image = (r: ImageRaw): Item => ({
  kind: "image",
  id: r.id,
  title: r.filename,
  createdAt: r.created_at,
  size: r.size,
  isPublic: r.is_public,
  tags: r.tags,
  raw: r,
});
const video = (r: VideoRaw): Item => ({
  kind: "video",
  id: r.id,
  title: r.title,
  createdAt: r.createdAt,
  size: r.sizeBytes,
  isPublic: r.isPublic,
  tags: r.tags,
  raw: r,
});
const audio = (r: AudioRaw): Item => ({
  kind: "audio",
  id: r.id,
  title: r.title,
  createdAt: r.createdAt,
  size: r.sizeBytes,
  isPublic: r.isPublic,
  tags: null,
  raw: r,
});
const doc = (r: DocRaw): Item => ({
  kind: "doc",
  id: r.id,
  title: r.title,
  createdAt: r.createdAt,
  size: r.sizeBytes,
  isPublic: r.isPublic,
  tags: r.tags,
  raw: r,
});

const query = (o: Record<string, string | number | null | undefined>) => {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(o)) if (v !== null && v !== undefined && v !== "") q.set(k, String(v));
  return q.toString();
};

/** GET one listing (`L`: its answer) and shape each of its items. */
const listing =
  <L extends { items: unknown[]; nextCursor: string | null }>(path: string, params: Record<string, string>, shape: (raw: L["items"][number]) => Item): Source =>
  async (cursor, limit) => {
    const page = await call<L>("GET", `${path}?${query({ ...params, limit, cursor })}`);
    return { items: page.items.map(shape), next: page.nextCursor };
  };

export const sources = {
  images: (tag: string) => listing<Answer<"/v1/images", "get">>("/v1/images", { tag }, image),
  /** The unified listing of videos and audio (no tag filter: the listing has none); each item says its kind. */
  media: (type?: "video" | "audio") =>
    listing<Answer<"/v1/media", "get">>("/v1/media", type ? { type } : {}, (r) => (r.type === "audio" ? audio(r) : video(r))),
  /** Videos with a tag: the videos' own listing filters by tag. */
  videosTagged: (tag: string) => listing<Answer<"/v1/videos", "get">>("/v1/videos", { tag }, video),
  /**
   * Documents; `q` matches their titles (the only listing with a search). Those that live in
   * a knowledge base belong to it (a synced folder of notes may hold hundreds), so they are
   * left out unless `withKb`.
   */
  docs: (tag: string, q: string, withKb: boolean) => listing<Answer<"/v1/docs", "get">>("/v1/docs", { tag, q, ...(withKb ? {} : { inKb: "false" }) }, doc),
};

/** The kind's own route for one item. */
const itemPath = (item: Pick<Item, "kind" | "id">) =>
  ({ image: "/v1/images/", video: "/v1/videos/", audio: "/v1/audio/", doc: "/v1/docs/" })[item.kind] + item.id;

/** A document as an item, by its id (a search hit carries less than the item the dialog shows). */
export const docById = async (id: string) => doc(await call<Answer<"/v1/docs/{id}", "get">>("GET", itemPath({ kind: "doc", id })));

/** The fresh full item (a video's playback URL, progress and failure reason; an audio file's tags). */
export async function fetchItem(item: Item): Promise<Item> {
  const path = itemPath(item);
  switch (item.kind) {
    case "image":
      return image(await call<Answer<"/v1/images/{id}", "get">>("GET", path));
    case "video":
      return video(await call<Answer<"/v1/videos/{id}", "get">>("GET", path));
    case "audio":
      return audio(await call<Answer<"/v1/audio/{id}", "get">>("GET", path));
    case "doc":
      return doc(await call<Answer<"/v1/docs/{id}", "get">>("GET", path));
  }
}

/** The kind's PATCH, with the field names that kind's route takes. */
export async function saveItem(item: Item, change: { title: string; isPublic: boolean; tags: string[] }): Promise<Item> {
  const path = itemPath(item);
  switch (item.kind) {
    case "image": {
      const body: Sent<"/v1/images/{id}", "patch"> = { filename: change.title, is_public: change.isPublic, tags: change.tags };
      return image(await call<Answer<"/v1/images/{id}", "patch">>("PATCH", path, body));
    }
    case "video": {
      const body: Sent<"/v1/videos/{id}", "patch"> = { title: change.title, isPublic: change.isPublic, tags: change.tags };
      return video(await call<Answer<"/v1/videos/{id}", "patch">>("PATCH", path, body));
    }
    case "audio": {
      const body: Sent<"/v1/audio/{id}", "patch"> = { title: change.title, is_public: change.isPublic };
      return audio(await call<Answer<"/v1/audio/{id}", "patch">>("PATCH", path, body));
    }
    case "doc": {
      const body: Sent<"/v1/docs/{id}", "patch"> = { title: change.title, isPublic: change.isPublic, tags: change.tags };
      return doc(await call<Answer<"/v1/docs/{id}", "patch">>("PATCH", path, body));
    }
  }
}

export const deleteItem = (item: Item) => call("DELETE", itemPath(item));

/** What a batch route answers: for each id, whether it was deleted. */
type Deleted = Answer<"/v1/media", "delete"> | Answer<"/v1/docs", "delete">;

/**
 * Deletes several items, each kind by its batch route (videos and audio: DELETE /v1/media;
 * documents: DELETE /v1/docs; 50 ids a call); images have no batch route and go one by
 * one. Answers the ids deleted.
 */
export async function deleteItems(items: Item[]): Promise<Set<string>> {
  const gone = new Set<string>();
  const batch = async (path: string, ids: string[]) => {
    for (let i = 0; i < ids.length; i += 50) {
      const r = await call<Deleted>("DELETE", path, { ids: ids.slice(i, i + 50) });
      for (const x of r.results) if (x.deleted) gone.add(x.id);
    }
  };
  const ids = (kinds: Kind[]) => items.filter((i) => kinds.includes(i.kind)).map((i) => i.id);
  const media = ids(["video", "audio"]);
  const docs = ids(["doc"]);
  if (media.length) await batch("/v1/media", media);
  if (docs.length) await batch("/v1/docs", docs);
  for (const id of ids(["image"])) {
    await call("DELETE", `/v1/images/${id}`);
    gone.add(id);
  }
  return gone;
}

/** Seconds as a clock: 1:05, 1:02:03. */
export function duration(s: number | null | undefined): string {
  if (s === null || s === undefined) return "";
  const t = Math.round(s);
  const [hours, minutes, seconds] = [Math.floor(t / 3600), Math.floor(t / 60) % 60, t % 60];
  const two = (n: number) => String(n).padStart(2, "0");
  return hours ? `${hours}:${two(minutes)}:${two(seconds)}` : `${minutes}:${two(seconds)}`;
}
