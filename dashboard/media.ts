// The four kinds of the library as one shape, and where each lives in the public API:
// images (/v1/images), videos and audio (the unified listing /v1/media, and each kind's own
// routes), documents (/v1/docs). The listings are merged newest first by the library.
import { call } from "./api.ts";

export type Kind = "image" | "video" | "audio" | "doc";

interface ImageRaw {
  id: string;
  url: string;
  filename: string;
  size: number;
  width: number;
  height: number;
  is_public: boolean;
  tags: string[];
  created_at: string;
}

export interface VideoRaw {
  id: string;
  title: string;
  filename: string;
  sizeBytes: number;
  status: "processing" | "ready" | "failed";
  isPublic: boolean;
  tags: string[];
  duration_seconds?: number;
  thumbnail_url?: string;
  playback_url?: string;
  failure_reason?: string;
  progress?: number;
  bandwidth_state?: "ok" | "degraded" | "suspended";
  createdAt: string;
}

export interface AudioRaw {
  id: string;
  url: string;
  filename: string;
  sizeBytes: number;
  mimeType: string;
  title: string;
  thumbnailUrl: string;
  durationSeconds: number | null;
  bitrate: number | null;
  isPublic: boolean;
  createdAt: string;
  /** The file's own tags: in GET /v1/audio/:id only. */
  tags?: { artist?: string; album?: string };
}

interface DocRaw {
  id: string;
  title: string;
  filename: string;
  format: string;
  sizeBytes: number;
  wordCount: number;
  isPublic: boolean;
  tags: string[];
  createdAt: string;
}

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

/** An API object of one kind, as the API answers it. */
type Raw = ImageRaw | VideoRaw | AudioRaw | DocRaw;

function toItem(kind: Kind, raw: Raw): Item {
  switch (kind) {
    case "image": {
      const r = raw as ImageRaw;
      return { kind, id: r.id, title: r.filename, createdAt: r.created_at, size: r.size, isPublic: r.is_public, tags: r.tags ?? [], raw: r };
    }
    case "video": {
      const r = raw as VideoRaw;
      return { kind, id: r.id, title: r.title, createdAt: r.createdAt, size: r.sizeBytes, isPublic: r.isPublic, tags: r.tags ?? [], raw: r };
    }
    case "audio": {
      const r = raw as AudioRaw;
      return { kind, id: r.id, title: r.title, createdAt: r.createdAt, size: r.sizeBytes, isPublic: r.isPublic, tags: null, raw: r };
    }
    case "doc": {
      const r = raw as DocRaw;
      return { kind, id: r.id, title: r.title, createdAt: r.createdAt, size: r.sizeBytes, isPublic: r.isPublic, tags: r.tags ?? [], raw: r };
    }
  }
}

const query = (o: Record<string, string | number | null | undefined>) => {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(o)) if (v !== null && v !== undefined && v !== "") q.set(k, String(v));
  return q.toString();
};

/** GET one listing and shape its items; `kindOf` reads each item's kind (the unified listing says it). */
const listing =
  (path: string, params: Record<string, string>, kindOf: (r: Raw & { type?: string }) => Kind): Source =>
  async (cursor, limit) => {
    const page = await call<{ items: (Raw & { type?: string })[]; nextCursor: string | null }>("GET", `${path}?${query({ ...params, limit, cursor })}`);
    return { items: page.items.map((r) => toItem(kindOf(r), r)), next: page.nextCursor };
  };

export const sources = {
  images: (tag: string) => listing("/v1/images", { tag }, () => "image"),
  /** The unified listing of videos and audio (no tag filter: the listing has none). */
  media: (type?: "video" | "audio") => listing("/v1/media", type ? { type } : {}, (r) => (r.type === "audio" ? "audio" : "video")),
  /** Videos with a tag: the videos' own listing filters by tag. */
  videosTagged: (tag: string) => listing("/v1/videos", { tag }, () => "video"),
  /** Documents; `q` matches their titles (the only listing with a search). */
  docs: (tag: string, q: string) => listing("/v1/docs", { tag, q }, () => "doc"),
};

/** The kind's own route for one item. */
const itemPath = (item: Pick<Item, "kind" | "id">) =>
  ({ image: "/v1/images/", video: "/v1/videos/", audio: "/v1/audio/", doc: "/v1/docs/" })[item.kind] + item.id;

/** The fresh full item (a video's playback URL, progress and failure reason; an audio file's tags). */
export async function fetchItem(item: Item): Promise<Item> {
  return toItem(item.kind, await call<Raw>("GET", itemPath(item)));
}

/** The kind's PATCH, with the field names that kind's route takes. */
export async function saveItem(item: Item, change: { title: string; isPublic: boolean; tags: string[] }): Promise<Item> {
  const body =
    item.kind === "image"
      ? { filename: change.title, is_public: change.isPublic, tags: change.tags }
      : item.kind === "audio"
        ? { title: change.title, is_public: change.isPublic }
        : { title: change.title, isPublic: change.isPublic, tags: change.tags };
  return toItem(item.kind, await call<Raw>("PATCH", itemPath(item), body));
}

export const deleteItem = (item: Item) => call("DELETE", itemPath(item));

interface BatchResult {
  results: { id: string; deleted: boolean }[];
}

/**
 * Deletes several items, each kind by its batch route (videos and audio: DELETE /v1/media;
 * documents: DELETE /v1/docs; 50 ids a call); images have no batch route and go one by
 * one. Answers the ids deleted.
 */
export async function deleteItems(items: Item[]): Promise<Set<string>> {
  const gone = new Set<string>();
  const batch = async (path: string, ids: string[]) => {
    for (let i = 0; i < ids.length; i += 50) {
      const r = await call<BatchResult>("DELETE", path, { ids: ids.slice(i, i + 50) });
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
