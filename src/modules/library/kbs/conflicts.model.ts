// The schemas of a KB's conflict branches: the list, one branch with its
// content, and what accepting one answers.
import { t } from "elysia";
import { Enum, Int, Page } from "../../../http/envelope.ts";
import { ID_PATTERN } from "../../../infra/ids.ts";

const Timestamp = t.String({ format: "date-time" });
const Sha256 = t.String({ pattern: "^[0-9a-f]{64}$", description: "SHA-256 hex of the content" });

export const ConflictParams = t.Object({ id: t.String({ pattern: ID_PATTERN }), branchId: t.String({ pattern: ID_PATTERN }) });

export const ListConflictsQuery = t.Object({
  cursor: t.Optional(t.String()),
  limit: t.Optional(t.Integer({ minimum: 1, maximum: 50, default: 20 })),
});

/** A pending conflict branch. */
const ConflictBranch = t.Object(
  {
    branchId: t.String(),
    docId: t.String(),
    relativePath: t.String({ description: "the path the client pushed to" }),
    kind: Enum(["document", "file"], {
      description: "document: the branch holds a text; file: it names the owner's file bytes by sourceHash (GET /v1/kbs/{id}/files/{sha256})",
    }),
    sourceHash: Sha256,
    sizeBytes: Int(),
    createdAt: Timestamp,
    expiresAt: Timestamp,
  },
  { title: "ConflictBranch" },
);

export const ConflictPage = Page(ConflictBranch);

export const ConflictBranchContent = t.Object(
  {
    ...ConflictBranch.properties,
    masterHash: t.String({ description: "the master's hash when the branch was opened" }),
    currentMasterHash: t.Nullable(Sha256, { description: "null when the master was deleted since" }),
    currentMasterUpdatedAt: t.Nullable(Timestamp),
    currentMasterPath: t.Nullable(t.String({ description: "the master's path now (it may have moved)" })),
    content: t.Nullable(t.String({ description: "the branch's text; null for a file branch (its bytes: GET /v1/kbs/{id}/files/{sourceHash})" })),
  },
  { title: "ConflictBranchContent" },
);

export const AcceptResult = t.Object({
  branchId: t.String(),
  status: t.Literal("adopted"),
  docId: t.String(),
  relativePath: t.String({ description: "the document's path" }),
  sourceHash: Sha256,
  sizeBytes: Int(),
  updatedAt: Timestamp,
  savedRevision: t.Nullable(t.Object({ id: t.String(), revNumber: Int() }), {
    description:
      "the revision the previous master was saved as; null with version history off, when the master was deleted, or when it already held this content",
  }),
});
