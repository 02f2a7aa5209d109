// What the generated document cannot learn from the route schemas, added here once so no
// route repeats it. Each answer follows from something the route declares:
//   every route             500, and x-request-id on every answer
//   every route but those   503 DEPENDENCY_UNAVAILABLE with Retry-After: the database away
//   marked x-touches-no-part   (src/http/core.ts)
//   any input (path, query, cookie or body)       422 (schema validation)
//   a JSON body             400 (not JSON, not UTF-8), 413 (over 1 MiB), 415 (another type)
//   a cursor query          400 (INVALID_CURSOR)
//   a path parameter        404 (the resource it names may not exist, or not be the caller's)
//   the guard (security)    401, 403; with a rate tier 429, and RateLimit-* on success
// Error answers are the shared components.responses; headers a route declares on a
// response (withHeaders) are always sent, so they are documented as required. A route the
// generator cannot describe (not JSON, a wildcard) is hidden and documents its own paths
// under `detail[OWN_PATHS]`.

// biome-ignore lint/suspicious/noExplicitAny: an OpenAPI document walked by key; each node is checked where it is read
export type Json = Record<string, any>;

/** A route's `detail` key saying it answers without the database (liveness), so no 503 is documented for it. */
export const TOUCHES_NO_PART = "x-touches-no-part";

/**
 * A route's `detail` key holding the schema of the multipart/form-data body it takes beside
 * its JSON one (http/form-body.ts): added to its requestBody as that content type.
 */
export const FORM_BODY_SCHEMA = "x-form-body-schema";

/** The key of a hidden route's `detail` that holds the paths it documents itself. */
export const OWN_PATHS = "x-own-paths";
export interface OwnPaths {
  paths: Record<string, Json>;
  /** components.headers its paths refer to. */
  headers?: Record<string, Json>;
}

const ref = (kind: "schemas" | "responses" | "headers", name: string) => ({ $ref: `#/components/${kind}/${name}` });
const ERROR_SCHEMA = ref("schemas", "Error").$ref;
const METHODS = new Set(["get", "put", "post", "delete", "options", "head", "patch", "trace"]);

const header = (description: string, schema: Json, required = true) => ({ description, required, schema });
const seconds = { type: "integer", minimum: 0 };

const HEADERS: Record<string, Json> = {
  RequestId: header("the request's id: the client's own x-request-id when it is 1 to 128 characters of A-Z a-z 0-9 . _ : -, else a new UUID", {
    type: "string",
    pattern: "^[A-Za-z0-9._:-]{1,128}$",
  }),
  RateLimitLimit: header("requests per minute of the route's rate tier (on a 429: the limit that refused)", { type: "integer", minimum: 1 }),
  RateLimitRemaining: header("requests left in the current window", { type: "integer", minimum: 0 }),
  RateLimitReset: header("seconds until the window has room again", seconds),
  RetryAfter: header("seconds to wait before trying again", { type: "integer", minimum: 1 }),
};

const RATE_LIMIT_HEADERS = {
  "RateLimit-Limit": ref("headers", "RateLimitLimit"),
  "RateLimit-Remaining": ref("headers", "RateLimitRemaining"),
  "RateLimit-Reset": ref("headers", "RateLimitReset"),
};

const errorResponse = (description: string, headers: Json = {}) => ({
  description,
  headers: { "x-request-id": ref("headers", "RequestId"), ...headers },
  content: { "application/json": { schema: { $ref: ERROR_SCHEMA } } },
});

const RESPONSES: Record<string, Json> = {
  BadRequest: errorResponse("BAD_REQUEST: a body that is not well-formed JSON or multipart, or not UTF-8; INVALID_CURSOR: a cursor the list did not give out"),
  Unauthorized: errorResponse("UNAUTHORIZED, TOKEN_EXPIRED, API_KEY_REVOKED, OAUTH_BEARER_INVALID: missing, malformed or invalid credentials", {
    "WWW-Authenticate": header('Bearer realm="shelf", when the credentials were missing or malformed', { type: "string" }, false),
  }),
  Forbidden: errorResponse(
    "FORBIDDEN (meta.required: the scope, `session` or `admin` the route needs), OAUTH_SCOPE_INSUFFICIENT, QUOTA_EXCEEDED (meta.type, meta.used, meta.limit)",
  ),
  NotFound: errorResponse("NOT_FOUND (meta.entity): absent, or another user's (existence is not disclosed)"),
  RequestTimeout: errorResponse("REQUEST_TIMEOUT: the upload's body did not arrive within UPLOAD_BODY_TIMEOUT_S; the connection is closed"),
  Conflict: errorResponse("CONFLICT: the state changed under the request (meta says what)"),
  PayloadTooLarge: errorResponse("FILE_TOO_LARGE (meta.limit): a JSON body over 1 MiB, or a file over the route's limit"),
  UnsupportedMediaType: errorResponse("UNSUPPORTED_MEDIA_TYPE: a body that is not application/json (or application/*+json) in UTF-8"),
  ValidationError: errorResponse(
    "VALIDATION_ERROR (meta.path: the first failing field, as body.email or query.limit; meta.issues: up to 20 { path, message })",
  ),
  RateLimited: errorResponse(
    "RATE_LIMITED (meta.type or meta.tier with meta.limit; or meta.bucket with meta.capacity, meta.refillPerMinute, meta.cost, meta.retryAfterMs): the RateLimit headers describe the limit that refused",
    {
      ...RATE_LIMIT_HEADERS,
      "Retry-After": ref("headers", "RetryAfter"),
    },
  ),
  Internal: errorResponse("INTERNAL: an unexpected failure; the body never holds a stack, SQL or a path"),
  BadGateway: errorResponse("STORAGE_ERROR: the object store failed; nothing was kept"),
  ServiceUnavailable: errorResponse(
    "DEPENDENCY_UNAVAILABLE (meta.dependency: database): the database does not answer; SERVICE_UNAVAILABLE: another part the route needs does not answer, or the node is busy",
    {
      "Retry-After": header(
        "seconds to wait: sent when the database is away, and when the node is busy (its upload memory or image work)",
        { type: "integer", minimum: 1 },
        false,
      ),
    },
  ),
};

const ERROR_RESPONSE_OF: Record<string, string> = {
  400: "BadRequest",
  401: "Unauthorized",
  403: "Forbidden",
  404: "NotFound",
  408: "RequestTimeout",
  409: "Conflict",
  413: "PayloadTooLarge",
  415: "UnsupportedMediaType",
  422: "ValidationError",
  429: "RateLimited",
  500: "Internal",
  502: "BadGateway",
  503: "ServiceUnavailable",
};

const REASON: Record<string, string> = { 200: "OK", 201: "Created", 204: "No Content", 206: "Partial Content", 304: "Not Modified" };

const isErrorSchema = (s: Json | undefined): boolean =>
  !!s && (s.$ref === ERROR_SCHEMA || (Array.isArray(s.allOf) && s.allOf.length > 0 && s.allOf.every(isErrorSchema)));

/**
 * `string(format integer) | integer`: Elysia's coercion of a query or path value. On the
 * wire a query value is text anyway, so the parameter is documented as what it must hold.
 */
function uncoerced(schema: Json): Json {
  const branches: Json[] | undefined = schema.anyOf;
  if (branches?.length !== 2) return schema;
  const text = branches.find((b) => b.type === "string" && (b.format === "integer" || b.format === "numeric"));
  const number = branches.find((b) => b.type === "integer" || b.type === "number");
  if (!text || !number) return schema;
  const { anyOf: _, ...outer } = schema;
  return { ...outer, ...number };
}

/**
 * A header a route declared on a response: always sent, unless its schema says
 * `"x-optional": true` (sent from some date on, say); its schema's description describes it.
 */
function declaredHeader(h: Json): Json {
  const { description, "x-optional": optional, ...schema } = (h.schema ?? {}) as Json;
  return { ...(description ? { description } : {}), required: !optional, ...h, schema };
}

function completeResponse(status: string, response: Json, tiered: boolean): Json {
  if (response.$ref) return response;
  const content: Json | undefined = response.content;
  const json = content?.["application/json"];
  if (isErrorSchema(json?.schema) && !response.headers && ERROR_RESPONSE_OF[status]) return ref("responses", ERROR_RESPONSE_OF[status]);
  const out: Json = { ...response };
  // A void schema (NoContent) comes out as a content map holding its type: no body.
  if (content && typeof content.type === "string") delete out.content;
  else if (json && isErrorSchema(json.schema)) out.content = { ...content, "application/json": { ...json, schema: { $ref: ERROR_SCHEMA } } };
  if (/^Response for status \d+$/.test(out.description ?? "")) out.description = REASON[status] ?? `status ${status}`;
  const declared = Object.fromEntries(Object.entries((response.headers ?? {}) as Json).map(([name, h]) => [name, h.$ref ? h : declaredHeader(h)]));
  const success = status.startsWith("2");
  out.headers = { "x-request-id": ref("headers", "RequestId"), ...(success && tiered ? RATE_LIMIT_HEADERS : {}), ...declared };
  return out;
}

/** `own`: a path a route documented itself, complete but for what every answer has. */
function completeOperation(op: Json, own: boolean): void {
  if (own) {
    op.responses = Object.fromEntries(Object.entries((op.responses ?? {}) as Json).map(([status, r]) => [status, completeResponse(status, r, false)]));
    op.responses[500] ??= ref("responses", "Internal");
    if (!op[TOUCHES_NO_PART]) op.responses[503] ??= ref("responses", "ServiceUnavailable");
    return;
  }
  const parameters: Json[] = (op.parameters ??= []).map((p: Json) => (p.schema ? { ...p, schema: uncoerced(p.schema) } : p));
  if (parameters.length) op.parameters = parameters;
  else delete op.parameters;
  const tiered = !!op["x-rate-limit-tier"];
  const responses: Json = {};
  for (const [status, r] of Object.entries((op.responses ?? {}) as Json)) responses[status] = completeResponse(status, r, tiered);
  const add = (status: number) => (responses[status] ??= ref("responses", ERROR_RESPONSE_OF[status]!));

  if (op[FORM_BODY_SCHEMA] && op.requestBody?.content) op.requestBody.content["multipart/form-data"] = { schema: op[FORM_BODY_SCHEMA] };
  delete op[FORM_BODY_SCHEMA];
  const jsonBody = !!op.requestBody?.content?.["application/json"];
  if (parameters.length || op.requestBody) add(422);
  if (jsonBody) [400, 413, 415].forEach(add);
  if (parameters.some((p) => p.in === "query" && p.name === "cursor")) add(400);
  if (parameters.some((p) => p.in === "path")) add(404);
  if (op.security) [401, 403].forEach(add);
  if (tiered) add(429);
  add(500);
  if (!op[TOUCHES_NO_PART]) add(503);
  op.responses = Object.fromEntries(Object.entries(responses).sort(([a], [b]) => Number(a) - Number(b)));
}

/** The generated document, completed (a copy: the plugin keeps and reuses its own). */
export function completeDocument(generated: Json, own: readonly OwnPaths[]): Json {
  const doc: Json = structuredClone(generated);
  doc.paths ??= {};
  const headers = { ...HEADERS };
  const owned = new Set<string>();
  for (const o of own) {
    // Merged by method: a hidden route may document one method of a path whose others
    // are generated (OPTIONS /v1/uploads beside its POST).
    for (const [path, item] of Object.entries(structuredClone(o.paths))) {
      doc.paths[path] = { ...doc.paths[path], ...item };
      for (const method of Object.keys(item)) owned.add(`${method} ${path}`);
    }
    Object.assign(headers, o.headers);
  }
  doc.components = { ...doc.components, responses: RESPONSES, headers };
  // A model registered by name carries `$id: "#/components/schemas/Name"`: JSON Schema 2020-12
  // allows no fragment in an $id, and a UI's resolver (Swagger UI's) takes it as a new base
  // and then fails on every $ref to it. The name is the key under components.schemas.
  for (const schema of Object.values((doc.components.schemas ?? {}) as Json)) {
    if (typeof schema?.$id === "string" && schema.$id.startsWith("#")) delete schema.$id;
  }
  for (const [path, item] of Object.entries(doc.paths as Json)) {
    for (const [method, op] of Object.entries(item as Json)) if (METHODS.has(method)) completeOperation(op, owned.has(`${method} ${path}`));
  }
  return doc;
}
