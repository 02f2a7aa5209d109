// The tools an agent calls, each with a JSON Schema for its input and its output (TypeBox
// schemas are JSON Schema), the scope it needs, and what it does through the API. One
// definition serves the hosted server and `shelf mcp` (client.ts says how).
import { type Static, type TObject, Type as T } from "@sinclair/typebox";
import type { Scope } from "../../http/scopes.ts";
import { type ShelfClient, ToolError } from "./client.ts";
import type { ImageFetcher } from "./image-url.ts";

const Id = T.String({ pattern: "^[A-Za-z0-9_-]{1,64}$" });
const Cursor = T.Optional(T.String({ maxLength: 2000, description: "nextCursor of the previous page; omit for the first" }));
const NextCursor = T.Union([T.String(), T.Null()], { description: "pass as cursor for the next page; null on the last" });
const Instant = T.String({ format: "date-time" });
const Sha256 = T.String({ pattern: "^[0-9a-f]{64}$" });
const Path = T.String({ minLength: 1, maxLength: 1024, description: "relative path inside the knowledge base, e.g. notes/ideas.md" });

export interface ToolContext {
  client: ShelfClient;
  fetchImage: ImageFetcher;
}

export interface Tool<I extends TObject = TObject, O extends TObject = TObject> {
  name: string;
  title: string;
  description: string;
  scope: Scope;
  readOnly: boolean;
  input: I;
  output: O;
  run(ctx: ToolContext, args: Static<I>): Promise<{ data: Static<O>; text: string }>;
}

const tool = <I extends TObject, O extends TObject>(t: Tool<I, O>) => t as unknown as Tool;

const sha256Hex = (text: string) => new Bun.CryptoHasher("sha256").update(text).digest("hex");

// ---- knowledge bases ---------------------------------------------------------------------

const Kb = T.Object({
  id: T.String(),
  name: T.String(),
  description: T.Union([T.String(), T.Null()]),
  docCount: T.Integer(),
  sizeBytes: T.Integer(),
  updatedAt: Instant,
});
interface KbItem extends Static<typeof Kb> {}

const listKnowledgeBases = tool({
  name: "list_knowledge_bases",
  title: "List knowledge bases",
  description: "The knowledge bases (folders of Markdown and Typst documents) of the signed-in user, most recently created first.",
  scope: "kb.read",
  readOnly: true,
  input: T.Object({ cursor: Cursor }, { additionalProperties: false }),
  output: T.Object({ items: T.Array(Kb), nextCursor: NextCursor }),
  async run({ client }, args) {
    const page = await client.call<{ items: KbItem[]; nextCursor: string | null }>("GET", "/v1/kbs", { query: { cursor: args.cursor, limit: 50 } });
    const items = page.items.map(({ id, name, description, docCount, sizeBytes, updatedAt }) => ({ id, name, description, docCount, sizeBytes, updatedAt }));
    const lines = items.map((k) => `- ${k.name} (id ${k.id}): ${k.docCount} documents`);
    return {
      data: { items, nextCursor: page.nextCursor },
      text: items.length ? `${lines.join("\n")}${page.nextCursor ? "\n(more: pass nextCursor)" : ""}` : "No knowledge bases.",
    };
  },
});

// ---- documents ---------------------------------------------------------------------------

const Hit = T.Object({
  id: T.String(),
  kbId: T.Union([T.String(), T.Null()]),
  relativePath: T.Union([T.String(), T.Null()]),
  title: T.String(),
  snippet: T.String({ description: "matches marked with « and »" }),
  rank: T.Number(),
  updatedAt: Instant,
});

const searchDocuments = tool({
  name: "search_documents",
  title: "Search documents",
  description:
    'Full-text search over the user\'s documents (title, path and text), best matches first, each with a snippet. The query takes words, "quoted phrases" and -excluded words.',
  scope: "kb.read",
  readOnly: true,
  input: T.Object(
    {
      query: T.String({ minLength: 1, maxLength: 200 }),
      kbId: T.Optional(Id),
      limit: T.Optional(T.Integer({ minimum: 1, maximum: 50, default: 10 })),
    },
    { additionalProperties: false },
  ),
  output: T.Object({ items: T.Array(Hit) }),
  async run({ client }, args) {
    const found = await client.call<{ items: Static<typeof Hit>[] }>("GET", "/v1/docs/search", {
      query: { q: args.query, kbId: args.kbId, limit: args.limit },
    });
    const items = found.items.map(({ id, kbId, relativePath, title, snippet, rank, updatedAt }) => ({
      id,
      kbId,
      relativePath,
      title,
      snippet,
      rank,
      updatedAt,
    }));
    const text = items.length
      ? items.map((h) => `- ${h.title} (${h.kbId ? `kb ${h.kbId}: ${h.relativePath}` : `document ${h.id}`})\n  ${h.snippet}`).join("\n")
      : `Nothing matches "${args.query}".`;
    return { data: { items }, text };
  },
});

const Doc = T.Object({
  id: T.String(),
  kbId: T.Union([T.String(), T.Null()]),
  relativePath: T.Union([T.String(), T.Null()]),
  title: T.String(),
  format: T.Union([T.Literal("markdown"), T.Literal("typst")]),
  sourceHash: Sha256,
  updatedAt: Instant,
  revision: T.Optional(T.Object({ id: T.String(), revNumber: T.Integer(), createdAt: Instant })),
  content: T.String(),
});
type Doc = Static<typeof Doc>;
interface DocItem {
  id: string;
  kbId: string | null;
  relativePath: string | null;
  title: string;
  format: "markdown" | "typst";
  sourceHash: string;
  updatedAt: string;
}

const docOf = (d: DocItem, content: string): Doc => ({
  id: d.id,
  kbId: d.kbId,
  relativePath: d.relativePath,
  title: d.title,
  format: d.format,
  sourceHash: d.sourceHash,
  updatedAt: d.updatedAt,
  content,
});

const readDocument = tool({
  name: "read_document",
  title: "Read a document",
  description:
    "The text of a document, by its id or by its knowledge base and path, with its version (sourceHash: pass it as baseHash to write_document). With revisionId, that earlier revision's text.",
  scope: "kb.read",
  readOnly: true,
  input: T.Object(
    { id: T.Optional(Id), kbId: T.Optional(Id), path: T.Optional(Path), revisionId: T.Optional(Id) },
    { additionalProperties: false, description: "either id, or kbId and path" },
  ),
  output: Doc,
  async run({ client }, args) {
    let id = args.id;
    if (id === undefined) {
      if (args.kbId === undefined || args.path === undefined) throw new ToolError("name the document by id, or by kbId and path");
      const raw = await client.text(`/v1/kbs/${encodeURIComponent(args.kbId)}/raw`, { path: args.path });
      id = raw.headers.get("x-doc-id") ?? undefined;
      if (id === undefined) throw new ToolError("the server did not say which document is at this path");
      if (args.revisionId === undefined) {
        const meta = await client.call<DocItem>("GET", `/v1/docs/${encodeURIComponent(id)}`);
        const doc = docOf(meta, raw.text);
        return { data: doc, text: raw.text };
      }
    } else if (args.kbId !== undefined || args.path !== undefined) throw new ToolError("name the document by id, or by kbId and path, not both");
    const meta = await client.call<DocItem>("GET", `/v1/docs/${encodeURIComponent(id)}`);
    if (args.revisionId !== undefined) {
      const rev = await client.call<{ id: string; revNumber: number; createdAt: string; sourceHash: string; content: string }>(
        "GET",
        `/v1/docs/${encodeURIComponent(id)}/revisions/${encodeURIComponent(args.revisionId)}`,
      );
      const doc = { ...docOf(meta, rev.content), sourceHash: rev.sourceHash, revision: { id: rev.id, revNumber: rev.revNumber, createdAt: rev.createdAt } };
      return { data: doc, text: rev.content };
    }
    const raw = await client.text(`/v1/docs/${encodeURIComponent(id)}/raw`);
    return { data: docOf(meta, raw.text), text: raw.text };
  },
});

interface OpResult {
  status: string;
  docId?: string | null;
  relativePath?: string;
  sourceHash?: string | null;
  updatedAt?: string;
  branchId?: string;
  reason?: string;
  message?: string;
}

const writeDocument = tool({
  name: "write_document",
  title: "Write a document",
  description:
    "Creates the document at a path of a knowledge base, or replaces its text. With baseHash (the sourceHash read_document gave), a document changed since then is not overwritten: your text is kept as a conflict branch beside it for the owner to resolve, and the answer says so. Without baseHash the text replaces whatever is there.",
  scope: "kb.write",
  readOnly: false,
  input: T.Object(
    {
      kbId: Id,
      path: T.String({ minLength: 1, maxLength: 1024, description: "relative path ending in .md, .markdown or .typ" }),
      content: T.String({ maxLength: 10 * 1024 * 1024 }),
      baseHash: T.Optional(Sha256),
    },
    { additionalProperties: false },
  ),
  output: T.Object({
    status: T.Union([T.Literal("created"), T.Literal("updated"), T.Literal("unchanged"), T.Literal("conflict_branch_created")]),
    id: T.Union([T.String(), T.Null()]),
    relativePath: T.String(),
    sourceHash: Sha256,
    branchId: T.Optional(T.String()),
    message: T.String(),
  }),
  async run({ client }, args) {
    const kb = encodeURIComponent(args.kbId);
    const sourceHash = sha256Hex(args.content);
    let baseHash = args.baseHash;
    let existed = true;
    if (baseHash === undefined) {
      // No base named: the text replaces what is there now (a change between this read and
      // the write still becomes a conflict branch, never a silent loss).
      try {
        baseHash = (await client.text(`/v1/kbs/${kb}/raw`, { path: args.path })).headers.get("x-source-hash") ?? undefined;
      } catch (e) {
        if (!(e instanceof ToolError && e.status === 404 && e.code === "NOT_FOUND")) throw e;
        existed = false;
      }
    }
    if (baseHash === sourceHash) {
      return {
        data: { status: "unchanged" as const, id: null, relativePath: args.path, sourceHash, message: "the document already has this text" },
        text: `${args.path} already has this text.`,
      };
    }
    const op = { op: "upsert", relativePath: args.path, content: args.content, sourceHash, ...(baseHash !== undefined && { baseHash }) };
    const answer = await client.call<{ results: OpResult[] }>("POST", `/v1/kbs/${kb}/sync`, {
      query: { conflictResolution: "preserve_both" },
      headers: { "service-sync-version": "2" },
      json: { ops: [op] },
    });
    const r = answer.results[0]!;
    const path = r.relativePath ?? args.path;
    if (r.status === "applied") {
      const status = existed ? ("updated" as const) : ("created" as const);
      return {
        data: { status, id: r.docId ?? null, relativePath: path, sourceHash, message: `${status} ${path}` },
        text: `${status === "created" ? "Created" : "Updated"} ${path} (document ${r.docId}).`,
      };
    }
    if (r.status === "conflict_branch_created") {
      const message = `${path} changed since the version you read; your text was kept as conflict branch ${r.branchId} beside it, for the owner to accept or discard`;
      return {
        data: { status: "conflict_branch_created" as const, id: r.docId ?? null, relativePath: path, sourceHash, branchId: r.branchId, message },
        text: `Not overwritten: ${message}.`,
      };
    }
    throw new ToolError(r.message ?? `the write was refused (${r.reason ?? r.status})`, r.reason);
  },
});

// ---- media -------------------------------------------------------------------------------

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
  input: T.Object({}, { additionalProperties: false }),
  output: T.Object({}, { additionalProperties: true, description: "the usage resource of the API (GET /v1/user/me/usage)" }),
  async run({ client }) {
    const usage = await client.call<Record<string, unknown>>("GET", "/v1/user/me/usage");
    return { data: usage, text: JSON.stringify(usage, null, 2) };
  },
});

export const TOOLS: readonly Tool[] = [listKnowledgeBases, searchDocuments, readDocument, writeDocument, listMedia, uploadImage, getUsage];

export const toolNamed = (name: string) => TOOLS.find((t) => t.name === name);
