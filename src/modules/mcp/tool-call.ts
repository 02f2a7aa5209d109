// The hosted server's common request, a plain tools/call, answered without building the
// SDK's server for it: that server (its protocol state, its handlers, its checks of the
// request and the result against the SDK's schemas, then its close) cost as much CPU as
// the API call the tool makes (docs/benchmarks.md, (s)). The SDK's transport still reads
// the request (its headers, the JSON-RPC message, the protocol version) and writes the
// answer; the call runs through toolCaller, as the server's tools/call handler does, and
// is answered as the server answers a request: its result, or its error. Any other
// message, or a tools/call with more than a known tool's name and arguments (_meta, a
// task), goes to the server.
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { CallToolResult, JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { toolNamed } from "./tools.ts";

interface PlainToolCall {
  id: string | number;
  params: { name: string; arguments?: Record<string, unknown> };
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
const only = (o: Record<string, unknown>, keys: readonly string[]) => Object.keys(o).every((k) => keys.includes(k));

/** The call, when `message` is one tools/call of a known tool with its name and arguments and nothing else. */
export function plainToolCall(message: unknown): PlainToolCall | undefined {
  if (!isObject(message) || message.jsonrpc !== "2.0" || message.method !== "tools/call") return undefined;
  if (!only(message, ["jsonrpc", "id", "method", "params"])) return undefined;
  const { id, params } = message;
  if (typeof id !== "string" && !Number.isInteger(id)) return undefined;
  if (!isObject(params) || !only(params, ["name", "arguments"])) return undefined;
  if (typeof params.name !== "string" || !toolNamed(params.name)) return undefined;
  if (params.arguments !== undefined && !isObject(params.arguments)) return undefined;
  return { id: id as string | number, params: params as PlainToolCall["params"] };
}

/** Starts `transport` with `call` answering its one request, as the SDK's protocol answers one. */
export async function answerWith(transport: Transport, call: () => Promise<CallToolResult>): Promise<void> {
  transport.onmessage = (message: JSONRPCMessage) => {
    if (!("method" in message) || !("id" in message)) return;
    const { id } = message;
    call()
      .then(
        (result) => transport.send({ result, jsonrpc: "2.0", id }),
        (e: { code?: unknown; message?: string; data?: unknown }) =>
          transport.send({
            jsonrpc: "2.0",
            id,
            error: {
              code: Number.isSafeInteger(e.code) ? (e.code as number) : -32603,
              message: e.message ?? "Internal error",
              ...(e.data !== undefined && { data: e.data }),
            },
          }),
      )
      .catch((e: Error) => transport.onerror?.(e));
  };
  await transport.start();
}
