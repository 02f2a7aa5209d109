// The migration routes' request and response models.
import { t } from "elysia";
import { Enum, Int, Page } from "../../http/envelope.ts";
import { ID_PATTERN } from "../../infra/ids.ts";
import { MIGRATION_STATES } from "./table.ts";

const Instant = t.String({ format: "date-time" });

const Entry = t.Object({
  kind: t.String({ description: "image, video, audio, document, kb_document or kb_file" }),
  sourceId: t.String({ description: "its id in the archive" }),
  id: t.Nullable(t.String({ description: "its id here: the same where it was free" })),
  name: t.String(),
  reason: t.Optional(t.String({ description: "why it was skipped, or why it has a new id" })),
});

const MigrationReport = t.Object(
  {
    counts: t.Object({
      imported: Int(),
      skipped: Int(),
      revisions: Int({ description: "earlier texts of KB documents replayed into their history" }),
      kbs: Int({ description: "knowledge bases made (a KB the account had already is filled, not counted)" }),
      collections: Int({
        description: "collections made again, with their items' ids here (one an earlier import of the archive made, still here, is not made again)",
      }),
      rewrittenLinks: Int({ description: "media links in Markdown documents written with this instance's MEDIA_URL (and new ids)" }),
    }),
    imported: t.Array(Entry),
    skipped: t.Array(Entry),
    error: t.Nullable(
      t.Object({
        code: t.String({ description: 'why the archive was refused (docs/api.md, "Migration"); nothing of it was kept' }),
        message: t.String(),
        member: t.Optional(t.String({ description: "the archive member at fault" })),
      }),
    ),
    truncated: t.Boolean({ description: "the lists hold their first 2000 entries each; the counts are whole" }),
  },
  { title: "MigrationReport" },
);

export const MigrationView = t.Object(
  {
    id: t.String({ pattern: ID_PATTERN }),
    status: Enum([...MIGRATION_STATES], { description: "queued, running (progress moves), completed (report), failed (report.error; nothing was imported)" }),
    progress: t.Object({
      itemsDone: Int(),
      itemsTotal: Int({ description: "the archive's items, known once its manifest is read (0 before)" }),
    }),
    archiveBytes: Int(),
    report: t.Nullable(MigrationReport),
    createdAt: Instant,
    startedAt: t.Nullable(Instant),
    finishedAt: t.Nullable(Instant),
  },
  { title: "Migration" },
);
export type MigrationView = typeof MigrationView.static;

export const MigrationPage = Page(MigrationView);

export const MigrationListQuery = t.Object({
  cursor: t.Optional(t.String()),
  limit: t.Optional(t.Integer({ minimum: 1, maximum: 50, default: 20 })),
});

export const MigrationParams = t.Object({ id: t.String({ pattern: ID_PATTERN }) });

/** POST /v1/migration as multipart/form-data, for the OpenAPI document. */
export const MigrationForm = {
  "multipart/form-data": {
    schema: {
      type: "object" as const,
      required: ["file"],
      properties: { file: { type: "string" as const, format: "binary", description: "the zip of an account export (GET /v1/backup/{id}'s downloadUrl)" } },
    },
  },
};

/** POST /v1/migration as JSON: the resumable upload that brought the archive. */
export const MigrationFromUpload = t.Object(
  { uploadId: t.String({ pattern: ID_PATTERN, description: "a finished upload of kind archive (/v1/uploads)" }) },
  { additionalProperties: false },
);

export const MigrationFromUploadJson = {
  "application/json": {
    schema: {
      type: "object" as const,
      required: ["uploadId"],
      additionalProperties: false,
      properties: { uploadId: { type: "string" as const, pattern: ID_PATTERN, description: "a finished upload of kind archive (/v1/uploads)" } },
    },
  },
};
