// `shelf mcp`: the same tools over stdio, spawned as an MCP client starts a local server
// (the SDK's StdioClientTransport), speaking to a listening shelf with an API key; the
// key's scopes decide which tools work. And upload_image by URL, with the tool wired to a
// resolver that names a public address and a fetch that reaches a local image server.
import { afterAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { JSONRPCMessageSchema } from "@modelcontextprotocol/sdk/types.js";
import { loadMcpServer, ShelfClient, urlImageFetcher } from "../../src/modules/mcp/public.ts";
import { testContext } from "../helpers/context.ts";
import { makeKey, makeUser } from "../helpers/factories.ts";
import { png } from "../images/fixtures.ts";
import { MALFORMED } from "./helpers.ts";
import { TEST_TIMEOUT_MS } from "../helpers/timeout.ts";

setDefaultTimeout(TEST_TIMEOUT_MS);

const { createMcpServer } = await loadMcpServer();
const { app } = await testContext();
const server = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: app.fetch });
// Not awaited: a connection the client pool keeps open can hold the promise past the hook timeout.
afterAll(() => {
  server.stop(true);
});
const BASE = `http://127.0.0.1:${server.port}`;
const MAIN = new URL("../../src/main.ts", import.meta.url).pathname;

async function spawnShelfMcp(env: Record<string, string>) {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [MAIN, "mcp"],
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", LOG_LEVEL: "silent", ...env },
    stderr: "pipe",
  });
  const client = new Client({ name: "local-agent", version: "1.0.0" });
  await client.connect(transport);
  return client;
}

type Result = { isError?: boolean; content: { text: string }[]; structuredContent?: Record<string, any> };

describe("shelf mcp over stdio", () => {
  test("the same tools with an API key: write, read, list; a tool outside the key's scopes is a tool error naming the scope", { timeout: 60_000 }, async () => {
    const user = await makeUser();
    const kb = await app.handle(
      new Request(`${BASE}/v1/kbs`, {
        method: "POST",
        headers: { authorization: `Bearer ${user.jwt}`, "content-type": "application/json" },
        body: '{"name":"Local"}',
      }),
    );
    const kbId = ((await kb.json()) as { data: { id: string } }).data.id;
    const { key } = await makeKey(user, ["kb.read", "kb.write"]);
    const client = await spawnShelfMcp({ SHELF_URL: BASE, SHELF_API_KEY: key });
    try {
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toContain("write_document");
      const wrote = (await client.callTool({ name: "write_document", arguments: { kbId, path: "local.md", content: "# Local\n" } })) as Result;
      expect(wrote.structuredContent).toMatchObject({ status: "created", relativePath: "local.md" });
      const read = (await client.callTool({ name: "read_document", arguments: { kbId, path: "local.md" } })) as Result;
      expect(read.structuredContent!.content).toBe("# Local\n");
      const kbs = (await client.callTool({ name: "list_knowledge_bases", arguments: {} })) as Result;
      expect(kbs.structuredContent!.items.map((k: { id: string }) => k.id)).toEqual([kbId]);
      const media = (await client.callTool({ name: "list_media", arguments: {} })) as Result;
      expect(media.isError).toBe(true);
      expect(media.content[0]!.text).toBe("this needs the media.read scope, which this credential was not granted");
      const { resources } = await client.listResources();
      expect(resources.map((r) => r.uri)).toEqual([`shelf://kb/${kbId}/local.md`]);
    } finally {
      await client.close();
    }
  });

  test("without SHELF_API_KEY it says what to set and exits 2, writing nothing on stdout", async () => {
    const proc = Bun.spawn([process.execPath, MAIN, "mcp"], { env: { PATH: process.env.PATH ?? "", LOG_LEVEL: "silent" }, stdout: "pipe", stderr: "pipe" });
    expect(await proc.exited).toBe(2);
    expect(await new Response(proc.stdout).text()).toBe("");
    expect(await new Response(proc.stderr).text()).toContain("SHELF_API_KEY");
  });
  test("requests written just before the input closes are all answered before it exits", { timeout: 60_000 }, async () => {
    const user = await makeUser();
    const { key } = await makeKey(user, ["kb.read"]);
    const proc = Bun.spawn([process.execPath, MAIN, "mcp"], {
      env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", LOG_LEVEL: "silent", SHELF_URL: BASE, SHELF_API_KEY: key },
      stdin: "pipe",
      stdout: "pipe",
      stderr: "ignore",
    });
    const lines = [
      { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "pipe", version: "1" } } },
      { jsonrpc: "2.0", method: "notifications/initialized" },
      { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "list_knowledge_bases", arguments: {} } },
      { jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: "list_knowledge_bases", arguments: {} } },
    ];
    proc.stdin.write(lines.map((l) => `${JSON.stringify(l)}\n`).join(""));
    await proc.stdin.end();
    const out = await new Response(proc.stdout).text();
    expect(await proc.exited).toBe(0);
    const answers = out
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as { id: number; result?: { isError?: boolean } });
    expect(answers.map((a) => a.id).sort()).toEqual([1, 2, 3]);
    for (const a of answers.filter((a) => a.id > 1)) expect(a.result?.isError).toBeFalsy();
  });
});

/** `shelf mcp` with stdin open, as an MCP client starts it: its exit code and what it wrote. */
async function startShelfMcp(env: Record<string, string>) {
  const proc = Bun.spawn([process.execPath, MAIN, "mcp"], {
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", LOG_LEVEL: "silent", ...env },
    stdin: "pipe",
    stdout: "pipe",
    stderr: "pipe",
  });
  // Its input stays open: a command that left the check to the first tool call would wait here until the time limit.
  const [code, out, err] = await Promise.all([proc.exited, new Response(proc.stdout).text(), new Response(proc.stderr).text()]);
  return { code, out, err };
}

describe("shelf mcp at start: the server and the key are checked before stdio is served", () => {
  test("an address where nothing listens: exits 1 naming SHELF_URL, before any tool call", async () => {
    // A port that was just a server's: nothing listens on it once that server has stopped.
    const gone = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response("") });
    const url = `http://127.0.0.1:${gone.port}`;
    await gone.stop(true);
    const user = await makeUser();
    const { key } = await makeKey(user, ["kb.read"]);
    const run = await startShelfMcp({ SHELF_URL: url, SHELF_API_KEY: key });
    expect(run.code).toBe(1);
    expect(run.out).toBe("");
    expect(run.err).toContain(`cannot reach the shelf server at SHELF_URL=${url}`);
    expect(run.err).toContain("connection refused");
  });

  test("a key the server refuses: exits 1 naming SHELF_API_KEY and the server's words", async () => {
    const run = await startShelfMcp({ SHELF_URL: BASE, SHELF_API_KEY: "sk_not_a_key_of_this_server" });
    expect(run.code).toBe(1);
    expect(run.out).toBe("");
    expect(run.err).toContain(`the server at SHELF_URL=${BASE} refused SHELF_API_KEY`);
  });

  test("a revoked key is refused at start too", async () => {
    const user = await makeUser();
    const made = await makeKey(user, ["kb.read"]);
    const revoked = await app.handle(new Request(`${BASE}/v1/api-keys/${made.id}`, { method: "DELETE", headers: { authorization: `Bearer ${user.jwt}` } }));
    expect(revoked.status).toBe(204);
    const run = await startShelfMcp({ SHELF_URL: BASE, SHELF_API_KEY: made.key });
    expect(run.code).toBe(1);
    expect(run.err).toContain("refused SHELF_API_KEY");
    expect(run.err).toContain("API_KEY_REVOKED");
  });

  test("an address that answers but is not shelf: exits 1 naming SHELF_URL", async () => {
    const other = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response("<html>not here</html>", { status: 404 }) });
    try {
      const url = `http://127.0.0.1:${other.port}`;
      const run = await startShelfMcp({ SHELF_URL: url, SHELF_API_KEY: "sk_anything" });
      expect(run.code).toBe(1);
      expect(run.err).toContain(`SHELF_URL=${url} does not answer as a shelf server`);
    } finally {
      other.stop(true);
    }
  });
});

describe("shelf mcp: malformed params", () => {
  test("are -32602 in one line naming what is wrong, as on the hosted server", { timeout: 60_000 }, async () => {
    const user = await makeUser();
    const { key } = await makeKey(user, ["kb.read"]);
    const proc = Bun.spawn([process.execPath, MAIN, "mcp"], {
      env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", LOG_LEVEL: "silent", SHELF_URL: BASE, SHELF_API_KEY: key },
      stdin: "pipe",
      stdout: "pipe",
      stderr: "ignore",
    });
    const requests = MALFORMED.map(([method, params, says], i) => ({
      says,
      line: { jsonrpc: "2.0", id: i + 1, method, ...(params !== undefined && { params }) },
    }));
    // A line whose params are not an object (or whose _meta is malformed) is not JSON-RPC to
    // the SDK's stdio transport, which drops it unanswered before any server sees it.
    const cases = requests.filter((r) => JSONRPCMessageSchema.safeParse(r.line).success);
    expect(cases.length).toBeGreaterThan(8);
    const lines = [
      { jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "pipe", version: "1" } } },
      { jsonrpc: "2.0", method: "notifications/initialized" },
      ...cases.map((c) => c.line),
    ];
    proc.stdin.write(lines.map((l) => `${JSON.stringify(l)}\n`).join(""));
    await proc.stdin.end();
    const out = await new Response(proc.stdout).text();
    expect(await proc.exited).toBe(0);
    const answers = new Map(
      out
        .trim()
        .split("\n")
        .map((l) => JSON.parse(l) as { id: number; error?: { code: number; message: string } })
        .map((a) => [a.id, a.error]),
    );
    for (const { line, says } of cases) {
      expect({ line, error: answers.get(line.id) }).toEqual({ line, error: { code: -32602, message: `Invalid params for ${line.method}: ${says}` } });
    }
  });
});

describe("upload_image by URL", () => {
  let hits = 0;
  const images = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    fetch: async (req) => {
      hits++;
      return new URL(req.url).pathname === "/cat.png"
        ? new Response((await png(6, 4)) as Uint8Array<ArrayBuffer>, { headers: { "content-type": "image/png" } })
        : new Response("no", { status: 404 });
    },
  });
  afterAll(() => {
    images.stop(true);
  });

  async function agent(opts: { publicDns: boolean }) {
    const user = await makeUser();
    const { key } = await makeKey(user, ["media.read", "media.write"]);
    // images.example resolves to a public address; the fetch that connects to it reaches the local image server.
    const fetchImage = urlImageFetcher({
      lookup: async () => [{ address: opts.publicDns ? "93.184.216.34" : "127.0.0.1", family: 4 }],
      fetchImpl: (async (input: RequestInfo | URL, init?: RequestInit) => {
        const url = new URL(input instanceof Request ? input.url : input);
        return fetch(`http://127.0.0.1:${images.port}${url.pathname}`, init);
      }) as typeof fetch,
    });
    const mcp = createMcpServer({
      client: new ShelfClient(
        BASE,
        (r) => fetch(r),
        () => `Bearer ${key}`,
      ),
      fetchImage,
    });
    const [a, b] = InMemoryTransport.createLinkedPair();
    await mcp.connect(a);
    const client = new Client({ name: "t", version: "1" });
    await client.connect(b);
    return client;
  }

  test("a public URL is fetched and stored like an upload", async () => {
    const client = await agent({ publicDns: true });
    const up = (await client.callTool({ name: "upload_image", arguments: { filename: "cat.png", url: "http://images.example/cat.png" } })) as Result;
    expect(up.isError).toBeFalsy();
    expect(up.structuredContent).toMatchObject({ filename: "cat.png", width: 6, height: 4 });
    const missing = (await client.callTool({ name: "upload_image", arguments: { filename: "x.png", url: "http://images.example/none.png" } })) as Result;
    expect(missing.isError).toBe(true);
    expect(missing.content[0]!.text).toContain("the image could not be fetched");
    await client.close();
  });

  test("a URL whose name resolves inside the network, or a loopback literal, is refused without a request", async () => {
    const client = await agent({ publicDns: false });
    const before = hits;
    for (const url of ["http://images.example/cat.png", `http://127.0.0.1:${images.port}/cat.png`, "http://[::ffff:127.0.0.1]/cat.png", "file:///etc/passwd"]) {
      const res = (await client.callTool({ name: "upload_image", arguments: { filename: "x.png", url } })) as Result;
      expect(res.isError).toBe(true);
    }
    expect(hits).toBe(before);
    const both = (await client.callTool({ name: "upload_image", arguments: { filename: "x.png" } })) as Result;
    expect(both.content[0]!.text).toBe("give the image as data (base64) or as url, one of them");
    await client.close();
  });
});
