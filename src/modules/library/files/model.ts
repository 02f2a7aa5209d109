// The schemas of a KB's files (attachments) by hash: the path and query of PUT, HEAD and
// GET /v1/kbs/:id/files/:sha256, and what a PUT answers.
import { t } from "elysia";
import { Enum, Int } from "../../../http/envelope.ts";
import { ID_PATTERN } from "../../../infra/ids.ts";

export const FileParams = t.Object({
  id: t.String({ pattern: ID_PATTERN }),
  sha256: t.String({ pattern: "^[0-9a-f]{64}$", description: "SHA-256 of the file's bytes, lower-case hex" }),
});

export const PutFileQuery = t.Object({
  name: t.Optional(
    t.String({
      minLength: 1,
      maxLength: 1024,
      description: "the file's name: its extension gives the Content-Type where the bytes themselves do not tell it (text, most of all)",
    }),
  ),
});

export const StoredFile = t.Object(
  {
    sha256: t.String({ pattern: "^[0-9a-f]{64}$" }),
    sizeBytes: Int(),
    contentType: t.String({ description: "told from the bytes when they were first stored (else from `name`, else application/octet-stream)" }),
    stored: Enum(["new", "existing"], { description: "new: stored now (201); existing: the owner held these bytes already, and the body was not read (200)" }),
  },
  { title: "KbStoredFile" },
);
