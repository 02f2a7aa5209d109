// (s) read_document through the hosted MCP server against GET /v1/kbs/:id/raw for the same
// document: what the protocol, the SDK's transport and the tool's in-process API calls
// (the text, then its metadata) cost over reading the text directly.
import { requestsPerSecond } from "./http-load.ts";
import { interleave } from "./passes.ts";
import type { Shelf } from "./server.ts";

const DEVICE_GRANT = "urn:ietf:params:oauth:grant-type:device_code";

async function json(res: Response) {
  const body = (await res.json()) as Record<string, any>;
  if (!res.ok) throw new Error(`${res.url}: ${res.status} ${JSON.stringify(body)}`);
  return body;
}

/** An OAuth access token for the MCP server, through the device flow approved by a signed-in session of a new user; and that user's API key. */
async function agentOf(shelf: Shelf) {
  const email = `bench-mcp-${crypto.randomUUID()}@example.test`;
  const password = "bench password 123";
  const signup = await json(
    await fetch(`${shelf.origin}/v1/auth/signup`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email, password }),
    }),
  );
  const jwt = signup.data.accessToken as string;
  const form = (params: Record<string, string>) => ({ method: "POST", body: new URLSearchParams(params) });
  const mcpUrl = shelf.deps.config.MCP_URL;
  const started = await json(
    await fetch(`${shelf.origin}/v1/oauth/device_authorization`, form({ client_id: "shelf-agent", scope: "kb.read kb.write", resource: mcpUrl })),
  );
  await json(
    await fetch(`${shelf.origin}/v1/oauth/device/verify`, {
      method: "POST",
      headers: { authorization: `Bearer ${jwt}`, "content-type": "application/json" },
      body: JSON.stringify({ userCode: started.user_code, decision: "approve" }),
    }),
  );
  const tokens = await json(
    await fetch(`${shelf.origin}/oauth/token`, form({ grant_type: DEVICE_GRANT, device_code: started.device_code, client_id: "shelf-agent" })),
  );
  const key = await json(
    await fetch(`${shelf.origin}/v1/api-keys`, {
      method: "POST",
      headers: { authorization: `Bearer ${jwt}`, "content-type": "application/json" },
      body: JSON.stringify({ name: "bench", scopes: ["kb.read", "kb.write"] }),
    }),
  );
  return { token: tokens.access_token as string, key: key.data.key as string, jwt };
}

export async function benchMcp(shelf: Shelf, passes = 3) {
  const { token, key } = await agentOf(shelf);
  const kb = await json(
    await fetch(`${shelf.origin}/v1/kbs`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: '{"name":"Bench"}',
    }),
  );
  const kbId = kb.data.id as string;
  const text = `# A note\n\n${"Some words of a note, as people write them. ".repeat(100)}\n`;
  const sourceHash = new Bun.CryptoHasher("sha256").update(text).digest("hex");
  await json(
    await fetch(`${shelf.origin}/v1/kbs/${kbId}/sync`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json", "service-sync-version": "2" },
      body: JSON.stringify({ ops: [{ op: "upsert", relativePath: "notes/a.md", content: text, sourceHash }] }),
    }),
  );
  const call = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "read_document", arguments: { kbId, path: "notes/a.md" } } });
  const check = await fetch(`${shelf.origin}/mcp`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json", accept: "application/json, text/event-stream" },
    body: call,
  });
  const answer = await json(check);
  if (answer.result?.structuredContent?.content !== text) throw new Error(`read_document did not read the note: ${JSON.stringify(answer).slice(0, 300)}`);
  const result = await interleave(
    passes,
    () => requestsPerSecond(`${shelf.origin}/mcp`, { bearer: token, body: call, accept: "application/json, text/event-stream", concurrency: 8 }),
    () => requestsPerSecond(`${shelf.origin}/v1/kbs/${kbId}/raw?path=notes/a.md`, { bearer: key, accept: "text/markdown", concurrency: 8 }),
  );
  return { ...result, bytes: Buffer.byteLength(text) };
}
