// The hosted server's common request, a plain tools/call, answered without building the
// SDK's server and transport for it: they (the server's protocol state and handlers, the
// checks of the message and of the answer against the SDK's schemas, the close) cost as
// much CPU as the API call the tool makes (docs/benchmarks.md, (s)). The call runs through
// toolCaller, as the server's tools/call handler does, and is answered as the SDK answers
// it: the JSON-RPC result (or error) alone, application/json. Only a request the SDK
// would take as it is comes here (both types accepted, a JSON body, no protocol version
// or a supported one, one tools/call of a known tool with its name and arguments and
// nothing else); any other, a refusal included, is the SDK's to answer.
import { isJsonContentType } from "@modelcontextprotocol/sdk/shared/mediaType.js";
import { type CallToolResult, SUPPORTED_PROTOCOL_VERSIONS } from "@modelcontextprotocol/sdk/types.js";
import { toolNamed } from "./tools.ts";

interface PlainToolCall {
  id: string | number;
  params: { name: string; arguments?: Record<string, unknown> };
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
const only = (o: Record<string, unknown>, keys: readonly string[]) => Object.keys(o).every((k) => keys.includes(k));

/** The call, when `message` is one tools/call of a known tool with its name and arguments and nothing else. */
function plainToolCall(message: unknown): PlainToolCall | undefined {
  if (!isObject(message) || message.jsonrpc !== "2.0" || message.method !== "tools/call") return undefined;
  if (!only(message, ["jsonrpc", "id", "method", "params"])) return undefined;
  const { id, params } = message;
  if (typeof id !== "string" && !Number.isSafeInteger(id)) return undefined;
  if (!isObject(params) || !only(params, ["name", "arguments"])) return undefined;
  if (typeof params.name !== "string" || !toolNamed(params.name)) return undefined;
  if (params.arguments !== undefined && !isObject(params.arguments)) return undefined;
  return { id: id as string | number, params: params as PlainToolCall["params"] };
}

/** Whether the SDK's transport would take the request's headers as they are. */
function plainHeaders(request: Request): boolean {
  const accept = request.headers.get("accept");
  if (!accept?.includes("application/json") || !accept.includes("text/event-stream")) return false;
  if (!isJsonContentType(request.headers.get("content-type"))) return false;
  const version = request.headers.get("mcp-protocol-version");
  return version === null || SUPPORTED_PROTOCOL_VERSIONS.includes(version);
}

/** The answer to a plain tools/call; undefined for any other request (the SDK's to answer). */
export async function answerPlainToolCall(
  request: Request,
  message: unknown,
  callTool: (params: PlainToolCall["params"]) => Promise<CallToolResult>,
): Promise<Response | undefined> {
  const call = plainToolCall(message);
  if (!call || !plainHeaders(request)) return undefined;
  let body: unknown;
  try {
    body = { result: await callTool(call.params), jsonrpc: "2.0", id: call.id };
  } catch (e) {
    // As the SDK's protocol answers a handler's throw.
    const { code, message, data } = e as { code?: unknown; message?: string; data?: unknown };
    body = {
      jsonrpc: "2.0",
      id: call.id,
      error: { code: Number.isSafeInteger(code) ? code : -32603, message: message ?? "Internal error", ...(data !== undefined && { data }) },
    };
  }
  return new Response(JSON.stringify(body), { status: 200, headers: { "Content-Type": "application/json" } });
}
