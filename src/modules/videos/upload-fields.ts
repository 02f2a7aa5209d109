// The text fields of a video upload form (title, tags as JSON text, isPublic) read into
// plain values, each bad one a 422 naming its field.
import { formTags, mediaFormFields } from "../../core/form-fields.ts";
import { Tags, TAGS_RULE } from "../images/public.ts";

export interface VideoFields {
  title?: string;
  tags: string[];
  isPublic: boolean;
}

export function parseVideoFields(fields: Record<string, string>): VideoFields {
  return { ...mediaFormFields(fields), tags: formTags(fields, Tags, TAGS_RULE) };
}
