// The knowledge-base tools: list KBs, search, read and write documents.
import { type Static, Type as T } from "@sinclair/typebox";
import { ToolError } from "./client.ts";
import { Cursor, Id, Instant, NextCursor, Path, Sha256, sha256Hex, tool } from "./tool.ts";

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
  destructive: false,
  idempotent: true,
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
    'Full-text search over the user\'s documents (title, path and text), best matches first, each with a snippet whose matched words are between « and », a page at a time. The query takes words, "quoted phrases" and -excluded words; whole words, no stemming. The text of a document over 256 KiB is not searched (its title and path are).',
  scope: "kb.read",
  readOnly: true,
  destructive: false,
  idempotent: true,
  input: T.Object(
    {
      query: T.String({ minLength: 1, maxLength: 200 }),
      kbId: T.Optional(Id),
      limit: T.Optional(T.Integer({ minimum: 1, maximum: 50, default: 10 })),
      cursor: Cursor,
    },
    { additionalProperties: false },
  ),
  output: T.Object({ items: T.Array(Hit), nextCursor: NextCursor }),
  async run({ client }, args) {
    const found = await client.call<{ items: Static<typeof Hit>[]; nextCursor: string | null }>("GET", "/v1/docs/search", {
      query: { q: args.query, kbId: args.kbId, limit: args.limit, cursor: args.cursor },
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
    const lines = items.map((h) => `- ${h.title} (${h.kbId ? `kb ${h.kbId}: ${h.relativePath}` : `document ${h.id}`})\n  ${h.snippet}`).join("\n");
    const text = items.length ? `${lines}${found.nextCursor ? "\n(more: pass nextCursor)" : ""}` : `Nothing matches "${args.query}".`;
    return { data: { items, nextCursor: found.nextCursor }, text };
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
  destructive: false,
  idempotent: true,
  input: T.Object(
    { id: T.Optional(Id), kbId: T.Optional(Id), path: T.Optional(Path), revisionId: T.Optional(Id) },
    { additionalProperties: false, description: "either id, or kbId and path" },
  ),
  output: Doc,
  async run({ client }, args) {
    let id = args.id;
    if (id === undefined) {
      if (args.kbId === undefined || args.path === undefined) throw new ToolError("name the document by id, or by kbId and path");
      // One API call: the text and what the answer tells of the document (POST /v1/kbs/:id/read).
      const kbId = args.kbId;
      const read = await client.call<{ docs: (Omit<DocItem, "kbId"> & { content: string })[]; failed: { reason: string; message: string }[] }>(
        "POST",
        `/v1/kbs/${encodeURIComponent(kbId)}/read`,
        { json: { paths: [args.path] } },
      );
      const found = read.docs[0];
      if (!found) {
        const failed = read.failed[0];
        throw new ToolError(failed ? `${failed.message} (${failed.reason})` : "the server did not read this path", failed?.reason);
      }
      if (args.revisionId === undefined) return { data: docOf({ ...found, kbId }, found.content), text: found.content };
      id = found.id;
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
  change?: "created" | "updated" | "unchanged";
  docId?: string | null;
  relativePath?: string;
  sourceHash?: string | null;
  updatedAt?: string;
  branchId?: string;
  reason?: string;
  message?: string;
}

const CHANGE_WORDS = { created: "Created", updated: "Updated", unchanged: "Unchanged:" } as const;

const writeDocument = tool({
  name: "write_document",
  title: "Write a document",
  description:
    "Creates the document at a path of a knowledge base, or replaces its text. With baseHash (the sourceHash read_document gave), a document changed since then is not overwritten: your text is kept as a conflict branch beside it for the owner to resolve, and the answer says so. Without baseHash the text replaces whatever is there.",
  scope: "kb.write",
  readOnly: false,
  // Without baseHash it replaces whatever the path holds; the same text again is "unchanged".
  destructive: true,
  idempotent: true,
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
    const sourceHash = sha256Hex(args.content);
    // The sync API decides everything: with a base, a document changed since is kept beside
    // as a conflict branch; without one, `overwrite` replaces whatever the path holds. Its
    // answer says whether the path was created, updated or already had this text.
    const op = {
      op: "upsert",
      relativePath: args.path,
      content: args.content,
      sourceHash,
      ...(args.baseHash !== undefined ? { baseHash: args.baseHash } : { overwrite: true }),
    };
    const answer = await client.call<{ results: OpResult[] }>("POST", `/v1/kbs/${encodeURIComponent(args.kbId)}/sync`, {
      query: { conflictResolution: "preserve_both" },
      headers: { "service-sync-version": "2" },
      json: { ops: [op] },
    });
    const r = answer.results[0]!;
    const path = r.relativePath ?? args.path;
    if (r.status === "applied" && r.change) {
      const status = r.change;
      const message = status === "unchanged" ? `${path} already has this text` : `${status} ${path}`;
      return {
        data: { status, id: r.docId ?? null, relativePath: path, sourceHash, message },
        text: status === "unchanged" ? `${path} already has this text.` : `${CHANGE_WORDS[status]} ${path} (document ${r.docId}).`,
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

export const KB_TOOLS = [listKnowledgeBases, searchDocuments, readDocument, writeDocument];
