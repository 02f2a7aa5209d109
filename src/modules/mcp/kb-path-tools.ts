// The tools for working in a knowledge base by path: list a folder, read several documents,
// edit one in place, move or delete one, and read an attachment. Each is the API calls it
// makes (the tree, read and edit routes of a KB, a sync v2 op, raw by path); the words of
// a refusal are the API's, or, for a sync op's conflict, its reason said for an agent.
import { Type as T } from "@sinclair/typebox";
import { type ShelfClient, ToolError } from "./client.ts";
import { Cursor, Id, Instant, NextCursor, Path, Sha256, type ToolContent, tool } from "./tool.ts";

const Format = T.Union([T.Literal("markdown"), T.Literal("typst")]);

const TreeItem = T.Object({
  kind: T.Union([T.Literal("folder"), T.Literal("document"), T.Literal("file")]),
  name: T.String(),
  path: T.String({ description: "pass a folder's as path to list it, a document's to read it" }),
  sizeBytes: T.Integer(),
  updatedAt: Instant,
  docCount: T.Optional(T.Integer({ description: "a folder's: documents anywhere under it" })),
  fileCount: T.Optional(T.Integer({ description: "a folder's: files (attachments) anywhere under it" })),
  id: T.Optional(T.String()),
  format: T.Optional(T.String({ description: "a document's: markdown or typst" })),
  sourceHash: T.Optional(Sha256),
});
type TreeItem = typeof TreeItem.static;

const listFolder = tool({
  name: "list_folder",
  title: "List a folder",
  description:
    "The subfolders, documents and files (attachments) directly in one folder of a knowledge base, by name: each folder with how many documents and files are under it, each document or file with its sourceHash (the baseHash move_document and delete_document take). Omit path for the top level.",
  scope: "kb.read",
  readOnly: true,
  destructive: false,
  idempotent: true,
  input: T.Object(
    {
      kbId: Id,
      path: T.Optional(T.String({ maxLength: 1024, description: "the folder, e.g. notes/2026; empty or omitted: the top level" })),
      cursor: Cursor,
    },
    { additionalProperties: false },
  ),
  output: T.Object({ path: T.String({ description: "the folder listed" }), items: T.Array(TreeItem), nextCursor: NextCursor }),
  async run({ client }, args) {
    const page = await client.call<{ prefix: string; items: TreeItem[]; nextCursor: string | null }>("GET", `/v1/kbs/${encodeURIComponent(args.kbId)}/tree`, {
      query: { prefix: args.path, cursor: args.cursor, limit: 500 },
    });
    const items = page.items.map((i) => ({ ...i }));
    const count = (n: number | undefined, word: string) => `${n ?? 0} ${word}${n === 1 ? "" : "s"}`;
    const line = (i: TreeItem) =>
      i.kind === "folder"
        ? `- ${i.path}/ (folder, ${count(i.docCount, "document")}${i.fileCount ? `, ${count(i.fileCount, "file")}` : ""})`
        : `- ${i.path} (${i.kind === "file" ? "file: read_attachment reads it" : i.format}, ${i.sizeBytes} bytes, sourceHash ${i.sourceHash})`;
    const where = page.prefix ? page.prefix : "the top level";
    const text = items.length ? `${items.map(line).join("\n")}${page.nextCursor ? "\n(more: pass nextCursor)" : ""}` : `Nothing in ${where}.`;
    return { data: { path: page.prefix, items, nextCursor: page.nextCursor }, text };
  },
});

const ReadDoc = T.Object({
  path: T.String({ description: "the path asked for" }),
  relativePath: T.String({ description: "the document's path as stored" }),
  id: T.String(),
  format: Format,
  sourceHash: Sha256,
  updatedAt: Instant,
  content: T.String(),
});
const ReadFailure = T.Object({ path: T.String(), reason: T.String(), message: T.String() });

const readDocuments = tool({
  name: "read_documents",
  title: "Read several documents",
  description:
    "The text of up to 50 documents of one knowledge base by path, in one call, each with its sourceHash (pass it as baseHash to edit_document, write_document, move_document or delete_document). A path that cannot be read is listed under failed with the reason; the others are read all the same.",
  scope: "kb.read",
  readOnly: true,
  destructive: false,
  idempotent: true,
  input: T.Object({ kbId: Id, paths: T.Array(Path, { minItems: 1, maxItems: 50 }) }, { additionalProperties: false }),
  output: T.Object({ docs: T.Array(ReadDoc), failed: T.Array(ReadFailure) }),
  async run({ client }, args) {
    const got = await client.call<{ docs: (typeof ReadDoc.static)[]; failed: (typeof ReadFailure.static)[] }>(
      "POST",
      `/v1/kbs/${encodeURIComponent(args.kbId)}/read`,
      { json: { paths: args.paths } },
    );
    const docs = got.docs.map(({ path, relativePath, id, format, sourceHash, updatedAt, content }) => ({
      path,
      relativePath,
      id,
      format,
      sourceHash,
      updatedAt,
      content,
    }));
    const failed = got.failed.map(({ path, reason, message }) => ({ path, reason, message }));
    const parts = [
      ...docs.map((d) => `=== ${d.relativePath} (sourceHash ${d.sourceHash}) ===\n${d.content}`),
      ...failed.map((f) => `=== ${f.path}: not read: ${f.message} (${f.reason}) ===`),
    ];
    return { data: { docs, failed }, text: parts.join("\n\n") };
  },
});

const editDocument = tool({
  name: "edit_document",
  title: "Edit a document",
  description:
    "Replaces one passage of a document of a knowledge base: oldText must occur in it exactly once, letter for letter (line breaks and spaces included), and is replaced by newText (empty to delete it). If oldText occurs nowhere or more than once, nothing changes and the error says how many times it occurs: read the document again, or include more of the text around the passage. With baseHash (the sourceHash you read) a document changed since is refused. For a whole new text, use write_document.",
  scope: "kb.write",
  readOnly: false,
  // It replaces text; the same call again finds the passage gone (or, if newText holds it, changes it again).
  destructive: true,
  idempotent: false,
  input: T.Object(
    {
      kbId: Id,
      path: Path,
      oldText: T.String({ minLength: 1, maxLength: 500_000 }),
      newText: T.String({ maxLength: 500_000 }),
      baseHash: T.Optional(Sha256),
    },
    { additionalProperties: false },
  ),
  output: T.Object({
    status: T.Union([T.Literal("updated"), T.Literal("unchanged")]),
    id: T.String(),
    relativePath: T.String(),
    sourceHash: Sha256,
    previousHash: Sha256,
    message: T.String(),
  }),
  async run({ client }, args) {
    const r = await client.call<{ id: string; relativePath: string; change: "updated" | "unchanged"; sourceHash: string; previousHash: string }>(
      "POST",
      `/v1/kbs/${encodeURIComponent(args.kbId)}/edit`,
      { json: { path: args.path, oldText: args.oldText, newText: args.newText, ...(args.baseHash !== undefined && { baseHash: args.baseHash }) } },
    );
    const message = r.change === "unchanged" ? `${r.relativePath} already had this text` : `edited ${r.relativePath}`;
    return {
      data: { status: r.change, id: r.id, relativePath: r.relativePath, sourceHash: r.sourceHash, previousHash: r.previousHash, message },
      text: `${r.change === "unchanged" ? `Unchanged: ${message}` : `Edited ${r.relativePath}`} (sourceHash now ${r.sourceHash}).`,
    };
  },
});

interface OpResult {
  status: string;
  docId?: string | null;
  relativePath?: string;
  fromPath?: string;
  sourceHash?: string | null;
  reason?: string;
  message?: string;
}

/** A sync op's conflict, in words an agent acts on. */
function conflictWords(reason: string | undefined, paths: { from: string; to?: string }): string {
  switch (reason) {
    case "MOVE_SOURCE_MISSING":
      return `there is no document at ${paths.from}`;
    case "MOVE_TARGET_EXISTS":
      return `${paths.to} is taken by another document: move or delete that one first, or choose another path`;
    case "REMOTE_NEWER":
    case "BASE_MISSING":
      return `${paths.from} changed since the version you read (baseHash): read it again and pass its current sourceHash`;
    case "PATH_CASE_CONFLICT":
      return `the document's path is spelled with other letter case than ${paths.from}: use its path as list_folder shows it`;
    default:
      return `the server refused it (${reason ?? "a conflict"})`;
  }
}

/** One sync v2 op: its result, or a ToolError in words (a conflict's reason, a skipped op's message). */
async function syncOne(client: ShelfClient, kbId: string, op: Record<string, unknown>, paths: { from: string; to?: string }): Promise<OpResult> {
  let results: OpResult[];
  try {
    ({ results } = await client.call<{ results: OpResult[] }>("POST", `/v1/kbs/${encodeURIComponent(kbId)}/sync`, {
      headers: { "service-sync-version": "2" },
      json: { ops: [op] },
    }));
  } catch (e) {
    if (!(e instanceof ToolError) || e.code !== "SYNC_CONFLICT") throw e;
    const reason = (e.meta?.results as OpResult[] | undefined)?.[0]?.reason;
    throw new ToolError(`Nothing changed: ${conflictWords(reason, paths)}.`, reason ?? e.code, e.status);
  }
  const r = results[0]!;
  if (r.status !== "applied") throw new ToolError(`Nothing changed: ${r.message ?? `the server refused it (${r.reason ?? r.status})`}.`, r.reason);
  return r;
}

const BASE_HASH = {
  ...Sha256,
  description: "the sourceHash you read (read_document, read_documents or list_folder give it): a document changed since is left as it is",
};

const moveDocument = tool({
  name: "move_document",
  title: "Move or rename a document",
  description:
    "Moves a document or a file (an attachment) of a knowledge base to another path (a rename when only its name changes), keeping its id, content and history; sync clients move their copy. The new path must be free. baseHash is the sourceHash you read: one changed since is not moved.",
  scope: "kb.write",
  readOnly: false,
  // The old path is gone (a sync client removes its file there); the same move again finds nothing to move.
  destructive: true,
  idempotent: true,
  input: T.Object({ kbId: Id, fromPath: Path, toPath: Path, baseHash: T.String(BASE_HASH) }, { additionalProperties: false }),
  output: T.Object({ id: T.String(), fromPath: T.String(), relativePath: T.String(), sourceHash: Sha256, message: T.String() }),
  async run({ client }, args) {
    const r = await syncOne(
      client,
      args.kbId,
      { op: "move", fromPath: args.fromPath, toPath: args.toPath, sourceHash: args.baseHash, baseHash: args.baseHash },
      { from: args.fromPath, to: args.toPath },
    );
    const fromPath = r.fromPath ?? args.fromPath;
    const relativePath = r.relativePath ?? args.toPath;
    const message = `moved ${fromPath} to ${relativePath}`;
    return {
      data: { id: r.docId ?? "", fromPath, relativePath, sourceHash: r.sourceHash ?? args.baseHash, message },
      text: `Moved ${fromPath} to ${relativePath} (document ${r.docId}).`,
    };
  },
});

const deleteDocument = tool({
  name: "delete_document",
  title: "Delete a document",
  description:
    "Deletes a document or a file (an attachment) of a knowledge base; sync clients delete their copy. baseHash is the sourceHash you read: one changed since is not deleted. Writing at the same path later makes it anew.",
  scope: "kb.write",
  readOnly: false,
  destructive: true,
  idempotent: true,
  input: T.Object({ kbId: Id, path: Path, baseHash: T.String(BASE_HASH) }, { additionalProperties: false }),
  output: T.Object({ id: T.String(), relativePath: T.String(), message: T.String() }),
  async run({ client }, args) {
    const r = await syncOne(client, args.kbId, { op: "delete", relativePath: args.path, baseHash: args.baseHash }, { from: args.path });
    const relativePath = r.relativePath ?? args.path;
    return { data: { id: r.docId ?? "", relativePath, message: `deleted ${relativePath}` }, text: `Deleted ${relativePath}.` };
  },
});

/** What a model takes as an image (image content); other images (SVG is XML) are shown otherwise. */
const IMAGE_TYPES = new Set(["image/png", "image/jpeg", "image/gif", "image/webp"]);
const MAX_IMAGE_BYTES = 5 * 1024 * 1024;
const MAX_TEXT_BYTES = 1024 * 1024;
const TEXT_TYPES = /^(text\/|application\/(json|xml|yaml|x-yaml|toml|javascript|x-sh|sql|csv)$|.*\+(json|xml)$|image\/svg\+xml$)/;

const readAttachment = tool({
  name: "read_attachment",
  title: "Read an attachment",
  description: `A file of a knowledge base by path (an attachment such as an image or a PDF, or a document): a PNG, JPEG, GIF or WebP image up to ${MAX_IMAGE_BYTES / 1024 / 1024} MiB is answered as an image, text (Markdown, JSON, CSV, SVG...) up to ${MAX_TEXT_BYTES / 1024} KiB as text, anything else is described by its type and size.`,
  scope: "kb.read",
  readOnly: true,
  destructive: false,
  idempotent: true,
  input: T.Object({ kbId: Id, path: Path }, { additionalProperties: false }),
  output: T.Object({
    path: T.String(),
    contentType: T.String(),
    sizeBytes: T.Integer(),
    sourceHash: T.Union([Sha256, T.Null()]),
    shown: T.Union([T.Literal("image"), T.Literal("text"), T.Literal("described")], { description: "how the content blocks give it" }),
  }),
  async run({ client }, args) {
    const got = await client.bytes(`/v1/kbs/${encodeURIComponent(args.kbId)}/raw`, { path: args.path }, MAX_IMAGE_BYTES);
    const contentType = (got.headers.get("content-type") ?? "application/octet-stream").split(";")[0]!.trim().toLowerCase();
    const sourceHash = got.headers.get("x-source-hash");
    const base = { path: args.path, contentType, sizeBytes: got.sizeBytes, sourceHash: sourceHash && /^[0-9a-f]{64}$/.test(sourceHash) ? sourceHash : null };
    const what = `${args.path}: ${contentType}, ${got.sizeBytes} bytes`;
    if (got.bytes && IMAGE_TYPES.has(contentType)) {
      const content: ToolContent[] = [
        { type: "text", text: what },
        { type: "image", data: Buffer.from(got.bytes).toString("base64"), mimeType: contentType },
      ];
      return { data: { ...base, shown: "image" as const }, text: what, content };
    }
    if (got.bytes && got.bytes.byteLength <= MAX_TEXT_BYTES && TEXT_TYPES.test(contentType)) {
      try {
        const text = new TextDecoder("utf-8", { fatal: true }).decode(got.bytes);
        return { data: { ...base, shown: "text" as const }, text };
      } catch {
        // Not UTF-8 whatever its type says: described below.
      }
    }
    const why = IMAGE_TYPES.has(contentType)
      ? `an image over ${MAX_IMAGE_BYTES / 1024 / 1024} MiB is not sent`
      : TEXT_TYPES.test(contentType)
        ? `text over ${MAX_TEXT_BYTES / 1024} KiB, or not UTF-8, is not sent`
        : "its bytes are not shown here";
    return { data: { ...base, shown: "described" as const }, text: `${what} (${why}).` };
  },
});

export const KB_PATH_TOOLS = [listFolder, readDocuments, editDocument, moveDocument, deleteDocument, readAttachment];
