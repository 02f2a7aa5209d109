// The upload form (multipart/form-data) read into the plain values createImage takes, so
// the service never sees a request: what is HTTP about an upload ends here.
import { validationError } from "../../core/errors.ts";
import { formIsPublic, formTags } from "../../core/form-fields.ts";
import type { Upload } from "../../http/multipart.ts";
import { Tags, TAGS_RULE } from "./model.ts";
import type { NewImage } from "./service.ts";

/** The image an upload form describes; 422 for a missing or empty `file` or a bad field. */
export function imageFromForm(upload: Upload): NewImage {
  if (!upload.file || upload.file.bytes.length === 0) throw validationError("body.file", "a non-empty `file` field is required");
  const { fields } = upload;
  return { bytes: upload.file.bytes, filename: upload.file.filename, tags: formTags(fields, Tags, TAGS_RULE), isPublic: formIsPublic(fields) };
}
