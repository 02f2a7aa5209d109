import { expect, test } from "bun:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { oauthApp } from "../oauth/flow.ts";

test("smoke", async () => {
  const o = await oauthApp();
  const user = await o.makeUser();
  const mcpUrl = o.deps.config.MCP_URL;
  const started = await o.start("shelf-sync", { resource: mcpUrl, scope: "kb.read kb.write" });
  expect(started.status).toBe(200);
  await o.verify(user, started.body.user_code);
  const tokens = await o.post("/oauth/token", { grant_type: "urn:ietf:params:oauth:grant-type:device_code", device_code: started.body.device_code, client_id: "shelf-sync" });
  expect(tokens.status).toBe(200);
  const client = new Client({ name: "t", version: "1" });
  const transport = new StreamableHTTPClientTransport(new URL(mcpUrl), {
    fetch: (url, init) => o.app.handle(new Request(url, init)),
    requestInit: { headers: { authorization: `Bearer ${tokens.body.access_token}` } },
  });
  await client.connect(transport);
  const tools = await client.listTools();
  console.log(tools.tools.map((t) => t.name));
  const kbs = await client.callTool({ name: "list_knowledge_bases", arguments: {} });
  console.log(JSON.stringify(kbs));
  const w = await client.callTool({ name: "write_document", arguments: { kbId: "x", path: "a.md", content: "hi" } });
  console.log(JSON.stringify(w));
  await client.close();
});
