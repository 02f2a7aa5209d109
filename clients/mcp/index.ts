// `shelf mcp`: the MCP server over stdio for an agent on this machine, with an API key
// (stdio servers take their credential from the environment, as the MCP specification
// has it; the hosted server at MCP_URL takes OAuth tokens only). The same tools as the
// hosted server, speaking to a shelf server's API at SHELF_URL. stdout carries the
// protocol alone: everything else goes to stderr.
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { loadMcpServer, ShelfClient, urlImageFetcher } from "../../src/modules/mcp/public.ts";

const HELP = `Usage: shelf mcp

Serves shelf's MCP tools over stdio (for an MCP client that starts it as a command).

Environment:
  SHELF_API_KEY   an API key (required); its scopes decide which tools work (kb.read, kb.write,
                  media.read, media.write, usage.read)
  SHELF_URL       the shelf server (default http://localhost:8080)

Example client configuration:
  { "command": "shelf", "args": ["mcp"], "env": { "SHELF_URL": "https://shelf.example.com", "SHELF_API_KEY": "sk_..." } }
`;

export async function mcpCommand(args: string[]): Promise<number> {
  if (args.includes("--help") || args.includes("-h")) {
    process.stdout.write(HELP);
    return 0;
  }
  if (args.length) {
    process.stderr.write(`shelf mcp: unexpected argument ${args[0]}\n\n${HELP}`);
    return 2;
  }
  const key = process.env.SHELF_API_KEY;
  if (!key) {
    process.stderr.write("shelf mcp: set SHELF_API_KEY to an API key (create one with POST /v1/api-keys)\n");
    return 2;
  }
  const base = (process.env.SHELF_URL ?? "http://localhost:8080").replace(/\/+$/, "");
  if (!/^https?:\/\/[^\s/]+/.test(base)) {
    process.stderr.write(`shelf mcp: SHELF_URL must be an http(s) URL, not ${base}\n`);
    return 2;
  }
  const client = new ShelfClient(
    base,
    (request) => fetch(request),
    () => `Bearer ${key}`,
  );
  const { createMcpServer } = await loadMcpServer();
  const server = createMcpServer(
    { client, fetchImage: urlImageFetcher() },
    { onToolCall: (call) => process.stderr.write(`shelf mcp: ${call.tool} ${call.ok ? "ok" : `refused (${call.error})`} in ${call.ms} ms\n`) },
  );
  const transport = new StdioServerTransport();
  const closed = new Promise<void>((resolve) => {
    transport.onclose = resolve;
    process.stdin.once("end", resolve);
  });
  await server.connect(transport);
  const inFlight = trackRequests(transport);
  await closed;
  // A client may write its last requests and close its end at once: they are answered first.
  await inFlight.drained();
  await server.close();
  return 0;
}

type Message = Parameters<StdioServerTransport["send"]>[0];
const isRequest = (m: Message) => "id" in m && "method" in m;
const isResponse = (m: Message) => "id" in m && !("method" in m);

/** Counts the requests read and not yet answered, by wrapping the transport the server connected to. */
function trackRequests(transport: StdioServerTransport) {
  const open = new Set<string | number>();
  let idle: (() => void) | undefined;
  const receive = transport.onmessage;
  transport.onmessage = (message) => {
    if (isRequest(message)) open.add((message as { id: string | number }).id);
    receive?.(message);
  };
  const send = transport.send.bind(transport);
  transport.send = async (message) => {
    await send(message);
    if (isResponse(message)) open.delete((message as { id: string | number }).id);
    if (!open.size) idle?.();
  };
  return { drained: () => (open.size ? new Promise<void>((resolve) => (idle = resolve)) : Promise.resolve()) };
}
