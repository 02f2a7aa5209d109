// Request bodies are JSON, read strictly: UTF-8 that is not well formed is refused rather
// than decoded with U+FFFD (which would store three replacement characters for a name),
// and a body of any other type (a form, text/plain, no type at all) is 415.
//
// Elysia runs global parsers on every route, also on those declared `parse: "none"` that
// read their own body as a stream (uploads), and it cannot tell them which kind of route
// they serve. So this parser never fails a request by itself: a body it cannot accept
// becomes a value that throws its AppError the moment anything reads it. A route with a
// body schema reads it (validation, before the handler runs); a streaming route or one
// without a body never does, and its body stays unread.
import { Elysia } from "elysia";
import { type Budget, BudgetBusyError } from "../infra/budget.ts";
import { AppError, validationError } from "./errors.ts";

const JSON_TYPE = /^application\/(?:[a-z0-9!#$&^_.-]+\+)?json$/;
/**
 * The largest JSON body any route takes. Every JSON body of the API is a few fields; a
 * client sending more is refused before it is read (by its Content-Length) or the moment
 * it goes over (chunked), so no request can make a node hold a large body it ignores.
 */
const JSON_MAX_BYTES = 1024 * 1024;
/**
 * Routes whose body carries documents (SPEC 4.5: up to 5 MB of text on the largest plan,
 * more while its images are still inline as base64, which rewriting turns into links; a
 * sync batch carries up to 100 texts, and a client with large ones sends smaller batches).
 */
const LARGE_BODY_ROUTES: Record<string, number> = { "POST /v1/docs": 64 * 1024 * 1024, "POST /v1/kbs/:id/sync": 64 * 1024 * 1024 };
/** Routes that read their raw body themselves (a signature covers its exact bytes), JSON or not. */
const RAW_BODY_ROUTES = new Set(["POST /webhooks/:provider"]);
const strictUtf8 = new TextDecoder("utf-8", { fatal: true });

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

const unsupported = (type: string) =>
  refusedBody(
    new AppError(
      "UNSUPPORTED_MEDIA_TYPE",
      type ? `a body of type ${type} is not accepted here; send application/json` : "a body without Content-Type is not accepted here; send application/json",
      {
        accepted: ["application/json"],
        ...(type && { received: type }),
      },
    ),
  );

const malformed = (message: string) => refusedBody(new AppError("BAD_REQUEST", message));
const tooLarge = (max: number) => refusedBody(new AppError("FILE_TOO_LARGE", `a JSON body may have at most ${max} bytes here`, { limit: max }));

/** The whole body, or null as soon as it goes over `max` bytes (the rest is not read). */
async function readAtMost(body: ReadableStream<Uint8Array>, max: number): Promise<Uint8Array | null> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += chunk.length;
    if (size > max) return null; // leaving the loop cancels the stream
    chunks.push(chunk);
  }
  return Buffer.concat(chunks, size);
}

/** The charset parameter of a Content-Type, lower-cased, if it has one. */
const charsetOf = (header: string) => /;\s*charset\s*=\s*"?([^";\s]+)"?/i.exec(header)?.[1]?.toLowerCase();

/**
 * The body for Elysia: the parsed JSON value, null when there is no body (a route with a
 * body schema then answers 422 as for any missing body), or a refusal.
 */
async function parseJsonBody(request: Request, route: string, memory?: Budget): Promise<unknown> {
  // null, never undefined: undefined would let Elysia fall back to its own lenient parser.
  if (!request.body || RAW_BODY_ROUTES.has(`${request.method} ${route}`)) return null;
  const header = request.headers.get("content-type") ?? "";
  const type = header.split(";", 1)[0]!.trim().toLowerCase();
  if (!JSON_TYPE.test(type)) {
    // Left unread: a route that takes no body does not pay for reading one it ignores.
    return request.headers.get("content-length") === "0" ? null : unsupported(type);
  }
  const charset = charsetOf(header);
  // JSON is UTF-8 (RFC 8259 section 8.1); a body declared in another charset would be misread.
  if (charset && charset !== "utf-8" && charset !== "utf8") return unsupported(`${type}; charset=${charset}`);
  const max = LARGE_BODY_ROUTES[`${request.method} ${route}`] ?? JSON_MAX_BYTES;
  const declared = Number(request.headers.get("content-length"));
  if (declared > max) return tooLarge(max);
  // A large body is read within the node's upload memory (its declared length, or the
  // route's maximum when chunked), as upload bodies are, so a flood of them waits or is
  // shed instead of exhausting memory.
  let release: (() => void) | undefined;
  if (memory && max > JSON_MAX_BYTES) {
    try {
      release = await memory.acquire(declared > 0 ? declared : max);
    } catch (e) {
      if (!(e instanceof BudgetBusyError)) throw e;
      return refusedBody(
        new AppError(
          "SERVICE_UNAVAILABLE",
          `this node is busy (${e.budget}); retry in ${e.retryAfterS} s`,
          { budget: e.budget, retryAfter: e.retryAfterS },
          {
            "retry-after": String(e.retryAfterS),
          },
        ),
      );
    }
  }
  let bytes: Uint8Array | null;
  try {
    bytes = await readAtMost(request.body, max);
  } finally {
    release?.();
  }
  if (!bytes) return tooLarge(max);
  if (bytes.byteLength === 0) return null;
  let text: string;
  try {
    text = strictUtf8.decode(bytes);
  } catch {
    return malformed("the request body is not valid UTF-8");
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return malformed("the request body is not valid JSON");
  }
  // Every JSON body of the API is an object. Elysia would coerce a bare array, number or
  // string to an empty object before the route's schema sees it, so a PATCH of `5` or
  // `[]` would pass as a no-op `{}`; it is refused here as the schema would refuse it.
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
    return refusedBody(validationError("body", "the body must be a JSON object"));
  }
  return parsed;
}

/** `memory`: the node's upload memory, which large bodies (documents) are read within. */
export const jsonBody = (memory?: Budget) =>
  new Elysia({ name: "json-body" })
    .onParse({ as: "global" }, ({ request, route }) => parseJsonBody(request, route, memory))
    // Never run (the parser above always answers), but the OpenAPI document takes a route's
    // body types from the parsers named on it: this one lists application/json alone.
    .on({ as: "global" }, "parse", { fn: "application/json" } as never);
