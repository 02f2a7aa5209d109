// The text fields upload forms share (images, videos, audio), read into plain values: a bad
// one is a 422 naming the field as the client sent it. One reading for every kind, so a
// form that works for one works for the others.
import type { TSchema } from "@sinclair/typebox";
import { Value } from "@sinclair/typebox/value";
import { validationError } from "./errors.ts";
import { parseJsonField } from "./json-text.ts";
import { stripUnsafeChars } from "./text.ts";

type Fields = Record<string, string>;

/** `isPublic` (or `is_public`): true, false, 1 or 0; default true. */
export function formIsPublic(fields: Fields): boolean {
  const name = fields.isPublic !== undefined ? "isPublic" : "is_public";
  const raw = (fields[name] ?? "true").trim().toLowerCase();
  if (!["true", "false", "1", "0"].includes(raw)) throw validationError(`body.${name}`, `${name} must be true or false`);
  return raw === "true" || raw === "1";
}

/** `tags`: JSON array text held to the kind's `schema` (`rule` says it in words); [] when absent or blank. */
export function formTags(fields: Fields, schema: TSchema, rule: string): string[] {
  const text = fields.tags;
  const tags: unknown = text === undefined || text.trim() === "" ? [] : parseJsonField(text, "body.tags", "tags must be a JSON array of strings");
  if (!Value.Check(schema, tags)) {
    const first = Value.Errors(schema, tags).First();
    throw validationError(`body.tags${first?.path.replaceAll("/", ".") ?? ""}`, `tags: ${first?.message ?? "invalid"} (${rule})`);
  }
  return tags as string[];
}

/**
 * The fields every media upload form shares: `title` (1 to 255 characters after unsafe
 * characters go; absent: the caller's default) and `isPublic`.
 */
export function mediaFormFields(fields: Fields): { title?: string; isPublic: boolean } {
  const isPublic = formIsPublic(fields);
  let title: string | undefined;
  if (fields.title !== undefined) {
    title = stripUnsafeChars(fields.title).trim();
    if (!title || Array.from(title).length > 255) throw validationError("body.title", "title must be 1 to 255 characters");
  }
  return { title, isPublic };
}
