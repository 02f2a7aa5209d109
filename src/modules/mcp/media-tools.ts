// The media and account tools: list media, upload an image, read the usage.
import { type Static, Type as T } from "@sinclair/typebox";
import { ToolError } from "./client.ts";
import { Cursor, Instant, NextCursor, tool } from "./tool.ts";

const MEDIA_TYPES = ["image", "video", "audio"] as const;
const MediaItem = T.Object({
  id: T.String(),
  type: T.Union(MEDIA_TYPES.map((m) => T.Literal(m))),
  name: T.String(),
  url: T.Union([T.String(), T.Null()], { description: "where it is served (images and audio; a video's thumbnail)" }),
  status: T.String({ description: "ready, or a video's processing or failed" }),
  isPublic: T.Boolean(),
  sizeBytes: T.Integer(),
  createdAt: Instant,
});
type MediaItem = Static<typeof MediaItem>;

interface ImageRow {
  id: string;
  url: string;
  filename: string;
  size: number;
  is_public: boolean;
  created_at: string;
}
type AvRow =
  | { type: "video"; id: string; title: string; status: string; isPublic: boolean; sizeBytes: number; thumbnail_url?: string; createdAt: string }
  | { type: "audio"; id: string; title: string; url: string; isPublic: boolean; sizeBytes: number; createdAt: string };

const fromImage = (i: ImageRow): MediaItem => ({
  id: i.id,
  type: "image",
  name: i.filename,
  url: i.url,
  status: "ready",
  isPublic: i.is_public,
  sizeBytes: i.size,
  createdAt: i.created_at,
});
const fromAv = (m: AvRow): MediaItem =>
  m.type === "video"
    ? {
        id: m.id,
        type: "video",
        name: m.title,
        url: m.thumbnail_url ?? null,
        status: m.status,
        isPublic: m.isPublic,
        sizeBytes: m.sizeBytes,
        createdAt: m.createdAt,
      }
    : { id: m.id, type: "audio", name: m.title, url: m.url, status: "ready", isPublic: m.isPublic, sizeBytes: m.sizeBytes, createdAt: m.createdAt };

// Without a type the listing walks the images, then the videos and audio: the cursor says where.
const IMAGES = "i:";
const AV = "m:";

const listMedia = tool({
  name: "list_media",
  title: "List media",
  description: "The user's images, videos and audio, newest first; one kind with type.",
  scope: "media.read",
  readOnly: true,
  destructive: false,
  idempotent: true,
  input: T.Object({ type: T.Optional(T.Union(MEDIA_TYPES.map((m) => T.Literal(m)))), cursor: Cursor }, { additionalProperties: false }),
  output: T.Object({ items: T.Array(MediaItem), nextCursor: NextCursor }),
  async run({ client }, args) {
    const cursor = args.cursor ?? (args.type === "video" || args.type === "audio" ? AV : IMAGES);
    const inner = cursor.slice(2) || undefined;
    let items: MediaItem[];
    let next: string | null;
    if (cursor.startsWith(IMAGES) && args.type !== "video" && args.type !== "audio") {
      const page = await client.call<{ items: ImageRow[]; nextCursor: string | null }>("GET", "/v1/images", { query: { cursor: inner, limit: 50 } });
      items = page.items.map(fromImage);
      next = page.nextCursor ? IMAGES + page.nextCursor : args.type === "image" ? null : AV;
    } else if (cursor.startsWith(AV) && args.type !== "image") {
      const page = await client.call<{ items: AvRow[]; nextCursor: string | null }>("GET", "/v1/media", {
        query: { cursor: inner, limit: 50, type: args.type },
      });
      items = page.items.map(fromAv);
      next = page.nextCursor ? AV + page.nextCursor : null;
    } else throw new ToolError("this cursor is not one list_media gave for this type");
    const text = items.length
      ? items.map((m) => `- ${m.type} ${m.name} (id ${m.id}, ${m.status}${m.isPublic ? ", public" : ""})${m.url ? `: ${m.url}` : ""}`).join("\n")
      : "No media on this page.";
    return { data: { items, nextCursor: next }, text: next ? `${text}\n(more: pass nextCursor)` : text };
  },
});

const uploadImage = tool({
  name: "upload_image",
  title: "Upload an image",
  description:
    "Stores an image (JPEG, PNG, WebP, GIF, AVIF, SVG...) and answers its permanent URL. Give its bytes as base64 in data, or a public http(s) url for the server to fetch (addresses inside the server's network are refused). Counts against the user's storage quota like any upload.",
  scope: "media.write",
  readOnly: false,
  // Each call stores an image: it adds, and adds again.
  destructive: false,
  idempotent: false,
  input: T.Object(
    {
      filename: T.String({ minLength: 1, maxLength: 255 }),
      data: T.Optional(T.String({ contentEncoding: "base64", description: "the image's bytes, base64" })),
      url: T.Optional(T.String({ maxLength: 2048, pattern: "^https?://" })),
      isPublic: T.Optional(T.Boolean()),
    },
    { additionalProperties: false, description: "either data or url" },
  ),
  output: T.Object({ id: T.String(), url: T.String(), filename: T.String(), sizeBytes: T.Integer(), width: T.Integer(), height: T.Integer() }),
  async run(ctx, args) {
    if ((args.data === undefined) === (args.url === undefined)) throw new ToolError("give the image as data (base64) or as url, one of them");
    let bytes: Uint8Array;
    let type = "application/octet-stream";
    if (args.data !== undefined) {
      const compact = args.data.replace(/\s+/g, "");
      if (!/^[A-Za-z0-9+/]*={0,2}$/.test(compact) || compact.length % 4 === 1) throw new ToolError("data is not base64");
      bytes = Buffer.from(compact, "base64");
    } else {
      const got = await ctx.fetchImage(args.url!);
      bytes = got.bytes;
      type = got.contentType ?? type;
    }
    if (bytes.byteLength === 0) throw new ToolError("the image is empty");
    const form = new FormData();
    form.append("file", new Blob([bytes as Uint8Array<ArrayBuffer>], { type }), args.filename);
    if (args.isPublic !== undefined) form.append("is_public", String(args.isPublic));
    const img = await ctx.client.call<{ id: string; url: string; filename: string; size: number; width: number; height: number }>("POST", "/v1/images", {
      form,
    });
    const data = { id: img.id, url: img.url, filename: img.filename, sizeBytes: img.size, width: img.width, height: img.height };
    return { data, text: `Stored ${img.filename} (${img.width}x${img.height}) at ${img.url}` };
  },
});

// ---- usage -------------------------------------------------------------------------------

const getUsage = tool({
  name: "get_usage",
  title: "Usage and limits",
  description: "The user's plan, and for each dimension (storage, documents, uploads, bandwidth...) what is used against its limit this period.",
  scope: "usage.read",
  readOnly: true,
  destructive: false,
  idempotent: true,
  input: T.Object({}, { additionalProperties: false }),
  output: T.Object({}, { additionalProperties: true, description: "the usage resource of the API (GET /v1/user/me/usage)" }),
  async run({ client }) {
    const usage = await client.call<Record<string, unknown>>("GET", "/v1/user/me/usage");
    return { data: usage, text: JSON.stringify(usage, null, 2) };
  },
});

export const MEDIA_TOOLS = [listMedia, uploadImage, getUsage];
