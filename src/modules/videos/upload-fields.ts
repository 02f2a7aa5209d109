// The text fields of a video upload form (title, tags as JSON text, isPublic) read into
// plain values, each bad one a 422 naming its field.
import { Value } from "@sinclair/typebox/value";
import { validationError } from "../../http/errors.ts";
import { parseJsonField } from "../../http/json-body.ts";
import { mediaFormFields } from "../../http/streamed-upload.ts";
import { Tags } from "../images/public.ts";

export interface VideoFields {
  title?: string;
  tags: string[];
  isPublic: boolean;
}

export function parseVideoFields(fields: Record<string, string>): VideoFields {
  let tags: unknown = [];
  if (fields.tags !== undefined && fields.tags.trim() !== "") {
    tags = parseJsonField(fields.tags, "body.tags", "tags must be a JSON array of strings");
  }
  if (!Value.Check(Tags, tags)) {
    const first = Value.Errors(Tags, tags).First();
    throw validationError(`body.tags${first?.path.replaceAll("/", ".") ?? ""}`, "tags: at most 10, each 1 to 32 characters, no repeats");
  }
  return { ...mediaFormFields(fields), tags: tags as string[] };
}
