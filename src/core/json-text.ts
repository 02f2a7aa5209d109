// JSON text read strictly, for bodies (http/json-body.ts) and for form fields that hold JSON
// (an upload's `tags`): UTF-8 that is not well formed is refused rather than decoded with
// U+FFFD, a string that is not well-formed Unicode (an escaped lone surrogate, "\ud800") is
// refused naming its field, and nesting is bounded.
import { AppError, validationError } from "./errors.ts";

/**
 * The deepest nesting a body may have. The API's deepest body (a sync op inside `ops`) is
 * three levels; validating or reporting on a value nested thousands deep runs out of stack.
 */
export const JSON_MAX_DEPTH = 64;
const strictUtf8 = new TextDecoder("utf-8", { fatal: true });

export class TooDeepError extends AppError {
  constructor() {
    super("BAD_REQUEST", `the request body is nested deeper than ${JSON_MAX_DEPTH} levels`, { limit: JSON_MAX_DEPTH });
  }
}

/**
 * Throws TooDeepError past JSON_MAX_DEPTH, and VALIDATION_ERROR naming the first string
 * (value or key) that is not well-formed Unicode, except within `text === false` subtrees.
 * The recursion is bounded by the depth.
 */
function checkValue(value: unknown, path: string, depth: number, text = true): void {
  if (typeof value === "string") {
    if (text && !value.isWellFormed()) throw illFormed(path);
    return;
  }
  if (typeof value !== "object" || value === null) return;
  if (depth >= JSON_MAX_DEPTH) throw new TooDeepError();
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) checkValue(value[i], `${path}.${i}`, depth + 1, text);
    return;
  }
  for (const key in value) {
    if (text && !key.isWellFormed()) throw illFormed(`${path}.${key.toWellFormed()}`);
    checkValue((value as Record<string, unknown>)[key], `${path}.${key}`, depth + 1, text);
  }
}

/** checkValue of a body, its `itemwise` field's text left to the route. */
function checkBody(body: Record<string, unknown>, itemwise: string | undefined): void {
  if (!itemwise) {
    checkValue(body, "body", 0);
    return;
  }
  for (const key in body) {
    if (!key.isWellFormed()) throw illFormed(`body.${key.toWellFormed()}`);
    checkValue(body[key], `body.${key}`, 1, key !== itemwise);
  }
}

const illFormed = (path: string) => validationError(path, "the text is not well-formed Unicode (it holds a lone surrogate)");

/**
 * A JSON body's bytes as a value: BAD_REQUEST for bytes that are not UTF-8 or not JSON, or
 * nested too deep; VALIDATION_ERROR for a body that is not an object or holds a string that
 * is not well-formed Unicode. The one reading of a JSON body, here and where a route reads
 * its own (OAuth's JSON parameters).
 */
export function parseJsonBytes(bytes: Uint8Array, itemwise?: string): Record<string, unknown> {
  let text: string;
  try {
    text = strictUtf8.decode(bytes);
  } catch {
    throw new AppError("BAD_REQUEST", "the request body is not valid UTF-8");
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (e) {
    // A body nested so deep that the parser itself runs out of stack.
    if (e instanceof RangeError) throw new TooDeepError();
    throw new AppError("BAD_REQUEST", "the request body is not valid JSON");
  }
  // Every JSON body of the API is an object. Elysia would coerce a bare array, number or
  // string to an empty object before the route's schema sees it, so a PATCH of `5` or
  // `[]` would pass as a no-op `{}`; it is refused here as the schema would refuse it.
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
    // Its depth first: a deep array is refused as too deep, as a deep object is.
    checkValue(parsed, "body", 0);
    throw validationError("body", "the body must be a JSON object");
  }
  checkBody(parsed as Record<string, unknown>, itemwise);
  return parsed as Record<string, unknown>;
}

/**
 * A form field that holds JSON text (an upload's `tags`), read by the same rules as a body:
 * VALIDATION_ERROR at `path` when it is not JSON, nests too deep, or holds a string that is
 * not well-formed Unicode.
 */
export function parseJsonField(text: string, path: string, what: string): unknown {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw validationError(path, what);
  }
  try {
    checkValue(value, path, 0);
  } catch (e) {
    if (e instanceof TooDeepError) throw validationError(path, what);
    throw e;
  }
  return value;
}
