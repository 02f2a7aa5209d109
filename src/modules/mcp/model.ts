// The MCP endpoints in the OpenAPI document, written by hand: the protocol's messages are
// JSON-RPC (the MCP specification describes them), so the document says who may call and
// what comes back at the HTTP level.
import { Type as T } from "@sinclair/typebox";
import { type OwnPaths, TOUCHES_NO_PART } from "../../http/openapi.ts";

const ProtectedResourceMetadata = T.Object(
  {
    resource: T.String({ description: "MCP_URL: the audience tokens must be issued for (resource=...)" }),
    authorization_servers: T.Array(T.String()),
    scopes_supported: T.Array(T.String()),
    bearer_methods_supported: T.Array(T.String()),
    resource_name: T.String(),
    resource_documentation: T.String(),
  },
  { title: "ProtectedResourceMetadata" },
);

const jsonRpc = { "application/json": { schema: { type: "object", description: "a JSON-RPC 2.0 message (MCP)" } } };
const challenge = (description: string) => ({
  description,
  headers: { "WWW-Authenticate": { description: "Bearer, with resource_metadata (and error, scope)", schema: { type: "string" } } },
  content: jsonRpc,
});

export const mcpDocumentation = (path: string, metadataPath: string): OwnPaths => ({
  paths: {
    [metadataPath]: {
      get: {
        tags: ["mcp"],
        summary: "OAuth protected resource metadata of the MCP server (RFC 9728)",
        [TOUCHES_NO_PART]: true,
        responses: { 200: { description: "OK", content: { "application/json": { schema: ProtectedResourceMetadata } } } },
      },
    },
    [path]: {
      post: {
        tags: ["mcp"],
        // Its refusals are JSON-RPC with the MCP authorization spec's challenges, not the envelope.
        "x-jsonrpc": true,
        summary: "The hosted MCP server (Streamable HTTP, stateless): one JSON-RPC message in, its answer out",
        description:
          "OAuth access tokens issued for MCP_URL only (authorize with resource=MCP_URL); an API key, a session or a token for the API is 401. A tool call without the tool's scope is 403 insufficient_scope naming the scopes to ask for. A request whose Origin is not one of the service's (or MCP_ALLOWED_ORIGINS) is 403. Send Accept: application/json, text/event-stream. GET and DELETE are 405: there are no sessions and no server-initiated stream.",
        security: [{ bearer: [] }],
        requestBody: { required: true, content: jsonRpc },
        responses: {
          200: { description: "the JSON-RPC answer", content: jsonRpc },
          202: { description: "a notification or a response was accepted" },
          400: { description: "not JSON, not JSON-RPC, or an unsupported MCP-Protocol-Version", content: jsonRpc },
          401: challenge("no token, an invalid one, or one not issued for this MCP server"),
          403: challenge("insufficient_scope, or a refused Origin"),
          405: { description: "GET or DELETE", content: jsonRpc },
          406: { description: "Accept does not take application/json and text/event-stream", content: jsonRpc },
          413: { description: "the body is over 72 MiB", content: jsonRpc },
        },
      },
    },
  },
});
