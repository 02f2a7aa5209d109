// `shelf mcp`: the MCP server over stdio for an agent on this machine, with an API key
// (stdio servers take their credential from the environment, as the MCP specification
// has it; the hosted server at MCP_URL takes OAuth tokens only). The same tools as the
// hosted server, speaking to a shelf server's API at SHELF_URL. stdout carries the
// protocol alone: everything else goes to stderr.
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { loadMcpServer, ShelfClient, urlImageFetcher } from "../../src/modules/mcp/public.ts";
import { checkServer } from "./check.ts";

/** The command and arguments an MCP client runs to start this very program, whatever its working directory. */
function launch(): { command: string; args: string[] } {
  if (Bun.main.endsWith(".ts")) return { command: process.execPath, args: [Bun.main, "mcp"] };
  return { command: process.execPath, args: ["mcp"] };
}

const help = () => `Usage: shelf mcp

Serves shelf's MCP tools over stdio (for an MCP client that starts it as a command). At start
it checks that SHELF_URL answers and takes SHELF_API_KEY, and exits 1 saying which is wrong.

Environment:
  SHELF_API_KEY   an API key (required); its scopes decide which tools work (kb.read, kb.write,
                  media.read, media.write, usage.read)
  SHELF_URL       the shelf server (default http://localhost:8080)

Client configuration that starts this program:
  ${JSON.stringify({ ...launch(), env: { SHELF_URL: "https://shelf.example.com", SHELF_API_KEY: "sk_..." } })}
`;

export async function mcpCommand(args: string[]): Promise<number> {
  if (args.includes("--help") || args.includes("-h")) {
    process.stdout.write(help());
    return 0;
  }
  if (args.length) {
    process.stderr.write(`shelf mcp: unexpected argument ${args[0]}\n\n${help()}`);
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
  // Before stdio is served: an MCP client shows the words of a command that exits at start.
  const refused = await checkServer(base, key, Boolean(process.env.SHELF_URL));
  if (refused) {
    process.stderr.write(`shelf mcp: ${refused}\n`);
    return 1;
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
