// The parameters of an OAuth request: application/x-www-form-urlencoded as RFC 6749 has
// them, or a JSON object of strings (clients may send either). A parameter
// given twice, a body of another type or a non-string value is invalid_request.
import { readBody } from "../../http/body-limit.ts";
import { AppError } from "../../core/errors.ts";
import { parseJsonBytes } from "../../core/json-text.ts";
import { JSON_TYPE } from "../../http/json-body.ts";
import { OAuthError, invalidRequest } from "./errors.ts";

const FORM_MAX_BYTES = 16 * 1024;
const FORM_TYPE = "application/x-www-form-urlencoded";
const strictUtf8 = new TextDecoder("utf-8", { fatal: true });

/**
 * The body, within FORM_MAX_BYTES (RFC 6749's invalid_request past it, and the connection
 * closed: the rest is not read).
 */
async function readAll(request: Request): Promise<Uint8Array> {
  try {
    return await readBody(request, FORM_MAX_BYTES);
  } catch (e) {
    if (e instanceof AppError && e.code === "FILE_TOO_LARGE") {
      throw new OAuthError("invalid_request", `the body may have at most ${FORM_MAX_BYTES} bytes`, 400, "FILE_TOO_LARGE", { connection: "close" });
    }
    throw e;
  }
}

/** The parameters of an OAuth request's body (its route reads its own: `parse: "none"`). */
export async function oauthParams(request: Request): Promise<Record<string, string>> {
  const type = (request.headers.get("content-type") ?? "").split(";", 1)[0]!.trim().toLowerCase();
  const out: Record<string, string> = Object.create(null);
  const bytes = await readAll(request);
  if (type === FORM_TYPE) {
    let text: string;
    try {
      text = strictUtf8.decode(bytes);
    } catch {
      throw invalidRequest("the body is not valid UTF-8");
    }
    for (const [k, v] of new URLSearchParams(text)) {
      if (k in out) throw invalidRequest(`${k.slice(0, 64)} is given more than once`);
      out[k] = v;
    }
    return out;
  }
  if (bytes.length === 0 && (!type || JSON_TYPE.test(type))) return out;
  if (!JSON_TYPE.test(type)) throw invalidRequest(`send the parameters as ${FORM_TYPE} or as a JSON object`);
  let value: Record<string, unknown>;
  try {
    value = parseJsonBytes(bytes);
  } catch (e) {
    if (e instanceof AppError) throw invalidRequest(e.message);
    throw e;
  }
  for (const [k, v] of Object.entries(value)) {
    if (typeof v !== "string") throw invalidRequest(`${k.slice(0, 64)} must be a string`);
    out[k] = v;
  }
  return out;
}
