import { t } from "elysia";
import { Int, Page } from "../../http/envelope.ts";
import { PlainText } from "../../http/text.ts";
import { ID_PATTERN } from "../../infra/ids.ts";

const Timestamp = t.String({ format: "date-time" });
const Sha256 = t.String({ pattern: "^[0-9a-f]{64}$", description: "SHA-256 hex of the content" });
export const SLUG_PATTERN = "^[a-z0-9][a-z0-9-]{0,62}[a-z0-9]$";
const Name = PlainText({ minLength: 1, maxLength: 120, notBlank: true });
const Description = t.Nullable(PlainText({ maxLength: 500 }));
const RelativePath = t.String({ minLength: 1, maxLength: 4096, description: "POSIX relative path in the KB (NFC-normalized by the server)" });

/** SPEC 2.6. */
export const KbItem = t.Object(
  {
    id: t.String(),
    name: t.String(),
    slug: t.String(),
    description: t.Nullable(t.String()),
    docCount: Int(),
    sizeBytes: Int(),
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
  sort: t.Optional(t.UnionEnum(KB_SORTS, { default: "updated_at", description: "updated_at: most recently changed first; name: A to Z" })),
});

export const KbParams = t.Object({ id: t.String({ pattern: ID_PATTERN }) });
export const DeleteKbQuery = t.Object({ cascade: t.Optional(t.Boolean({ default: false })) });

const SyncVersion = {
  syncVersion: t.Optional(
    t.String({ maxLength: 16, description: "the sync protocol version where a header cannot be set; Service-Sync-Version wins when both are sent" }),
  ),
};

export const ManifestQuery = t.Object({
  since: t.Optional(t.String({ format: "date-time", description: "only entries changed after this instant (a previous serverTime)" })),
  cursor: t.Optional(t.String()),
  limit: t.Optional(t.Integer({ minimum: 1, maximum: 1000, default: 200 })),
  ...SyncVersion,
});

/** SPEC 2.7. */
const ManifestEntry = t.Object(
  {
    relativePath: t.String(),
    sourceHash: t.Nullable(Sha256),
    sizeBytes: t.Nullable(Int()),
    updatedAt: t.Nullable(Timestamp),
    deletedAt: t.Nullable(Timestamp),
  },
  { title: "KbManifestEntry" },
);
export const Manifest = t.Object({ kbId: t.String(), items: t.Array(ManifestEntry), nextCursor: t.Nullable(t.String()), serverTime: Timestamp });

export const SyncQuery = t.Object(SyncVersion);

/** A v1 op as sent; its rules (paths, hashes, bases) are checked by the sync service. */
const SyncOpV1 = t.Object(
  {
    op: t.UnionEnum(["upsert", "delete"]),
    relativePath: RelativePath,
    content: t.Optional(t.String({ description: "upsert only" })),
    sourceHash: t.Optional(t.String({ maxLength: 128, description: "upsert: SHA-256 hex of content, else a LOCAL_HASH_MISMATCH conflict" })),
    baseUpdatedAt: t.Optional(t.Nullable(t.String({ format: "date-time", description: "the updatedAt of the last manifest or sync answer; omit to create" }))),
  },
  { additionalProperties: false },
);
export const SyncV1Body = t.Object(
  { ops: t.Array(SyncOpV1, { description: "1 to 100 ops (more: 422 INVALID_OP_BATCH_SIZE), each applied or refused on its own" }) },
  { additionalProperties: false },
);
export type SyncV1Body = typeof SyncV1Body.static;

const Remote = t.Object({
  sourceHash: t.Nullable(Sha256),
  sizeBytes: t.Nullable(Int()),
  updatedAt: t.Nullable(Timestamp),
  deletedAt: t.Nullable(Timestamp),
  relativePath: t.Nullable(t.String({ description: "the path as the server spells it (differs in letter case for PATH_CASE_CONFLICT)" })),
});

const CONFLICT_REASONS = ["LOCAL_HASH_MISMATCH", "BASE_MISSING", "REMOTE_NEWER", "REMOTE_DELETED", "PATH_CASE_CONFLICT"] as const;
const SKIP_REASONS = ["NOT_FOUND", "ALREADY_DELETED", "INVALID_FILE_TYPE", "DOC_FILE_TOO_LARGE", "QUOTA_EXCEEDED", "STORAGE_ERROR"] as const;

export const SyncV1Result = t.Object({
  applied: t.Array(
    t.Object({ op: t.UnionEnum(["upsert", "delete"]), relativePath: t.String(), id: t.String(), updatedAt: Timestamp, sourceHash: t.Nullable(Sha256) }),
  ),
  conflicts: t.Array(t.Object({ op: t.UnionEnum(["upsert", "delete"]), relativePath: t.String(), reason: t.UnionEnum(CONFLICT_REASONS), remote: Remote })),
  skipped: t.Array(
    t.Object({
      op: t.UnionEnum(["upsert", "delete"]),
      relativePath: t.String(),
      reason: t.UnionEnum(SKIP_REASONS),
      message: t.String(),
      meta: t.Optional(t.Record(t.String(), t.Unknown())),
    }),
  ),
  serverTime: Timestamp,
});
export type SyncV1Result = typeof SyncV1Result.static;
