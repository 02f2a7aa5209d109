// The backup routes' request and response models.
import { t } from "elysia";
import { Enum, Int, Page } from "../../http/envelope.ts";
import { ID_PATTERN } from "../../infra/ids.ts";
import { EXPORT_KINDS, EXPORT_STATES } from "./table.ts";

const Instant = t.String({ format: "date-time" });
const Kind = Enum([...EXPORT_KINDS]);

export const NewExportBody = t.Object(
  {
    kinds: t.Optional(
      t.Array(Kind, {
        minItems: 1,
        maxItems: EXPORT_KINDS.length,
        uniqueItems: true,
        description: "what the archive holds: images, videos, audio, documents (those outside any KB), kbs; all of them when absent",
      }),
    ),
    kbIds: t.Optional(
      t.Array(t.String({ pattern: ID_PATTERN }), {
        minItems: 1,
        maxItems: 500,
        description: "only these KBs (with kinds holding kbs, or absent); every KB when absent. 404 for one that is not the caller's",
      }),
    ),
  },
  { additionalProperties: false },
);
export type NewExportBody = typeof NewExportBody.static;

export const ExportView = t.Object(
  {
    id: t.String({ pattern: ID_PATTERN }),
    state: Enum([...EXPORT_STATES], {
      description: "queued, running (progress moves), ready (downloadUrl until expiresAt), failed (failureReason), expired (the archive is removed)",
    }),
    kinds: t.Array(Kind),
    kbIds: t.Nullable(t.Array(t.String(), { description: "the KBs it holds; null: every KB" })),
    progress: t.Object({
      itemsDone: Int({ description: "items (each original, document, revision and KB file) copied into the archive" }),
      itemsTotal: Int({ description: "items to copy, counted when the export starts (0 before)" }),
      bytesDone: Int(),
      bytesTotal: Int(),
    }),
    archiveBytes: t.Nullable(Int({ description: "the archive's size, once ready" })),
    filename: t.String({ description: "what the download is named (Content-Disposition)" }),
    downloadUrl: t.Nullable(
      t.String({
        description:
          "ready only: a signed URL of the zip that needs no credential (ranges, HEAD), good until expiresAt or until the export is deleted. Handed to the owner only: keep it as you would a password",
      }),
    ),
    expiresAt: t.Nullable(Instant),
    failureReason: t.Nullable(t.String()),
    createdAt: Instant,
    startedAt: t.Nullable(Instant),
    finishedAt: t.Nullable(Instant),
  },
  { title: "AccountExport" },
);
export type ExportView = typeof ExportView.static;

export const ExportPage = Page(ExportView);

export const ExportListQuery = t.Object({
  cursor: t.Optional(t.String()),
  limit: t.Optional(t.Integer({ minimum: 1, maximum: 50, default: 20 })),
});

export const ExportParams = t.Object({ id: t.String({ pattern: ID_PATTERN }) });

export const ArchiveQuery = t.Object({
  expires: t.String({ pattern: "^[0-9]{1,12}$", description: "as the downloadUrl has it" }),
  signature: t.String({ pattern: "^[A-Za-z0-9_-]{43}$", description: "as the downloadUrl has it" }),
});
