import { t } from "elysia";
import { Enum, Int, Page } from "../../../http/envelope.ts";
import { PlainText } from "../../../core/text.ts";
import { ID_PATTERN } from "../../../infra/ids.ts";
import { Tags } from "../../images/public.ts";
import { DOC_FORMATS, REVISION_ORIGINS } from "./table.ts";

const DocId = t.String({ pattern: ID_PATTERN });
const Timestamp = t.String({ format: "date-time" });
const Sha256 = t.String({ pattern: "^[0-9a-f]{64}$", description: "SHA-256 hex of the content" });
/**
 * A file name: one path segment whose extension decides the format. Its description and
 * example are also what a request that leaves it out is told (http/validation.ts).
 */
const Filename = PlainText({
  minLength: 1,
  maxLength: 255,
  alsoRefuse: "/\\\\",
  description: "the document's name; its extension (.md, .markdown or .typ) decides the format",
  examples: ["notes.md"],
});
const Title = PlainText({ minLength: 1, maxLength: 255, notBlank: true });

/** POST /v1/docs, plus the place in a KB (both or neither). */
export const CreateDocBody = t.Object(
  {
    filename: Filename,
    content: t.String({ description: "the document's text; at most the plan's doc_max_file_bytes after image rewriting" }),
    tags: t.Optional(Tags),
    isPublic: t.Optional(t.Boolean({ description: "default false" })),
    rewriteImages: t.Optional(t.Boolean({ description: "store inline data: images as hosted images (Markdown only)" })),
    title: t.Optional(Title),
    kbId: t.Optional(t.String({ pattern: ID_PATTERN })),
    relativePath: t.Optional(t.String({ minLength: 1, maxLength: 4096, description: "POSIX relative path in the KB (NFC-normalized)" })),
  },
  { additionalProperties: false },
);
export type CreateDocBody = typeof CreateDocBody.static;

const formText = (description: string) => ({ type: "string" as const, description });
const formFlag = (description: string) => ({ type: "string" as const, enum: ["true", "false"], description });

/**
 * POST /v1/docs as multipart/form-data, for the OpenAPI document: the file's text is
 * `content`, its name `filename` unless that field is sent; the other fields are the JSON
 * body's (upload-form.ts reads them).
 */
export const DocUploadForm = {
  type: "object" as const,
  required: ["file"],
  properties: {
    file: {
      type: "string" as const,
      format: "binary",
      description: "the document's text in UTF-8 (at most 64 MiB); its name is the document's filename unless `filename` is sent",
    },
    filename: {
      ...formText("the document's name; default: the file part's name. Its extension (.md, .markdown or .typ) decides the format"),
      examples: ["notes.md"],
    },
    title: formText("explicit title, 1 to 255 characters"),
    tags: formText('a JSON array of up to 10 tags, such as ["notes", "work"]'),
    isPublic: formFlag("default false"),
    rewriteImages: formFlag("store inline data: images as hosted images (Markdown only)"),
    kbId: formText("the KB to place the document in (with relativePath)"),
    relativePath: formText("POSIX relative path in the KB (NFC-normalized)"),
  },
};

const Issue = t.Object({
  index: Int({ description: "the image reference's position among the document's images, from 0" }),
  reason: t.String(),
  message: t.String(),
});

/** A Typst compile check's finding (typst.ts): the compiler's diagnostics, or why there are none. */
export const TypstIssue = t.Object({
  reason: Enum(["TYPST_DIAGNOSTIC", "TYPST_CHECK_STOPPED", "TYPST_CHECK_SKIPPED", "TYPST_UNAVAILABLE"] as const),
  severity: Enum(["error", "warning", "info"] as const),
  message: t.String(),
  line: t.Optional(Int({ description: "from 1, where the compiler knows the place" })),
  column: t.Optional(Int({ description: "from 1" })),
});

export const UploadResult = t.Object(
  {
    id: DocId,
    title: t.String(),
    format: Enum(DOC_FORMATS),
    sizeBytes: Int(),
    sourceHash: Sha256,
    imageCount: Int(),
    rewrittenCount: Int(),
    failedCount: Int(),
    failures: t.Array(Issue),
    warnings: t.Array(t.Union([Issue, TypstIssue]), {
      description: "Markdown: images left as they were; Typst: the compile check's diagnostics (the document is stored whatever they say)",
    }),
    duplicate: t.Boolean(),
    hasInlineContent: t.Boolean(),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  },
  { title: "DocUploadResult" },
);
export type UploadResult = typeof UploadResult.static;

export const DocItem = t.Object(
  {
    id: DocId,
    title: t.String(),
    filename: t.String(),
    format: Enum(DOC_FORMATS),
    sizeBytes: Int(),
    wordCount: Int(),
    imageCount: Int(),
    rewrittenCount: Int(),
    isPublic: t.Boolean(),
    tags: t.Array(t.String()),
    hasInlineContent: t.Boolean(),
    sourceHash: Sha256,
    excerpt: t.String(),
    coverUrl: t.Nullable(t.String()),
    kbId: t.Nullable(t.String()),
    relativePath: t.Nullable(t.String()),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  },
  { title: "Document" },
);
export type DocItem = typeof DocItem.static;

export const DocPage = Page(DocItem);

const DOC_SORTS = ["created_desc", "created_asc", "updated_desc", "updated_asc"] as const;
export type DocSort = (typeof DOC_SORTS)[number];

export const ListDocsQuery = t.Object({
  cursor: t.Optional(t.String()),
  limit: t.Optional(t.Integer({ minimum: 1, maximum: 50, default: 20 })),
  q: t.Optional(PlainText({ minLength: 1, maxLength: 255 })),
  tag: t.Optional(PlainText({ minLength: 1, maxLength: 340, description: "one tag, or several separated by commas (any of them)" })),
  isPublic: t.Optional(t.Boolean()),
  sort: t.Optional(Enum(DOC_SORTS, { default: "created_desc" })),
  kbId: t.Optional(t.String({ pattern: ID_PATTERN })),
  inKb: t.Optional(
    t.Boolean({
      description:
        "false: only documents outside every knowledge base (what a media library lists beside images and videos); true: only documents in one; absent: both",
    }),
  ),
});

export const DocParams = t.Object({ id: DocId });
export const RenderQuery = t.Object({ format: t.Optional(Enum(["pdf", "svg"] as const)) });
export const RevisionParams = t.Object({ id: DocId, revId: t.String({ pattern: ID_PATTERN }) });

export const UpdateDocBody = t.Object(
  { title: t.Optional(Title), isPublic: t.Optional(t.Boolean()), tags: t.Optional(Tags) },
  { additionalProperties: false, minProperties: 1 },
);
export type UpdateDocBody = typeof UpdateDocBody.static;

export const IdsBody = t.Object({ ids: t.Array(DocId, { minItems: 1, maxItems: 50 }) }, { additionalProperties: false });

/**
 * POST /v1/docs/raw:batch: any string is an id to ask for. One that cannot be a document's
 * is answered as an unknown one (failed[], NOT_FOUND) and the others still come.
 */
export const RawBatchBody = t.Object(
  {
    ids: t.Array(t.String(), {
      minItems: 1,
      maxItems: 50,
      description: "1 to 50 document ids; one that is no document id (malformed, or unknown) is in failed[] with NOT_FOUND, in input order",
    }),
  },
  { additionalProperties: false },
);

export const BatchDeleteResult = t.Object({
  results: t.Array(t.Object({ id: t.String(), deleted: t.Boolean(), reason: t.Optional(t.Literal("NOT_FOUND")) })),
});

export const RawBatchResult = t.Object({
  docs: t.Array(t.Object({ id: t.String(), content: t.String(), updatedAt: Timestamp, sourceHash: Sha256 })),
  failed: t.Array(t.Object({ id: t.String(), reason: Enum(["NOT_FOUND", "CONTENT_FETCH_FAILED"]) })),
});

export const Revision = t.Object(
  { id: t.String(), revNumber: Int(), sizeBytes: Int(), origin: Enum(REVISION_ORIGINS), sourceHash: Sha256, createdAt: Timestamp },
  { title: "DocRevision" },
);
export type Revision = typeof Revision.static;

export const RevisionList = t.Object({ revisions: t.Array(Revision), totalBytes: Int() });
export const RevisionWithContent = t.Object({ ...Revision.properties, content: t.String() }, { title: "DocRevisionContent" });

export const RestoreResult = t.Object({
  id: DocId,
  duplicate: t.Boolean(),
  sourceHash: Sha256,
  sizeBytes: Int(),
  updatedAt: Timestamp,
  /** The revision the content before the restore was saved as; null for a duplicate. */
  savedRevision: t.Nullable(t.Object({ id: t.String(), revNumber: Int() })),
});

export const ClearRevisionsResult = t.Object({ deleted: Int(), freedBytes: Int(), hasMore: t.Boolean() });

export const CdnHosts = t.Object({ hosts: t.Array(t.String()) });
export const CdnHostsBody = t.Object({ hosts: t.Array(t.String({ maxLength: 300 }), { maxItems: 200 }) }, { additionalProperties: false });

/** GET /v1/docs/search. */
export const SearchDocsQuery = t.Object({
  q: PlainText({
    minLength: 1,
    maxLength: 200,
    notBlank: true,
    description: 'words to find (web search syntax: "a quoted phrase", -word to exclude, or); at least one word a document must contain',
    examples: ["meeting notes -draft"],
  }),
  kbId: t.Optional(t.String({ pattern: ID_PATTERN, description: "only the documents of this KB (404 for a KB that is not the caller's)" })),
  cursor: t.Optional(t.String({ description: "nextCursor of the previous page, with the same q and kbId" })),
  limit: t.Optional(t.Integer({ minimum: 1, maximum: 50, default: 10 })),
});

export const DocSearchHit = t.Object(
  {
    id: DocId,
    kbId: t.Nullable(t.String({ description: "null outside any KB" })),
    relativePath: t.Nullable(t.String({ description: "null outside any KB" })),
    title: t.String(),
    format: Enum(DOC_FORMATS),
    updatedAt: Timestamp,
    rank: t.Number({ description: "relevance (Postgres ts_rank_cd): higher is better; a title match weighs most, then the path, then the text" }),
    snippet: t.String({
      description: "one line of plain text (not HTML) from the title and content, each matched word between « and », fragments joined by …",
    }),
    marks: t.Array(
      t.Object({
        start: Int({ description: "offset of the match's first character in snippet (UTF-16 code units, as JavaScript indexes strings)" }),
        end: Int({ description: "offset just past its last character: the » that closes it" }),
      }),
      { description: "where the matched words are in snippet, in order, the « and » left out: a « or » of the document's own text is in none" },
    ),
  },
  { title: "DocumentSearchHit" },
);
export type DocSearchHit = typeof DocSearchHit.static;

export const DocSearchResult = Page(DocSearchHit);
