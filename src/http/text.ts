// Text a user names things with (nicknames, key names, tags, file names). None of these
// characters belongs in a name:
// - C0 controls and DEL: Postgres cannot store NUL, and a newline forges log lines;
// - C1 controls (U+0080-U+009F): invisible, and some terminals act on them;
// - bidi controls (U+202A-U+202E, U+2066-U+2069, U+200E, U+200F, U+061C): they reorder
//   what is displayed, so "gnp.exe" behind U+202E reads as "exe.png" in a listing.
// JSON names that hold one are refused (422); upload file names have them stripped
// (multipart.ts), since an upload should not fail for its name. A KB path is a name too:
// the path rule (documents/path.ts) refuses the same characters.
import type { StringOptions } from "@sinclair/typebox";
import { t } from "elysia";
import { AppError } from "./errors.ts";

const CONTROLS = "\\u0000-\\u001f\\u007f-\\u009f";
const BIDI_CONTROLS = "\\u061c\\u200e\\u200f\\u202a-\\u202e\\u2066-\\u2069";
const UNSAFE = `${CONTROLS}${BIDI_CONTROLS}`;

const UNSAFE_CHARS = new RegExp(`[${UNSAFE}]`, "g");
const CONTROL_CHAR = new RegExp(`[${CONTROLS}]`);
const BIDI_CONTROL = new RegExp(`[${BIDI_CONTROLS}]`);

/** Whether the text holds a C0 or C1 control or DEL (the KB path rule refuses them too). */
export const hasControlChar = (text: string) => CONTROL_CHAR.test(text);
/** Whether the text holds a bidi control (the KB path rule refuses them too). */
export const hasBidiControl = (text: string) => BIDI_CONTROL.test(text);

/** The name with every character PlainText refuses removed. */
export const stripUnsafeChars = (name: string) => name.replace(UNSAFE_CHARS, "");

/** Whether the name holds a character PlainText refuses. */
export const hasUnsafeChars = (name: string) => hasControlChar(name) || hasBidiControl(name);

export interface PlainTextOptions extends Omit<StringOptions, "pattern"> {
  /** Refuse a name of only white space too. */
  notBlank?: boolean;
  /** More characters to refuse, as the inside of a regex character class (e.g. "/\\\\"). */
  alsoRefuse?: string;
}

export const PlainText = ({ notBlank = false, alsoRefuse = "", ...opts }: PlainTextOptions = {}) =>
  t.String({ ...opts, pattern: `^${notBlank ? "(?=.*\\S)" : ""}[^${UNSAFE}${alsoRefuse}]*$` });

/** A multipart text field whose bytes are not UTF-8: a 400, as in a JSON body (json-body.ts). */
export const notUtf8Field = (name: string) => new AppError("BAD_REQUEST", `the field ${name} is not valid UTF-8`, { field: `body.${name}` });

/**
 * Why a text field as busboy decoded it is refused; null when it is not. busboy decodes
 * bytes that are not UTF-8 to U+FFFD and hands no bytes, so U+FFFD is taken for them (no
 * title or tag needs it); they are never kept as replacement characters.
 */
export const badFieldText = (name: string, value: string): AppError | null => (value.includes("\uFFFD") ? notUtf8Field(name) : null);
