// Documents of knowledge bases as MCP resources: shelf://kb/{kbId}/{path}, each path
// segment percent-encoded. Listing walks the user's documents in KBs page by page; reading
// one is the API's raw-by-path call.
import { ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js";
import { type ShelfClient, ToolError } from "./client.ts";

export const DOCUMENT_TEMPLATE = {
  uriTemplate: "shelf://kb/{kbId}/{+path}",
  name: "document",
  title: "A document of a knowledge base",
  description: "The text of the document at a path of a knowledge base (Markdown or Typst).",
  mimeType: "text/markdown",
};

const MIME = { markdown: "text/markdown", typst: "text/plain" } as const;

const documentUri = (kbId: string, path: string) => `shelf://kb/${encodeURIComponent(kbId)}/${path.split("/").map(encodeURIComponent).join("/")}`;

function parseUri(uri: string): { kbId: string; path: string } {
  const m = /^shelf:\/\/kb\/([^/]+)\/(.+)$/.exec(uri);
  if (!m) throw new McpError(ErrorCode.InvalidParams, `not a shelf document URI: ${uri.slice(0, 200)} (shelf://kb/{kbId}/{path})`);
  try {
    return { kbId: decodeURIComponent(m[1]!), path: m[2]!.split("/").map(decodeURIComponent).join("/") };
  } catch {
    throw new McpError(ErrorCode.InvalidParams, "the URI's percent-encoding is malformed");
  }
}

/** The API's refusal as a protocol error: an unknown document is -32002 (resource not found). */
function asProtocolError(e: unknown): never {
  if (e instanceof ToolError) {
    if (e.status === 404) throw new McpError(-32002, e.message);
    throw new McpError(ErrorCode.InvalidRequest, e.message);
  }
  throw e;
}

interface DocRow {
  kbId: string | null;
  relativePath: string | null;
  title: string;
  format: "markdown" | "typst";
  sizeBytes: number;
}

export async function listDocumentResources(client: ShelfClient, cursor: string | undefined) {
  try {
    const page = await client.call<{ items: DocRow[]; nextCursor: string | null }>("GET", "/v1/docs", { query: { cursor, limit: 50, sort: "updated_desc" } });
    const resources = page.items
      .filter((d) => d.kbId !== null && d.relativePath !== null)
      .map((d) => ({ uri: documentUri(d.kbId!, d.relativePath!), name: d.relativePath!, title: d.title, mimeType: MIME[d.format], size: d.sizeBytes }));
    return { resources, ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}) };
  } catch (e) {
    asProtocolError(e);
  }
}

export async function readDocumentResource(client: ShelfClient, uri: string) {
  const { kbId, path } = parseUri(uri);
  try {
    const raw = await client.text(`/v1/kbs/${encodeURIComponent(kbId)}/raw`, { path });
    const type = raw.headers.get("content-type")?.startsWith("text/markdown") ? MIME.markdown : MIME.typst;
    return { contents: [{ uri, mimeType: type, text: raw.text }] };
  } catch (e) {
    asProtocolError(e);
  }
}
