// Real parts only: the hosted MCP server keeps nothing per node. A token issued through this
// node is taken by a second api process sharing Postgres, Redis and S3, whose tools write
// what this node then reads.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { startApiProcess } from "../helpers/api-process.ts";
import { oauthApp } from "../oauth/flow.ts";
import { ALL_SCOPES, connect, deviceTokens } from "./helpers.ts";
import { TEST_TIMEOUT_MS } from "../helpers/timeout.ts";

setDefaultTimeout(TEST_TIMEOUT_MS);

const realParts = !!(process.env.DATABASE_URL && process.env.REDIS_URL && process.env.S3_BUCKET);

describe("the hosted MCP server on two api nodes", () => {
  test.skipIf(!realParts)(
    "a token from this node works on a second api process; what its tools write, this node's tools read",
    async () => {
      const o = await oauthApp();
      const user = await o.makeUser();
      const kb = await o.call("POST", "/v1/kbs", { app: o.app, token: user.jwt, json: { name: "Shared" } });
      const kbId = ((await kb.json()) as { data: { id: string } }).data.id;
      const { access_token } = await deviceTokens(o, user, { scope: ALL_SCOPES });
      const second = await startApiProcess();
      try {
        const remote = new Client({ name: "agent", version: "1" });
        await remote.connect(
          new StreamableHTTPClientTransport(new URL(`${second.base}/mcp`), { requestInit: { headers: { authorization: `Bearer ${access_token}` } } }),
        );
        const wrote = await remote.callTool({ name: "write_document", arguments: { kbId, path: "from-b.md", content: "# Written on B\n" } });
        expect(wrote.isError).toBeFalsy();
        await remote.close();
        const local = await connect(o, access_token);
        const read = (await local.callTool({ name: "read_document", arguments: { kbId, path: "from-b.md" } })) as { structuredContent?: { content: string } };
        expect(read.structuredContent?.content).toBe("# Written on B\n");
        await local.close();
      } finally {
        await second.stop();
      }
    },
    120_000,
  );
});
