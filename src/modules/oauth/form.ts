// The parameters of an OAuth request: application/x-www-form-urlencoded as RFC 6749 has
// them, or a JSON object of strings (SPEC 4.9 lets clients send either). A parameter
// given twice, a body of another type or a non-string value is invalid_request.
import { invalidRequest } from "./errors.ts";

const FORM_MAX_BYTES = 16 * 1024;
const FORM_TYPE = "application/x-www-form-urlencoded";

async function readText(request: Request): Promise<string> {
  if (Number(request.headers.get("content-length")) > FORM_MAX_BYTES) throw invalidRequest(`the body may have at most ${FORM_MAX_BYTES} bytes`);
  if (!request.body) return "";
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of request.body) {
    size += chunk.length;
    if (size > FORM_MAX_BYTES) throw invalidRequest(`the body may have at most ${FORM_MAX_BYTES} bytes`);
    chunks.push(chunk);
  }
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(Buffer.concat(chunks, size));
  } catch {
    throw invalidRequest("the body is not valid UTF-8");
  }
}

/**
 * `parsed`: what the app's JSON parser made of the body (a JSON value, or a value that
 * throws its refusal when read); form bodies are left unread by it and read here.
 */
export async function oauthParams(request: Request, parsed: unknown): Promise<Record<string, string>> {
  const type = (request.headers.get("content-type") ?? "").split(";", 1)[0]!.trim().toLowerCase();
  const out: Record<string, string> = Object.create(null);
  if (type === FORM_TYPE) {
    for (const [k, v] of new URLSearchParams(await readText(request))) {
      if (k in out) throw invalidRequest(`${k.slice(0, 64)} is given more than once`);
      out[k] = v;
    }
    return out;
  }
  let value: unknown;
  try {
    value = parsed;
    if (value !== null && typeof value === "object") value = { ...value };
  } catch {
    throw invalidRequest(`send the parameters as ${FORM_TYPE} or as a JSON object`);
  }
  if (value === null || value === undefined) {
    if (type && type !== "application/json") throw invalidRequest(`send the parameters as ${FORM_TYPE} or as a JSON object`);
    return out;
  }
  if (typeof value !== "object" || Array.isArray(value)) throw invalidRequest("the JSON body must be an object");
  for (const [k, v] of Object.entries(value)) {
    if (typeof v !== "string") throw invalidRequest(`${k.slice(0, 64)} must be a string`);
    out[k] = v;
  }
  return out;
}
