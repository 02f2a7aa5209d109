// A schema failure said as a person reads it, naming the field: "limit must be at most 50",
// "filename is required (the document's name, such as notes.md)", where TypeBox says
// "Expected integer to be less or equal to 50" and names nothing. core.ts answers every
// 422 VALIDATION_ERROR of a route schema through validationIssues.
import type { ValidationError } from "elysia";
import { hasBidiControl, hasControlChar, hasUnsafeChars } from "../core/text.ts";

interface Issue {
  path: string;
  message: string;
}

// The subset of TypeBox's ValueErrorType (@sinclair/typebox/errors) said in words here;
// its numbers are stable within 0.34.
const E = {
  ArrayMaxItems: 2,
  ArrayMinItems: 4,
  ArrayUniqueItems: 5,
  Array: 6,
  Boolean: 14,
  IntegerExclusiveMaximum: 22,
  IntegerExclusiveMinimum: 23,
  IntegerMaximum: 24,
  IntegerMinimum: 25,
  IntegerMultipleOf: 26,
  Integer: 27,
  Kind: 31,
  Literal: 32,
  Null: 35,
  NumberExclusiveMaximum: 36,
  NumberExclusiveMinimum: 37,
  NumberMaximum: 38,
  NumberMinimum: 39,
  NumberMultipleOf: 40,
  Number: 41,
  ObjectAdditionalProperties: 42,
  ObjectMaxProperties: 43,
  ObjectMinProperties: 44,
  ObjectRequiredProperty: 45,
  Object: 46,
  StringFormat: 50,
  StringMaxLength: 51,
  StringMinLength: 52,
  StringPattern: 53,
  String: 54,
  Union: 62,
} as const;

// biome-ignore lint/suspicious/noExplicitAny: a JSON schema node, read by key
type Schema = Record<string, any>;

/** One error as Elysia hands it over (TypeBox's ValueError, plus Elysia's summary). */
interface SchemaError {
  type?: number;
  path?: string;
  message?: string;
  value?: unknown;
  schema?: Schema;
}

const TYPE_NOUN: Record<string, string> = {
  string: "a string",
  number: "a number",
  integer: "an integer",
  boolean: "true or false",
  array: "an array",
  object: "an object",
  null: "null",
};

const FORMAT_NOUN: Record<string, string> = {
  email: "an e-mail address",
  "date-time": "a date and time (ISO 8601, such as 2026-01-31T12:00:00Z)",
  uri: "a URI",
  // Elysia's query and path coercions: a text that reads as the type.
  numeric: "a number",
  integer: "an integer",
  boolean: "true or false",
};

const list = (values: readonly unknown[]) => values.map((v) => JSON.stringify(v)).join(", ");
const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** What a schema accepts, as a noun ("an integer", "a string or null"), when it can be said briefly. */
function noun(s: Schema | undefined): string | undefined {
  if (!s) return undefined;
  if (Array.isArray(s.enum)) return `one of ${list(s.enum)}`;
  if ("const" in s) return JSON.stringify(s.const);
  if (Array.isArray(s.anyOf)) {
    // Elysia's coercion of a query or path value: "51" read as the number it spells.
    const members = s.anyOf.filter((m: Schema) => !(m.type === "string" && m.format in FORMAT_NOUN && m.format !== "email"));
    const nouns = [...new Set((members.length ? members : s.anyOf).map(noun))];
    return nouns.every(Boolean) ? nouns.join(" or ") : undefined;
  }
  if (s.type === "string" && typeof s.format === "string" && FORMAT_NOUN[s.format]) return FORMAT_NOUN[s.format];
  return typeof s.type === "string" ? TYPE_NOUN[s.type] : undefined;
}

/** "(the document's name, such as notes.md)": the field's description up to its first ";", and its first example. */
function hint(s: Schema | undefined): string {
  const about = typeof s?.description === "string" ? s.description.split(";")[0]!.trim() : "";
  const example = Array.isArray(s?.examples) && s.examples.length ? `such as ${s.examples[0]}` : "";
  const parts = [about, example].filter(Boolean);
  return parts.length ? ` (${parts.join(", ")})` : "";
}

function required(name: string, s: Schema | undefined): string {
  const what = Array.isArray(s?.enum) ? `: one of ${list(s.enum)}` : hint(s);
  return `${name} is required${what}`;
}

/** A pattern said in words where it can be: an id, a fixed word or a few, a name's characters. */
function patternMessage(name: string, s: Schema, value: unknown): string {
  const pattern = String(s.pattern ?? "");
  if (typeof value === "string") {
    const refusesControls = pattern.includes("\\u0000-\\u001f");
    if (refusesControls && hasControlChar(value)) return `${name} must not contain control characters (such as a newline or a tab)`;
    if (refusesControls && hasBidiControl(value)) return `${name} must not contain bidi control characters (such as U+202E)`;
    if (refusesControls && hasUnsafeChars(value)) return `${name} must not contain invisible characters (such as U+200B, U+00AD or U+FEFF)`;
    if (pattern.startsWith("^(?=.*\\S)") && value.trim() === "") return `${name} must not be blank`;
    if (pattern.includes("/\\\\") && /[/\\]/.test(value)) return `${name} must not contain / or \\`;
  }
  const id = /^\^\[A-Za-z0-9_-\]\{(\d+)\}\$$/.exec(pattern);
  if (id) return `${name} must be ${id[1]} characters of A-Z, a-z, 0-9, _ and - (an id)`;
  const words = /^\^\(?([A-Za-z0-9_|-]+)\)?\$$/.exec(pattern);
  if (words) return `${name} must be ${words[1]!.includes("|") ? `one of ${list(words[1]!.split("|"))}` : JSON.stringify(words[1])}`;
  return `${name} must match the pattern ${pattern}`;
}

/** The message for one error of the field `name` (its path without the leading "body."). */
function issueMessage(name: string, it: SchemaError): string {
  const s = it.schema ?? {};
  const n = (key: string) => s[key] as number;
  if (it.type === E.ObjectAdditionalProperties) return `${name} is not a field of this request`;
  // A field left out: TypeBox reports it as its type not matching `undefined`.
  if (it.type === E.ObjectRequiredProperty || (it.value === undefined && it.path)) return required(name, s);
  switch (it.type) {
    case E.IntegerMaximum:
    case E.NumberMaximum:
      return `${name} must be at most ${n("maximum")}`;
    case E.IntegerMinimum:
    case E.NumberMinimum:
      return `${name} must be at least ${n("minimum")}`;
    case E.IntegerExclusiveMaximum:
    case E.NumberExclusiveMaximum:
      return `${name} must be less than ${n("exclusiveMaximum")}`;
    case E.IntegerExclusiveMinimum:
    case E.NumberExclusiveMinimum:
      return `${name} must be more than ${n("exclusiveMinimum")}`;
    case E.IntegerMultipleOf:
    case E.NumberMultipleOf:
      return `${name} must be a multiple of ${n("multipleOf")}`;
    case E.StringMaxLength:
      return `${name} must be at most ${plural(n("maxLength"), "character")} long`;
    case E.StringMinLength:
      return n("minLength") === 1 ? `${name} must not be empty` : `${name} must be at least ${plural(n("minLength"), "character")} long`;
    case E.StringPattern:
      return patternMessage(name, s, it.value);
    case E.StringFormat:
      return `${name} must be ${FORMAT_NOUN[s.format] ?? `in the ${s.format} format`}`;
    case E.ArrayMaxItems:
      return `${name} may hold at most ${plural(n("maxItems"), "item")}`;
    case E.ArrayMinItems:
      return `${name} must hold at least ${plural(n("minItems"), "item")}`;
    case E.ArrayUniqueItems:
      return `${name} must not hold the same value twice`;
    case E.ObjectMaxProperties:
      return `${name} may have at most ${plural(n("maxProperties"), "field")}`;
    case E.ObjectMinProperties:
      return `${name} must have at least ${plural(n("minProperties"), "field")}`;
    case E.String:
    case E.Number:
    case E.Integer:
    case E.Boolean:
    case E.Array:
    case E.Object:
    case E.Null:
    case E.Literal:
    case E.Union:
    case E.Kind: {
      const what = noun(s);
      if (what) return `${name} must be ${what}`;
    }
  }
  return `${name}: ${(it.message ?? "invalid").replace(/^Expected/, "expected")}`;
}

/** Where a failure is, as meta.path starts: body, query, path (parameters), headers, cookie. */
const AREA: Record<string, string> = { params: "path" };

/**
 * A value Elysia decodes (a query number such as `limit`) that fails its bounds is reported
 * without its name (error type "property"): the name is found again among the request's
 * query and path values as the one that reads as the refused value.
 */
function findDecoded(value: unknown, inputs: Inputs): { where: string; name: string } | undefined {
  for (const [where, values] of [
    ["query", inputs.query],
    ["path", inputs.params],
  ] as const) {
    for (const [name, raw] of Object.entries(values ?? {})) {
      if (raw === value || (typeof raw === "string" && raw.trim() !== "" && Number(raw) === value)) return { where, name };
    }
  }
  return undefined;
}

/** The request's raw query and path values, for naming a decoded value (findDecoded). */
export interface Inputs {
  query?: Record<string, unknown>;
  params?: Record<string, unknown>;
}

/** meta.path (the first failing field, as body.filename or query.limit) and up to 20 issues, each named. */
export function validationIssues(e: Readonly<ValidationError>, inputs: Inputs = {}): { path: string; issues: Issue[] } {
  let area = AREA[e.type] ?? e.type;
  let prefix = "";
  if (e.type === "property") {
    const found = findDecoded(e.value, inputs);
    area = found?.where ?? "request";
    prefix = found ? `/${found.name}` : "";
  }
  let all: SchemaError[] = [];
  try {
    all = (e.all ?? []) as SchemaError[];
  } catch {
    /* a custom validator without detail */
  }
  const seen = new Set<string>();
  const issues: Issue[] = [];
  for (const it of all) {
    const at = `${prefix}${it.path ?? ""}`;
    const path = `${area}${at.replaceAll("/", ".")}`;
    const name = at ? at.slice(1).replaceAll("/", ".") : area === "request" ? "a query or path value" : area;
    const message = issueMessage(name, { ...it, path: at });
    if (seen.has(path + message)) continue;
    seen.add(path + message);
    issues.push({ path, message });
    if (issues.length >= 20) break;
  }
  if (!issues.length) issues.push({ path: area, message: `${area} is invalid` });
  return { path: issues[0]!.path, issues };
}
