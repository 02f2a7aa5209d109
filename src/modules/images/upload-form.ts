// The upload form (multipart/form-data) read into the plain values createImage takes, so
// the service never sees a request: what is HTTP about an upload ends here.
import { Value } from "@sinclair/typebox/value";
import { validationError } from "../../http/errors.ts";
import { parseJsonField } from "../../http/json-body.ts";
import type { Upload } from "../../http/multipart.ts";
import { Tags } from "./model.ts";
import type { NewImage } from "./service.ts";

/** The optional text fields of an upload: `tags` (JSON array text) and `is_public`. */
function parseUploadFields(fields: Record<string, string>): { tags: string[]; isPublic: boolean } {
  let tags: unknown = [];
  if (fields.tags !== undefined && fields.tags.trim() !== "") {
    tags = parseJsonField(fields.tags, "body.tags", "tags must be a JSON array of strings");
  }
  if (!Value.Check(Tags, tags)) {
    const first = Value.Errors(Tags, tags).First();
    throw validationError(
      `body.tags${first?.path.replaceAll("/", ".") ?? ""}`,
      `tags: ${first?.message ?? "invalid"} (at most 10, each 1 to 32 characters, no repeats)`,
    );
  }
  const raw = (fields.is_public ?? "true").trim().toLowerCase();
  if (!["true", "false", "1", "0"].includes(raw)) throw validationError("body.is_public", "is_public must be true or false");
  return { tags: tags as string[], isPublic: raw === "true" || raw === "1" };
}

/** The image an upload form describes; 422 for a missing or empty `file` or a bad field. */
export function imageFromForm(upload: Upload): NewImage {
  if (!upload.file || upload.file.bytes.length === 0) throw validationError("body.file", "a non-empty `file` field is required");
  return { bytes: upload.file.bytes, filename: upload.file.filename, ...parseUploadFields(upload.fields) };
}
