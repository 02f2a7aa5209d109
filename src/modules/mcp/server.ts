// One MCP server over the tools and resources, built per connection (stdio) or per
// request (the hosted server is stateless, so any api node answers any request; a plain
// tools/call there is answered without one: tool-call.ts). The
// low-level SDK server takes the tools' JSON Schemas as they are; arguments are checked
// against them here, and a bad argument or a refusal is a tool error the agent can read
// and correct, not a protocol error. Params that do not fit their method are a protocol
// error, -32602, named in one line (params.ts).
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv";
import {
  CallToolRequestSchema,
  type CallToolResult,
  ErrorCode,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  ReadResourceRequestSchema,
} from "@modelcontextprotocol/sdk/types.js";
import type { TObject } from "@sinclair/typebox";
import { Value } from "@sinclair/typebox/value";
import type { Scope } from "../../core/scopes.ts";
import { VERSION } from "../../infra/version.ts";
import { ToolError } from "./client.ts";
import { paramsRefusal } from "./params.ts";
import { DOCUMENT_TEMPLATE, listDocumentResources, readDocumentResource } from "./resources.ts";
import { type ToolContext, TOOLS, toolNamed } from "./tools.ts";

interface ToolCallRecord {
  tool: string;
  ok: boolean;
  ms: number;
  error?: string;
}

export interface McpServerOptions {
  /** The credential's scopes when known (the hosted server); the API refuses the rest anyway. */
  scopes?: readonly Scope[];
  onToolCall?: (record: ToolCallRecord) => void;
  /**
   * Charged before each tool runs (the hosted server: the user's mcpCall bucket); a text
   * returned refuses the call with it as the tool error.
   */
  charge?: (tool: string) => Promise<string | undefined>;
}

const INSTRUCTIONS =
  "shelf holds the user's knowledge bases (folders of Markdown and Typst documents, and their attachments) and media. Find documents with search_documents or list_folder, read them with read_document or several at once with read_documents, change part of one with edit_document (the text to replace must occur in it exactly once) or write it whole with write_document, and move, rename or delete with move_document and delete_document. Pass the sourceHash you read as baseHash, so that a document changed meanwhile is not overwritten.";

const failed = (text: string): CallToolResult => ({ isError: true, content: [{ type: "text", text }] });

function argumentProblem(tool: (typeof TOOLS)[number], args: unknown): string | undefined {
  if (Value.Check(tool.input, args)) return undefined;
  const first = Value.Errors(tool.input, args).First();
  const at = first?.path ? first.path.slice(1).replaceAll("/", ".") : "";
  return `invalid arguments for ${tool.name}${at ? `: ${at}` : ""}: ${first?.message ?? "they do not match the input schema"}`;
}

/** The SDK's server, with each request's params checked as the transport hands it over. */
class CheckedServer extends Server {
  override async connect(transport: Transport): Promise<void> {
    await super.connect(transport);
    const receive = transport.onmessage;
    transport.onmessage = (message, extra) => {
      const refusal = paramsRefusal(message);
      if (!refusal) return receive?.(message, extra);
      transport.send(refusal).catch((e: Error) => this.onerror?.(e));
    };
  }
}

/**
 * One JSON Schema validator for every server of the process: the SDK would build an Ajv
 * instance per server (most of a stateless request's cost), and the server uses it only to
 * check an elicitation's answer, which shelf never asks for.
 */
let validator: AjvJsonSchemaValidator | undefined;

/**
 * What a tools/call does, whichever way it comes (the server below, or tool-call.ts for a
 * hosted request): the tool's scope, its arguments against its input schema, the charge,
 * the tool, and the record of the call. A refusal is a tool error; an unknown tool, -32602.
 */
export function toolCaller(ctx: ToolContext, opts: McpServerOptions = {}) {
  return async (params: { name: string; arguments?: Record<string, unknown> }): Promise<CallToolResult> => {
    const tool = toolNamed(params.name);
    if (!tool) throw new McpError(ErrorCode.InvalidParams, `no tool named ${params.name.slice(0, 100)}`);
    const started = performance.now();
    const record = (ok: boolean, error?: string) => opts.onToolCall?.({ tool: tool.name, ok, ms: Math.round(performance.now() - started), error });
    if (opts.scopes && !opts.scopes.includes(tool.scope)) {
      record(false, "INSUFFICIENT_SCOPE");
      return failed(`${tool.name} needs the ${tool.scope} scope, which this authorization does not include; authorize again with it`);
    }
    const args = params.arguments ?? {};
    const problem = argumentProblem(tool, args);
    if (problem) {
      record(false, "INVALID_ARGUMENTS");
      return failed(problem);
    }
    const refused = await opts.charge?.(tool.name);
    if (refused) {
      record(false, "RATE_LIMITED");
      return failed(refused);
    }
    try {
      const { data, text, content } = await tool.run(ctx, args as never);
      record(true);
      return { content: content ?? [{ type: "text", text }], structuredContent: data as Record<string, unknown> };
    } catch (e) {
      if (!(e instanceof ToolError)) throw e;
      record(false, e.code ?? "REFUSED");
      return failed(e.message);
    }
  };
}

export function createMcpServer(ctx: ToolContext, opts: McpServerOptions = {}): Server {
  validator ??= new AjvJsonSchemaValidator();
  const server = new CheckedServer(
    { name: "shelf", title: "shelf", version: VERSION },
    { capabilities: { tools: {}, resources: {} }, instructions: INSTRUCTIONS, jsonSchemaValidator: validator },
  );

  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: TOOLS.map((t) => ({
      name: t.name,
      title: t.title,
      description: `${t.description} Needs the ${t.scope} scope.`,
      inputSchema: t.input as TObject & { type: "object" },
      outputSchema: t.output as TObject & { type: "object" },
      annotations: {
        title: t.title,
        readOnlyHint: t.readOnly,
        destructiveHint: t.destructive,
        ...(t.idempotent && { idempotentHint: true }),
        openWorldHint: t.name === "upload_image",
      },
    })),
  }));

  const callTool = toolCaller(ctx, opts);
  server.setRequestHandler(CallToolRequestSchema, (request) => callTool(request.params));

  server.setRequestHandler(ListResourceTemplatesRequestSchema, () => ({ resourceTemplates: [DOCUMENT_TEMPLATE] }));
  server.setRequestHandler(ListResourcesRequestSchema, (request) => listDocumentResources(ctx.client, request.params?.cursor));
  server.setRequestHandler(ReadResourceRequestSchema, (request) => readDocumentResource(ctx.client, request.params.uri));
  return server;
}
