// The HTTP core every module sits on: request ids, strict JSON bodies (json-body.ts), and
// one onError that maps every failure to the error envelope. Nothing unexpected leaks: no
// stack, SQL or path in a body.
import { Elysia, type ValidationError } from "elysia";
import { type Budget, BudgetBusyError } from "../infra/budget.ts";
import { databaseUnavailableCode } from "../infra/db/unavailable.ts";
import { KvUnavailableError } from "../infra/kv/types.ts";
import type { Log } from "../infra/log.ts";
import { StorageUnavailableError } from "../infra/storage/types.ts";
import { type AccessLog, noteErrorBody } from "./access-log.ts";
import { AppError, ERROR_STATUS, type ErrorCode, storageError } from "../core/errors.ts";
import { type BodyLimits, bodyLimits, lingeringClose, refuseGetBody } from "./body-limit.ts";
import { jsonBody } from "./json-body.ts";
import { refusalError, LimitRefusal } from "../core/refusal.ts";
import { type Inputs, validationIssues } from "./validation.ts";

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

const envelope = (code: ErrorCode, error: string, meta: Record<string, unknown> = {}) => ({
  success: false as const,
  error,
  code,
  meta,
});

/** Postgres' SQLSTATE of a failed query (drizzle wraps the driver's error as `cause`). */
function dbErrorCode(e: unknown): string | undefined {
  const err = e as { code?: unknown; cause?: { code?: unknown } };
  const code = err?.cause?.code ?? err?.code;
  return typeof code === "string" ? code : undefined;
}
// character_not_in_repertoire (NUL in text), untranslatable_character
const UNSTORABLE_TEXT = new Set(["22021", "22P05"]);
// numeric_value_out_of_range (a number past its column's type: 1e308 in a `real`),
// datetime_field_overflow, interval_field_overflow
const UNSTORABLE_NUMBER = new Set(["22003", "22008", "22015"]);

/**
 * How soon a client is told to try again while the database is away: a restart or a
 * failover takes seconds, and a refused connection costs the node next to nothing.
 */
const DATABASE_RETRY_AFTER_S = 5;
/** The same for Redis: a restart takes a second or two, and ioredis reconnects by itself. */
const KV_RETRY_AFTER_S = 2;

/**
 * The database away (src/infra/db/unavailable.ts): the request was fine and succeeds once it
 * is back, so 503 with Retry-After, the spec's DEPENDENCY_UNAVAILABLE (502 in its table, for
 * a provider's failure) with the status that tells a client to come back. An outage, not a
 * fault: logged once at warn, without the driver's message (it names the server's address)
 * or a stack. Undefined for any other failure. errorAnswer answers with it; the doors that
 * answer in a form of their own (OAuth's protocol endpoints, its pages) ask it too.
 */
export function outageError(error: unknown, request: Request, requestId: string, log: Log): AppError | undefined {
  const code = databaseUnavailableCode(error);
  if (!code) return undefined;
  log.warn("database unavailable", { code, method: request.method, url: new URL(request.url).pathname, requestId });
  return new AppError(
    "DEPENDENCY_UNAVAILABLE",
    `the database is unavailable; retry in ${DATABASE_RETRY_AFTER_S} s`,
    { dependency: "database", retryAfter: DATABASE_RETRY_AFTER_S },
    { "retry-after": String(DATABASE_RETRY_AFTER_S) },
    503,
  );
}

/**
 * The object store away (src/infra/storage/outages.ts), wherever a route met it: 503
 * STORAGE_ERROR with Retry-After, as storageError answers it where a route expects it, and
 * logged once at warn like the database's outage. Undefined for any other failure.
 */
function storageOutageError(error: unknown, request: Request, requestId: string, log: Log): AppError | undefined {
  let e = error;
  for (let depth = 0; e && typeof e === "object" && depth < 4; depth++) {
    if (e instanceof StorageUnavailableError) {
      log.warn("object store unavailable", { code: e.code, method: request.method, url: new URL(request.url).pathname, requestId });
      return storageError(e, "the object store is unavailable");
    }
    e = (e as { cause?: unknown }).cause;
  }
  return undefined;
}

const requestIds = new WeakMap<Request, string>();

/**
 * The client's own x-request-id when it is well-formed, else a new one: the same id for
 * every asker of one request (the answer's header, a page's or the edge's log line).
 */
export function requestIdOf(request: Request): string {
  let id = requestIds.get(request);
  if (!id) {
    id = newRequestId(request);
    requestIds.set(request, id);
  }
  return id;
}

/**
 * The id a request arriving now gets (the caller's, when it is a valid one), not
 * remembered: for a Bun route that answers by itself (the media edge), where nothing
 * else asks for it again.
 */
export function newRequestId(request: Request): string {
  const given = request.headers.get("x-request-id");
  return given && REQUEST_ID.test(given) ? given : crypto.randomUUID();
}

export interface ErrorAnswer {
  status: number;
  headers: Record<string, string>;
  body: ReturnType<typeof envelope>;
}

/**
 * The one mapping of a failure to its answer: Elysia's onError below, and the routes that
 * Bun serves without Elysia (the media edge), both answer through it. `code` is Elysia's
 * name for errors it raised itself (validation, parse, routing); anything else is "UNKNOWN".
 */
export function errorAnswer(error: unknown, code: string | number, request: Request, requestId: string, log: Log, inputs: Inputs = {}): ErrorAnswer {
  const answer = (status: number, body: ErrorAnswer["body"], headers: Record<string, string> = {}) => ({ status, headers, body });
  // The client hung up (mid-upload, usually): nobody reads the answer, and it is no
  // fault of ours. At info, so a flaky network cannot flood the error log.
  if (request.signal.aborted) {
    log.info("request aborted by the client", { method: request.method, url: new URL(request.url).pathname, requestId });
    return answer(400, envelope("BAD_REQUEST", "the client closed the connection"));
  }
  // Elysia wraps what a body parser throws (json-body.ts: a body over its limit) in its ParseError.
  const cause = code === "PARSE" ? (error as { cause?: unknown }).cause : undefined;
  const known =
    error instanceof AppError
      ? error
      : cause instanceof AppError
        ? cause
        : (refusalError(error) ?? outageError(error, request, requestId, log) ?? storageOutageError(error, request, requestId, log));
  if (known) return answer(known.status, envelope(known.code, known.message, known.meta), known.headers);
  if (error instanceof KvUnavailableError) {
    // Redis away (restarting, failing over): like the database's outage, a 503 the client
    // retries, logged once at warn without the driver's text.
    log.warn("key-value store unavailable", { method: request.method, url: new URL(request.url).pathname, requestId });
    return answer(
      503,
      envelope("SERVICE_UNAVAILABLE", `the key-value store is unavailable; retry in ${KV_RETRY_AFTER_S} s`, { dependency: "kv", retryAfter: KV_RETRY_AFTER_S }),
      {
        "retry-after": String(KV_RETRY_AFTER_S),
      },
    );
  }
  if (error instanceof BudgetBusyError) {
    // Load shedding, not a failure: the client retries after the header's seconds.
    return answer(
      503,
      envelope("SERVICE_UNAVAILABLE", `this node is busy (${error.budget}); retry in ${error.retryAfterS} s`, {
        budget: error.budget,
        retryAfter: error.retryAfterS,
      }),
      { "retry-after": String(error.retryAfterS) },
    );
  }
  switch (code) {
    case "VALIDATION": {
      const e = error as ValidationError;
      if (e.type !== "response") {
        const { path, issues } = validationIssues(e, inputs);
        return answer(422, envelope("VALIDATION_ERROR", issues[0]!.message, { path, issues }));
      }
      break;
    }
    case "PARSE":
      return answer(400, envelope("BAD_REQUEST", "the request body could not be parsed"));
    case "NOT_FOUND":
      return answer(404, envelope("NOT_FOUND", "no such route", { entity: "route" }));
    case "INVALID_COOKIE_SIGNATURE":
      return answer(400, envelope("BAD_REQUEST", "invalid cookie"));
    case "INVALID_FILE_TYPE":
      return answer(ERROR_STATUS.INVALID_FILE_TYPE, envelope("INVALID_FILE_TYPE", "unsupported file type"));
  }
  // A safety net under the schemas: text the database cannot store (NUL) is the
  // caller's input, not our failure.
  if (UNSTORABLE_TEXT.has(dbErrorCode(error) ?? "")) {
    return answer(
      422,
      envelope("VALIDATION_ERROR", "the request holds characters that cannot be stored", {
        path: "body",
        issues: [{ path: "body", message: "control characters are not allowed" }],
      }),
    );
  }
  // The same net for numbers: every field with a range says it in its schema, and a value
  // past what its column holds is the caller's input too, never a half-applied write (the
  // statement failed, its transaction rolled back).
  if (UNSTORABLE_NUMBER.has(dbErrorCode(error) ?? "")) {
    log.warn("a value out of its column's range reached the database", { method: request.method, url: new URL(request.url).pathname, requestId });
    return answer(
      422,
      envelope("VALIDATION_ERROR", "the request holds a number or date out of range", {
        path: "body",
        issues: [{ path: "body", message: "a number or date is out of range" }],
      }),
    );
  }
  // Bodies over the server's maxRequestBodySize surface as a 413 from Bun itself.
  if ((error as { status?: number })?.status === 413) return answer(413, envelope("FILE_TOO_LARGE", "request body too large"));
  log.error("unhandled error", { err: error, code, method: request.method, url: new URL(request.url).pathname, requestId });
  return answer(500, envelope("INTERNAL", "internal error"));
}

/** What the app does with a plan limit's refusal besides answering it (tell the owner). */
export type OnRefusal = (refusal: LimitRefusal) => Promise<void>;

/**
 * `limits`: each route's body limit (body-limit.ts), learned once the app's routes are
 * mounted; without it every route's is JSON_MAX_BYTES.
 * `uploadMemory`: the node's upload memory budget, which large JSON bodies are read within.
 * `onRefusal`: run for every LimitRefusal that reaches the client, after the refused
 * request's transaction rolled back and before the answer goes out (so what it writes is
 * there when the client reads the answer); its failure is logged, the answer stays the same.
 * `access`: the access line of every request (access-log.ts); none without it.
 */
export const httpCore = (
  log: Log,
  { limits = bodyLimits(), uploadMemory, onRefusal, access }: { limits?: BodyLimits; uploadMemory?: Budget; onRefusal?: OnRefusal; access?: AccessLog } = {},
) =>
  new Elysia({ name: "http-core" })
    .use(access?.plugin ?? new Elysia())
    .use(jsonBody(limits, log, uploadMemory))
    .onRequest(({ request, set }) => {
      access?.arrived(request);
      set.headers["x-request-id"] = requestIdOf(request);
      // API answers hold someone's data: no cache on the way may keep one, and no browser
      // may read one as anything but its declared type. A route that may be cached says
      // so itself (a public document's text), and its header wins.
      set.headers["cache-control"] = "no-store";
      set.headers["x-content-type-options"] = "nosniff";
      const refused = refuseGetBody(request);
      if (refused) throw refused;
    })
    .onError({ as: "global" }, async ({ code, error, set, request, ...context }) => {
      const requestId = set.headers["x-request-id"] as string;
      if (onRefusal && error instanceof LimitRefusal) {
        await onRefusal(error).catch((err: unknown) => log.error("telling a refusal failed", { err, dimension: error.dimension, requestId }));
      }
      // The raw query and path values name a decoded value that failed (validation.ts).
      const inputs = context as Inputs;
      const { status, headers, body } = errorAnswer(error, code, request, requestId, log, { query: inputs.query, params: inputs.params });
      noteErrorBody(request, body);
      set.status = status;
      Object.assign(set.headers, headers);
      // A refusal before the body was read (a malformed path or query, say): the body is not
      // read to its end to keep the connection, which a slow or endless one would hold.
      if (!set.headers.connection) Object.assign(set.headers, await lingeringClose(request));
      return body;
    });
