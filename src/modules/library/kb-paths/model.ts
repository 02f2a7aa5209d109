import { t } from "elysia";
import { Enum, Int, Page } from "../../../http/envelope.ts";
import { DOC_FORMATS } from "../documents/table.ts";
import { TypstIssue } from "../documents/model.ts";

const Timestamp = t.String({ format: "date-time" });
const Sha256 = t.String({ pattern: "^[0-9a-f]{64}$", description: "SHA-256 hex of the content" });
// Only a bound on what is read here: the path rule itself is judged by the service, which
// names the rule a path breaks (documents/path.ts).
const KbPath = (description: string) => t.String({ minLength: 1, maxLength: 4096, description });

export const TreeQuery = t.Object({
  prefix: t.Optional(
    t.String({
      maxLength: 4096,
      description: "the folder to list, a relative path (a trailing / is allowed); empty or absent: the KB's top level. Matched whatever its letter case",
    }),
  ),
  cursor: t.Optional(t.String({ description: "nextCursor of the previous page, with the same prefix" })),
  limit: t.Optional(t.Integer({ minimum: 1, maximum: 1000, default: 200 })),
});

const TreeFolder = t.Object(
  {
    kind: t.Literal("folder"),
    name: t.String({ description: "the folder's name (one path segment)" }),
    path: t.String({ description: "its relative path: pass it as prefix to list it" }),
    docCount: Int({ description: "active documents anywhere under it" }),
    fileCount: Int({ description: "active files (attachments) anywhere under it" }),
    sizeBytes: Int({ description: "the bytes of both" }),
    updatedAt: Timestamp,
  },
  { title: "KbTreeFolder" },
);

const TreeDocument = t.Object(
  {
    kind: t.Literal("document"),
    name: t.String({ description: "the file name (the last path segment)" }),
    path: t.String({ description: "its relative path" }),
    id: t.String(),
    format: Enum(DOC_FORMATS),
    sizeBytes: Int(),
    sourceHash: Sha256,
    updatedAt: Timestamp,
  },
  { title: "KbTreeDocument" },
);

const TreeFile = t.Object(
  {
    kind: t.Literal("file"),
    name: t.String({ description: "the file name (the last path segment)" }),
    path: t.String({ description: "its relative path: GET /v1/kbs/{id}/raw?path= answers its bytes" }),
    id: t.String(),
    sizeBytes: Int(),
    sourceHash: Sha256,
    updatedAt: Timestamp,
  },
  { title: "KbTreeFile" },
);

export const TreePage = Page(t.Union([TreeFolder, TreeDocument, TreeFile]), {
  prefix: t.String({ description: "the folder listed, normalized; empty for the top level" }),
});
export type TreeItem = typeof TreeFolder.static | typeof TreeDocument.static | typeof TreeFile.static;

export const ReadBody = t.Object(
  {
    paths: t.Array(KbPath("a relative path in the KB"), {
      minItems: 1,
      maxItems: 50,
      description: "1 to 50 relative paths; answered in this order, each read or failed on its own",
    }),
  },
  { additionalProperties: false },
);

export const ReadResult = t.Object({
  docs: t.Array(
    t.Object({
      path: t.String({ description: "the path as sent" }),
      relativePath: t.String({ description: "the document's path as stored (its letter case may differ from the path sent)" }),
      id: t.String(),
      title: t.String({ description: "the document's title (PATCH /v1/docs/{id} changes it)" }),
      format: Enum(DOC_FORMATS),
      content: t.String(),
      sourceHash: Sha256,
      updatedAt: Timestamp,
    }),
  ),
  failed: t.Array(
    t.Object({
      path: t.String({ description: "the path as sent" }),
      reason: Enum(["NOT_FOUND", "VALIDATION_ERROR", "CONTENT_FETCH_FAILED"]),
      message: t.String(),
    }),
  ),
});
export type ReadResult = typeof ReadResult.static;

export const EditBody = t.Object(
  {
    path: KbPath("the relative path of the document to edit"),
    oldText: t.String({
      minLength: 1,
      description: "text that occurs exactly once in the document, letter for letter (line breaks, spaces and case included)",
    }),
    newText: t.String({ description: "what replaces it; empty deletes it" }),
    baseHash: t.Optional(
      t.String({
        pattern: "^[0-9a-fA-F]{64}$",
        description: "the sourceHash you read: a document changed since is refused (409 CONFLICT, meta.reason stale_base)",
      }),
    ),
  },
  { additionalProperties: false },
);
export type EditBody = typeof EditBody.static;

export const EditResult = t.Object({
  id: t.String(),
  relativePath: t.String(),
  change: Enum(["updated", "unchanged"], { description: "unchanged when newText equals oldText" }),
  sourceHash: Sha256,
  previousHash: t.String({ description: "the sourceHash the edit was applied to" }),
  sizeBytes: Int(),
  updatedAt: Timestamp,
  warnings: t.Optional(t.Array(TypstIssue, { description: "a Typst document's compile check, as a sync result's (never a refusal)" })),
});
export type EditResult = typeof EditResult.static;
