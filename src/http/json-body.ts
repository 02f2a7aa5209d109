// Request bodies are JSON, read strictly (core/json-text.ts: UTF-8 that is not well formed
// is refused rather than decoded with U+FFFD, a string that is not well-formed Unicode is
// refused naming its field, nesting is bounded), and a body of any other type (a form, text/plain, no type at all) is 415, except a multipart form on a
// route that declared a reader for one (form-body.ts), which that reader reads.
//
// Every body is read here within its route's limit (body-limit.ts), except on routes that
// read their own (`parse: "none"`). Elysia runs this parser on every route and cannot tell
// it which kind of route it serves, so apart from a refused credential (checked before a
// byte is read) and a body over the limit (refused at once: it must not be read further)
// it never fails a request by itself: a body it cannot accept
// becomes a value that throws its AppError the moment anything reads it. A route with a
// body schema reads it (validation, after the credential is checked); a route without one
// never does, and answers as if no body had come.
import { Elysia } from "elysia";
import type { Budget } from "../infra/budget.ts";
import type { Log } from "../infra/log.ts";
import { type BodyLimits, JSON_MAX_BYTES, readBody } from "./body-limit.ts";
import { AppError } from "../core/errors.ts";
import { JSON_MAX_DEPTH, parseJsonBytes, TooDeepError } from "../core/json-text.ts";
import { isMultipartForm, readForm, reserveMemory } from "./form-body.ts";

/** application/json and its +json kin. */
export const JSON_TYPE = /^application\/(?:[a-z0-9!#$&^_.-]+\+)?json$/;
/** A body that throws `error` when read; awaiting it (a `then` lookup) is not a read. */
function refusedBody(error: AppError): object {
  const refuse = () => {
    throw error;
  };
  return new Proxy(Object.freeze(Object.create(null)), {
    get: (_, key) => (key === "then" ? undefined : refuse()),
    has: refuse,
    ownKeys: refuse,
    getOwnPropertyDescriptor: refuse,
  });
}

const unsupported = (type: string, form: boolean) => {
  const accepted = form ? ["application/json", "multipart/form-data"] : ["application/json"];
  const send = accepted.join(" or ");
  return new AppError(
    "UNSUPPORTED_MEDIA_TYPE",
    type ? `a body of type ${type} is not accepted here; send ${send}` : `a body without Content-Type is not accepted here; send ${send}`,
    { accepted, ...(type && { received: type }) },
  );
};

/**
 * Bodies whose items are judged one by one by their route: a sync op or an id whose text is
 * not well-formed is that item's failure (skipped, NOT_FOUND), not the whole request's
 * (ops run independently; an id that is not found is reported per id).
 */
// POST /v1/docs/raw:batch is routed as POST /v1/docs/:id (Elysia reads ":batch" as a parameter).
const ITEMWISE: Record<string, string> = { "POST /v1/kbs/:id/sync": "ops", "POST /v1/docs/:id": "ids" };

/** The charset parameter of a Content-Type, lower-cased, if it has one. */
const charsetOf = (header: string) => /;\s*charset\s*=\s*"?([^";\s]+)"?/i.exec(header)?.[1]?.toLowerCase();

interface ParseContext {
  request: Request;
  route: string;
  set: { headers: Record<string, unknown> };
}

/**
 * The body for Elysia: the parsed JSON value, null when there is no body (a route with a
 * body schema then answers 422 as for any missing body), or a refusal. Throws (413) only
 * for a body over the route's limit.
 */
async function parseBody(context: ParseContext, limits: BodyLimits, log: Log, memory?: Budget): Promise<unknown> {
  const { request, route, set } = context;
  // null, never undefined: undefined would let Elysia fall back to its own lenient parser.
  if (!request.body) return null;
  const { limit: max, form, check } = limits.of(request.method, route);
  if (max === "own") return null;
  // The credential before the body (body-limit.ts): a refused caller's body is not read.
  if (check) await check(context);
  const header = request.headers.get("content-type") ?? "";
  // A route that also takes a form (form-body.ts) reads it with its own reader.
  if (form && isMultipartForm(header)) {
    const read = await readForm(form, request);
    return "body" in read ? read.body : refusedBody(read.refusal);
  }
  // A large body is read within the node's upload memory (its declared length, or the
  // route's maximum when chunked), as upload bodies are, so a flood of them waits or is
  // shed instead of exhausting memory.
  let release: (() => void) | undefined;
  if (memory && max > JSON_MAX_BYTES) {
    const declared = Number(request.headers.get("content-length"));
    const got = await reserveMemory(memory, declared > 0 && declared <= max ? declared : max);
    if (got instanceof AppError) return refusedBody(got);
    release = got;
  }
  let bytes: Uint8Array;
  try {
    bytes = await readBody(request, max);
  } finally {
    release?.();
  }
  if (bytes.byteLength === 0) return null;
  const type = header.split(";", 1)[0]!.trim().toLowerCase();
  if (!JSON_TYPE.test(type)) return refusedBody(unsupported(type, !!form));
  const charset = charsetOf(header);
  // JSON is UTF-8 (RFC 8259 section 8.1); a body declared in another charset would be misread.
  if (charset && charset !== "utf-8" && charset !== "utf8") return refusedBody(unsupported(`${type}; charset=${charset}`, !!form));
  try {
    return parseJsonBytes(bytes, ITEMWISE[`${request.method} ${route}`]);
  } catch (e) {
    if (!(e instanceof AppError)) throw e;
    if (e instanceof TooDeepError) log.info("refused a JSON body nested too deep", { route, limit: JSON_MAX_DEPTH, requestId: set.headers["x-request-id"] });
    return refusedBody(e);
  }
}

/**
 * `limits`: each route's body limit (learned from the app's routes once mounted).
 * `memory`: the node's upload memory, which large bodies (documents) are read within.
 */
export const jsonBody = (limits: BodyLimits, log: Log, memory?: Budget) =>
  new Elysia({ name: "json-body" })
    .onParse({ as: "global" }, (context) => parseBody(context as ParseContext, limits, log, memory))
    // Never run (the parser above always answers), but the OpenAPI document takes a route's
    // body types from the parsers named on it: this one lists application/json alone.
    .on({ as: "global" }, "parse", { fn: "application/json" } as never);
