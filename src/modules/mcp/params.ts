// A request whose params do not fit its method is answered -32602 (invalid params) with one
// line that names what is wrong. The SDK checks params against its own schemas as it
// dispatches, but a failure there reaches the client as -32603 (internal error) carrying
// the whole validation report. This check runs first, on each request the server receives,
// with those same schemas, so a request that passes here passes there.
import {
  CallToolRequestSchema,
  ErrorCode,
  InitializeRequestSchema,
  type JSONRPCErrorResponse,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  PingRequestSchema,
  ReadResourceRequestSchema,
} from "@modelcontextprotocol/sdk/types.js";

interface Issue {
  code: string;
  path: PropertyKey[];
  message: string;
  expected?: string;
}
type Schema = { safeParse(value: unknown): { success: true } | { success: false; error: { issues: Issue[] } } };

/** Every method this server answers (server.ts registers the rest; the SDK, initialize and ping). */
const METHODS: Record<string, Schema> = {
  initialize: InitializeRequestSchema,
  ping: PingRequestSchema,
  "tools/list": ListToolsRequestSchema,
  "tools/call": CallToolRequestSchema,
  "resources/list": ListResourcesRequestSchema,
  "resources/templates/list": ListResourceTemplatesRequestSchema,
  "resources/read": ReadResourceRequestSchema,
};

const MESSAGE_MAX = 200;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** What a value is, in words: "null", "an array", "a number". */
function kind(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  const type = typeof value;
  return type === "object" || type === "undefined" ? `an ${type}` : `a ${type}`;
}

/** A schema's expected type, in words. */
function expectedKind(expected: string | undefined): string {
  if (expected === "record" || expected === "object") return "an object";
  if (expected === "array") return "an array";
  if (expected === "int" || expected === "number") return "a number";
  return expected ? `a ${expected}` : "something else";
}

function describe(issue: Issue, request: unknown): string {
  const path = issue.path.map(String).join(".") || "params";
  if (issue.code !== "invalid_type") return `${path}: ${issue.message}`;
  let value: unknown = request;
  for (const key of issue.path) value = isObject(value) || Array.isArray(value) ? (value as Record<PropertyKey, unknown>)[key] : undefined;
  return value === undefined ? `${path} is required (${expectedKind(issue.expected)})` : `${path} must be ${expectedKind(issue.expected)}, not ${kind(value)}`;
}

/**
 * The answer to a request (of a method this server answers) whose params are malformed;
 * undefined for anything else, which goes on to the SDK as it is.
 */
export function paramsRefusal(message: unknown): JSONRPCErrorResponse | undefined {
  if (!isObject(message)) return undefined;
  const { id, method, params } = message;
  if ((typeof id !== "string" && typeof id !== "number") || typeof method !== "string" || !Object.hasOwn(METHODS, method)) return undefined;
  let problem: string | undefined;
  if (params !== undefined && !isObject(params)) problem = `params must be an object, not ${kind(params)}`;
  else {
    const request = { method, ...(params !== undefined && { params }) };
    const checked = METHODS[method]!.safeParse(request);
    if (!checked.success) problem = describe(checked.error.issues[0]!, request);
  }
  if (!problem) return undefined;
  const text = `Invalid params for ${method}: ${problem}`;
  return {
    jsonrpc: "2.0",
    id,
    error: { code: ErrorCode.InvalidParams, message: text.length > MESSAGE_MAX ? `${text.slice(0, MESSAGE_MAX - 3)}...` : text },
  };
}
