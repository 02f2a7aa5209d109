import { t } from "elysia";
import { Enum, Int, Page } from "../../../http/envelope.ts";
import { PlainText } from "../../../core/text.ts";
import { ID_PATTERN } from "../../../infra/ids.ts";
import { TypstIssue } from "../documents/model.ts";

const Timestamp = t.String({ format: "date-time" });
const Sha256 = t.String({ pattern: "^[0-9a-f]{64}$", description: "SHA-256 hex of the content" });
export const SLUG_PATTERN = "^[a-z0-9][a-z0-9-]{0,62}[a-z0-9]$";
const Name = PlainText({ minLength: 1, maxLength: 120, notBlank: true });
const Description = t.Nullable(PlainText({ maxLength: 500 }));
// Only a bound on what is read here: the path rules are judged per op, so a
// path that breaks one refuses its op alone (sync/values.ts).
const RelativePath = t.String({
  maxLength: 4096,
  description: "POSIX relative path in the KB (NFC-normalized by the server); one that breaks a path rule skips its op (VALIDATION_ERROR)",
});

/** A knowledge base. */
export const KbItem = t.Object(
  {
    id: t.String(),
    name: t.String(),
    slug: t.String(),
    description: t.Nullable(t.String()),
    docCount: Int({ description: "active documents" }),
    fileCount: Int({ description: "active files (attachments)" }),
    sizeBytes: Int({ description: "bytes of the active documents and files" }),
    isDefault: t.Boolean(),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  },
  { title: "KbItem" },
);
export type KbItem = typeof KbItem.static;
export const KbPage = Page(KbItem);

export const CreateKbBody = t.Object(
  {
    name: Name,
    slug: t.Optional(t.String({ pattern: SLUG_PATTERN, description: "derived from the name when omitted (lower case, spaces become -)" })),
    description: t.Optional(Description),
    isDefault: t.Optional(t.Boolean()),
  },
  { additionalProperties: false },
);
export type CreateKbBody = typeof CreateKbBody.static;

export const UpdateKbBody = t.Object(
  {
    name: t.Optional(Name),
    description: t.Optional(Description),
    isDefault: t.Optional(t.Boolean()),
    slug: t.Optional(t.String({ description: "immutable: accepted only when equal to the KB's slug" })),
  },
  { additionalProperties: false, minProperties: 1 },
);
export type UpdateKbBody = typeof UpdateKbBody.static;

const KB_SORTS = ["updated_at", "name"] as const;
export const ListKbsQuery = t.Object({
  cursor: t.Optional(t.String()),
  limit: t.Optional(t.Integer({ minimum: 1, maximum: 50, default: 20 })),
  sort: t.Optional(Enum(KB_SORTS, { default: "updated_at", description: "updated_at: most recently changed first; name: A to Z" })),
});

export const KbParams = t.Object({ id: t.String({ pattern: ID_PATTERN }) });
export const DeleteKbQuery = t.Object({ cascade: t.Optional(t.Boolean({ default: false })) });

const SyncVersion = {
  syncVersion: t.Optional(
    t.String({ maxLength: 16, description: "the sync protocol version where a header cannot be set; Service-Sync-Version wins when both are sent" }),
  ),
};

export const ManifestQuery = t.Object({
  since: t.Optional(
    t.String({
      maxLength: 512,
      description: "only entries changed after this: an ISO 8601 instant (a previous serverTime), or under v2 a previous sinceCursor",
    }),
  ),
  cursor: t.Optional(t.String()),
  limit: t.Optional(t.Integer({ minimum: 1, maximum: 1000, default: 200 })),
  // A pattern, not an enum: Elysia fills an absent enum query value with its first member.
  include: t.Optional(t.String({ pattern: "^tombstones$", description: "v2: `tombstones` adds the tombstones after `since` to the last page" })),
  ...SyncVersion,
});

const Kind = Enum(["document", "file"], {
  description: "v2: what the path holds: a document (text: Markdown or Typst) or a file (any bytes, an attachment)",
});

/** A manifest entry. */
const ManifestEntry = t.Object(
  {
    relativePath: t.String(),
    sourceHash: t.Nullable(Sha256),
    sizeBytes: t.Nullable(Int()),
    updatedAt: t.Nullable(Timestamp),
    deletedAt: t.Nullable(Timestamp),
    docId: t.Optional(t.String({ description: "v2: the document's id (kept across moves)" })),
    kind: t.Optional(Kind),
    contentType: t.Optional(t.String({ description: "v2, an active file: its Content-Type, decided from its bytes when stored (raw by path answers it)" })),
    hasPendingBranches: t.Optional(t.Boolean({ description: "v2: the document has pending conflict branches (GET /v1/kbs/{id}/conflicts lists them)" })),
  },
  { title: "KbManifestEntry" },
);

/** A tombstone. */
const Tombstone = t.Object({ docId: t.String(), relativePath: t.String(), sourceHash: Sha256, kind: Kind, deletedAt: Timestamp }, { title: "KbTombstone" });

export const Manifest = t.Object({
  kbId: t.String(),
  items: t.Array(ManifestEntry),
  nextCursor: t.Nullable(t.String()),
  serverTime: Timestamp,
  sinceCursor: t.Optional(t.String({ description: "v2, on the last page: the `since` of the next incremental read" })),
  tombstones: t.Optional(t.Array(Tombstone, { description: "v2 with include=tombstones, on the last page: paths gone after `since`" })),
  tombstoneCursorExpired: t.Optional(t.Literal(true, { description: "v2: `since` is older than the plan's tombstone retention; read again without it" })),
  retentionDays: t.Optional(Int()),
  hint: t.Optional(t.String()),
});

export const SyncQuery = t.Object({
  ...SyncVersion,
  conflictResolution: t.Optional(
    t.String({ pattern: "^(default|preserve_both)$", description: "v2: default (a stale op is refused: 409 SYNC_CONFLICT) or preserve_both" }),
  ),
});

/**
 * An op as sent, of either protocol version (one body schema for both: the version is a
 * header); the rules of each op and version (which fields, paths, hashes, bases) are
 * checked by its wire format (sync/v1.ts, sync/v2.ts).
 */
const SyncOp = t.Object(
  {
    op: Enum(["upsert", "delete", "update", "move", "rename", "tombstone_ack"], {
      description: "v1: upsert, delete; v2 also update, move, rename (a move within the document's folder), tombstone_ack",
    }),
    relativePath: t.Optional(RelativePath),
    kind: t.Optional(
      Enum(["document", "file"], {
        description:
          "v2 upsert and update: document (the default: content carries the text) or file (no content: sourceHash names bytes the owner holds, stored by PUT /v1/kbs/{id}/files/{sha256}; skipped FILE_MISSING otherwise)",
      }),
    ),
    content: t.Optional(t.String({ description: "upsert, update of a document" })),
    sourceHash: t.Optional(
      t.String({
        maxLength: 128,
        description: "SHA-256 hex of content (upsert, update), or of the text held at fromPath (move) or of the document (rename); v2 requires it",
      }),
    ),
    baseUpdatedAt: t.Optional(t.Nullable(t.String({ format: "date-time", description: "the updatedAt of the last manifest or sync answer; omit to create" }))),
    baseHash: t.Optional(t.String({ maxLength: 128, description: "v2: the master hash last seen; wins over baseUpdatedAt" })),
    overwrite: t.Optional(
      t.Boolean({
        description:
          "v2 upsert: replace whatever the path holds, whatever its version (no base; its text is kept as a revision where history is on); with a base the op is skipped (VALIDATION_ERROR)",
      }),
    ),
    docId: t.Optional(t.String({ maxLength: 64, description: "v2 update, rename and tombstone_ack: the document" })),
    fromPath: t.Optional(RelativePath),
    toPath: t.Optional(RelativePath),
    newName: t.Optional(
      t.String({
        maxLength: 1024,
        description:
          "v2 rename: the document's new file name, one path segment (no / or \\) in its folder; one that breaks a path rule skips its op (VALIDATION_ERROR)",
      }),
    ),
  },
  { additionalProperties: false },
);
export const SyncBody = t.Object(
  { ops: t.Array(SyncOp, { description: "v1: 1 to 100 ops, v2: 1 to 200 (more: 422 INVALID_OP_BATCH_SIZE), each applied or refused on its own" }) },
  { additionalProperties: false },
);
export type SyncBody = typeof SyncBody.static;

const Remote = t.Object({
  sourceHash: t.Nullable(Sha256),
  sizeBytes: t.Nullable(Int()),
  updatedAt: t.Nullable(Timestamp),
  deletedAt: t.Nullable(Timestamp),
  relativePath: t.Nullable(t.String({ description: "the path as the server spells it (differs in letter case for PATH_CASE_CONFLICT)" })),
});

const CONFLICT_REASONS = ["LOCAL_HASH_MISMATCH", "BASE_MISSING", "REMOTE_NEWER", "REMOTE_DELETED", "PATH_CASE_CONFLICT"] as const;
const SKIP_REASONS = [
  "VALIDATION_ERROR",
  "NOT_FOUND",
  "ALREADY_DELETED",
  "INVALID_FILE_TYPE",
  "DOC_FILE_TOO_LARGE",
  "QUOTA_EXCEEDED",
  "STORAGE_ERROR",
  "COMPLIANCE_BLOCKED",
  "DEPENDENCY_UNAVAILABLE",
  "FILE_MISSING",
  "PATH_HOLDS_FILE",
] as const;

const OpIndex = Int({ description: "the op's position in the request's ops, from 0" });
const V1OpName = Enum(["upsert", "delete"]);

const SKIP_NOTE =
  "VALIDATION_ERROR: a value of the op broke a rule (a path rule, NUL or a lone surrogate in the content, a base that is no instant or no SHA-256 hex); meta.path names the field (body.ops.<i>.<field>), meta.problem the rule. The other ops of the batch still apply. FILE_MISSING (v2, a file op): the owner holds no bytes with its sourceHash (meta.sourceHash): PUT them, then send the op again. PATH_HOLDS_FILE (v1): the path holds a file, which v1 does not show or replace.";

export const SyncV1Result = t.Object({
  applied: t.Array(
    t.Object({ opIndex: OpIndex, op: V1OpName, relativePath: t.String(), id: t.String(), updatedAt: Timestamp, sourceHash: t.Nullable(Sha256) }),
  ),
  conflicts: t.Array(t.Object({ opIndex: OpIndex, op: V1OpName, relativePath: t.String(), reason: Enum(CONFLICT_REASONS), remote: Remote })),
  skipped: t.Array(
    t.Object({
      opIndex: OpIndex,
      op: V1OpName,
      relativePath: t.String({ description: "NFC-normalized; as sent when the path itself broke a rule" }),
      reason: Enum(SKIP_REASONS, { description: SKIP_NOTE }),
      message: t.String(),
      meta: t.Optional(t.Record(t.String(), t.Unknown())),
    }),
  ),
  serverTime: Timestamp,
});
export type SyncV1Result = typeof SyncV1Result.static;

const V2_STATUSES = ["applied", "conflict", "skipped", "conflict_branch_created"] as const;

/** One op's outcome under v2 (docs/sync.md): in the 200 answer, and in meta.results of 409 SYNC_CONFLICT. */
const SyncV2OpResult = t.Object(
  {
    opIndex: OpIndex,
    op: Enum(["upsert", "delete", "update", "move", "rename", "tombstone_ack"]),
    status: Enum(V2_STATUSES),
    docId: t.Nullable(t.String()),
    relativePath: t.Optional(
      t.String({ description: "the op's path (a move's or rename's: the new path when applied, the old one otherwise); as sent when it broke a rule" }),
    ),
    fromPath: t.Optional(t.String({ description: "an applied move or rename: the path it left" })),
    kind: t.Optional(Enum(["document", "file"], { description: "an applied op: what its path now holds (a delete: what it held)" })),
    change: t.Optional(
      Enum(["created", "updated", "unchanged"], {
        description:
          "an applied upsert: created where the path held no active document, updated where it replaced one's text, unchanged where the document already had this text",
      }),
    ),
    updatedAt: t.Optional(Timestamp),
    sourceHash: t.Optional(t.Nullable(Sha256)),
    reason: t.Optional(t.String({ description: `conflict: a conflict reason; skipped: why (${SKIP_REASONS.join(", ")}). ${SKIP_NOTE}` })),
    message: t.Optional(t.String()),
    meta: t.Optional(t.Record(t.String(), t.Unknown())),
    currentMasterHash: t.Optional(t.Nullable(Sha256)),
    currentMasterUpdatedAt: t.Optional(t.Nullable(Timestamp)),
    branchId: t.Optional(t.String()),
    warnings: t.Optional(
      t.Array(TypstIssue, { description: "an applied upsert or update of a .typ: the compile check's diagnostics, as POST /v1/docs reports them" }),
    ),
  },
  { title: "SyncV2OpResult" },
);
export type SyncV2OpResult = typeof SyncV2OpResult.static;
export const SyncV2Result = t.Object({ results: t.Array(SyncV2OpResult), serverTime: Timestamp });
