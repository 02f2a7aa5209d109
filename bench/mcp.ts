// (s) read_document through the hosted MCP server against GET /v1/kbs/:id/raw for the same
// document: what the protocol, the SDK's transport and the tool's in-process API call
// (POST /v1/kbs/:id/read: the text with its title and version) cost over reading the text
// directly. The node runs in a process of its own (bench/api-process.ts) with the limits
// raised, so each side's CPU per request is that process's, from /proc, which the other
// work of a shared 2-core machine moves far less than requests per second. Alone:
// `bun bench/mcp.ts [passes]`; `make bench` too.
import { PLAN_NAMES } from "../src/core/plans.ts";
import { httpPass } from "./http-load.ts";
import { startApiNode } from "./api-node.ts";
import { costText, loadText, measuredInterleave, runText } from "./cpu.ts";
import { ratioText } from "./passes.ts";

const DEVICE_GRANT = "urn:ietf:params:oauth:grant-type:device_code";
const SECONDS = 3;
const CONNECTIONS = 8;
/** The read tier and every plan's mcpCall bucket out of the way: a refused tool call answers 200 (a tool error), and would be counted. */
const LIMITS = {
  RATE_LIMITS: JSON.stringify({ read: 1_000_000, mutation: 1_000_000, upload: 1_000_000, file: 1_000_000 }),
  PLAN_OVERRIDES: JSON.stringify(Object.fromEntries(PLAN_NAMES.map((p) => [p, { mcpCallBurst: 1_000_000, mcpCallRefillPerMinute: 1_000_000 }]))),
};

async function json(res: Response) {
  const body = (await res.json()) as Record<string, any>;
  if (!res.ok) throw new Error(`${res.url}: ${res.status} ${JSON.stringify(body)}`);
  return body;
}

/** An OAuth access token for the MCP server, through the device flow approved by a signed-in session of a new user; and that user's API key. */
async function agentOf(origin: string) {
  const email = `bench-mcp-${crypto.randomUUID()}@example.test`;
  const password = "bench password 123";
  const signup = await json(
    await fetch(`${origin}/v1/auth/signup`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email, password }),
    }),
  );
  const jwt = signup.data.accessToken as string;
  const form = (params: Record<string, string>) => ({ method: "POST", body: new URLSearchParams(params) });
  const mcpUrl = (await json(await fetch(`${origin}/.well-known/oauth-protected-resource/mcp`))).resource as string;
  const started = await json(
    await fetch(`${origin}/v1/oauth/device_authorization`, form({ client_id: "shelf-agent", scope: "kb.read kb.write", resource: mcpUrl })),
  );
  await json(
    await fetch(`${origin}/v1/oauth/device/verify`, {
      method: "POST",
      headers: { authorization: `Bearer ${jwt}`, "content-type": "application/json" },
      body: JSON.stringify({ userCode: started.user_code, decision: "approve" }),
    }),
  );
  const tokens = await json(
    await fetch(`${origin}/oauth/token`, form({ grant_type: DEVICE_GRANT, device_code: started.device_code, client_id: "shelf-agent" })),
  );
  const key = await json(
    await fetch(`${origin}/v1/api-keys`, {
      method: "POST",
      headers: { authorization: `Bearer ${jwt}`, "content-type": "application/json" },
      body: JSON.stringify({ name: "bench", scopes: ["kb.read", "kb.write"] }),
    }),
  );
  return { token: tokens.access_token as string, key: key.data.key as string };
}

/** A note in a new KB of the agent's user, and the tool call that reads it; the call is checked to read it. */
async function noteOf(origin: string, token: string, key: string) {
  const kb = await json(
    await fetch(`${origin}/v1/kbs`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: '{"name":"Bench"}',
    }),
  );
  const kbId = kb.data.id as string;
  const text = `# A note\n\n${"Some words of a note, as people write them. ".repeat(100)}\n`;
  const sourceHash = new Bun.CryptoHasher("sha256").update(text).digest("hex");
  await json(
    await fetch(`${origin}/v1/kbs/${kbId}/sync`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json", "service-sync-version": "2" },
      body: JSON.stringify({ ops: [{ op: "upsert", relativePath: "notes/a.md", content: text, sourceHash }] }),
    }),
  );
  const call = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "read_document", arguments: { kbId, path: "notes/a.md" } } });
  /** Throws unless the call reads the note (not a tool error: a refused call answers 200 too). */
  const check = async () => {
    const answer = await json(
      await fetch(`${origin}/mcp`, {
        method: "POST",
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json", accept: "application/json, text/event-stream" },
        body: call,
      }),
    );
    if (answer.result?.structuredContent?.content !== text) throw new Error(`read_document did not read the note: ${JSON.stringify(answer).slice(0, 300)}`);
  };
  await check();
  return { kbId, call, bytes: Buffer.byteLength(text), check };
}

async function benchMcp(passes = 5) {
  const node = await startApiNode({ env: LIMITS });
  try {
    const { token, key } = await agentOf(node.origin);
    const note = await noteOf(node.origin, token, key);
    const run = await measuredInterleave(
      passes,
      {
        cpu: node.cpu,
        run: () =>
          httpPass(`${node.origin}/mcp`, {
            bearer: token,
            body: note.call,
            accept: "application/json, text/event-stream",
            concurrency: CONNECTIONS,
            seconds: SECONDS,
          }),
      },
      {
        cpu: node.cpu,
        run: () =>
          httpPass(`${node.origin}/v1/kbs/${note.kbId}/raw?path=notes/a.md`, {
            bearer: key,
            accept: "text/markdown",
            concurrency: CONNECTIONS,
            seconds: SECONDS,
          }),
      },
    );
    // Every call of the load was answered the note, not a refusal: the bucket is still far from empty.
    await note.check();
    return { ...run, bytes: note.bytes };
  } finally {
    await node.stop();
  }
}

const fmt = (n: number, d = 1) => n.toFixed(d);

/** (s) as `make bench` prints it. */
export async function printMcp(passes = 5) {
  const mcp = await benchMcp(passes);
  console.log(
    `\n(s) read_document (${fmt(mcp.bytes / 1024)} KB note) through POST /mcp, OAuth token for MCP_URL, ${CONNECTIONS} connections from a separate process, the node in its own process`,
  );
  console.log(`    shelf MCP tool call    ${fmt(mcp.subject, 0)} calls/s      ${fmt(mcp.cpu.subjectUs, 0)} us of the node's CPU each`);
  console.log(`    GET /v1/kbs/:id/raw    ${fmt(mcp.baseline, 0)} requests/s   ${fmt(mcp.cpu.baselineUs, 0)} us of the node's CPU each`);
  console.log(`    ratio                  ${ratioText(mcp)}   (target >= 0.8)`);
  console.log(`    ${costText(mcp.cpu, "call", ["MCP", "raw"])}; ${loadText(mcp.load)}`);
}

if (import.meta.main) {
  console.log(runText());
  await printMcp(Number(Bun.argv[2] ?? 5));
}
