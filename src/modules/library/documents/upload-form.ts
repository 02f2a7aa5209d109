// POST /v1/docs as multipart/form-data: the document as a `file` part, the other fields of
// the JSON body (filename, title, tags, isPublic, rewriteImages, kbId, relativePath) as
// form fields beside it. The form is read into the object the JSON body would be, and the
// route's schema judges it as it judges JSON (http/form-body.ts), so both doors refuse the
// same things in the same words.
import type { Deps } from "../../../core/deps.ts";
import { DOCUMENT_BODY_MAX_BYTES } from "../../../http/body-limit.ts";
import { validationError } from "../../../core/errors.ts";
import type { FormReader } from "../../../http/form-body.ts";
import { parseJsonField } from "../../../core/json-text.ts";
import { type Upload, uploadLimits, withUpload } from "../../../http/multipart.ts";

/** Form fields that are booleans in the JSON body: "true" or "false" (also 1 or 0). */
const BOOLEANS = new Set(["isPublic", "rewriteImages"]);
// Strict, so a file that is not UTF-8 is refused rather than stored with U+FFFD; the BOM
// kept, as the text is stored byte for byte.
const utf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

function field(name: string, value: string): unknown {
  if (BOOLEANS.has(name)) {
    const v = value.trim().toLowerCase();
    // Anything else is left as text for the schema to refuse ("isPublic must be true or false").
    return v === "true" || v === "1" ? true : v === "false" || v === "0" ? false : value;
  }
  if (name === "tags") return value.trim() === "" ? [] : parseJsonField(value, "body.tags", 'tags must be a JSON array of strings, such as ["notes", "work"]');
  return value;
}

/** The JSON body a document's upload form stands for; 422 for a form without its file. */
function docFromForm(upload: Upload): Record<string, unknown> {
  const { file, fields } = upload;
  if (!file) throw validationError("body.file", "a `file` part is required: the document's text (Markdown or Typst)");
  if ("content" in fields) throw validationError("body.content", "send the document's text as the `file` part, not a `content` field");
  let content: string;
  try {
    content = utf8.decode(file.bytes);
  } catch {
    throw validationError("body.file", "the file is not UTF-8 text; a document is Markdown or Typst text");
  }
  const body: Record<string, unknown> = { content };
  for (const [name, value] of Object.entries(fields)) body[name] = field(name, value);
  // The part's own name unless a `filename` field names it; none at all is what the
  // schema then refuses, naming `filename`.
  if (body.filename === undefined && file.filename) body.filename = file.filename;
  return body;
}

/** The route's form reader: the file at most as large as a JSON document body may be. */
export const docFormReader =
  (deps: Deps): FormReader =>
  (request) =>
    withUpload(
      request,
      uploadLimits(deps, DOCUMENT_BODY_MAX_BYTES),
      // The file's bytes are a view of a pooled buffer given back once this returns: the
      // text is decoded (copied) before.
      async (upload) => docFromForm(upload),
    );
