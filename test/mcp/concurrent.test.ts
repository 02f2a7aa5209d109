// Calls of two users at once: every hosted request answers for its own token only (its own
// delegated credential, its own API client, its own record of the call), and a plain
// tools/call, which the hosted server answers without the SDK's server and transport,
// answers exactly as they do.
import { beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { captureLog } from "../helpers/log-capture.ts";
import type { TestUser } from "../helpers/factories.ts";
import { oauthApp } from "../oauth/flow.ts";
import { ALL_SCOPES, connect, deviceTokens, rpc } from "./helpers.ts";
import { TEST_TIMEOUT_MS } from "../helpers/timeout.ts";

setDefaultTimeout(TEST_TIMEOUT_MS);

const captured = captureLog("info");
const o = await oauthApp(() => ({ log: captured.log }));

interface Agent {
  user: TestUser;
  token: string;
  client: Client;
  kbId: string;
  text: string;
}

/** A user with a KB holding `same.md` (text of their own), an MCP token and a connected SDK client. */
async function agent(words: string): Promise<Agent> {
  const user = await o.makeUser();
  const kb = await o.call("POST", "/v1/kbs", { app: o.app, token: user.jwt, json: { name: "Notes" } });
  const kbId = ((await kb.json()) as { data: { id: string } }).data.id;
  const text = `# ${words}\n\n${words} `.repeat(20);
  const token = (await deviceTokens(o, user, { scope: ALL_SCOPES })).access_token;
  const client = await connect(o, token);
  const created = await client.callTool({ name: "write_document", arguments: { kbId, path: "same.md", content: text } });
  expect(created.isError).toBeFalsy();
  return { user, token, client, kbId, text };
}

type Result = { isError?: boolean; content: { type: string; text: string }[]; structuredContent?: Record<string, any> };
const read = (a: Agent, kbId = a.kbId) => a.client.callTool({ name: "read_document", arguments: { kbId, path: "same.md" } }) as Promise<Result>;

let alice: Agent;
let bob: Agent;

beforeAll(async () => {
  [alice, bob] = await Promise.all([agent("alice"), agent("bob")]);
});

describe("the hosted MCP server with two users calling at once", () => {
  test("each call reads its own user's document, and one reaching for the other's KB is refused, in the same burst", async () => {
    const rounds = 20;
    const calls = Array.from({ length: rounds }, () => [read(alice), read(bob), read(bob, alice.kbId), read(alice, bob.kbId)]).flat();
    const results = await Promise.all(calls);
    for (let i = 0; i < rounds; i++) {
      const [a, b, bobAtAlice, aliceAtBob] = results.slice(i * 4, i * 4 + 4) as [Result, Result, Result, Result];
      expect(a.structuredContent).toMatchObject({ kbId: alice.kbId, content: alice.text });
      expect(b.structuredContent).toMatchObject({ kbId: bob.kbId, content: bob.text });
      for (const refused of [bobAtAlice, aliceAtBob]) {
        expect(refused.isError).toBe(true);
        expect(refused.content[0]!.text).toContain("NOT_FOUND");
      }
    }
    // Each call is recorded for the user who made it: two successes and two refusals a round each.
    const reads = captured.lines.filter((l) => l.msg === "mcp tool call" && l.tool === "read_document");
    for (const a of [alice, bob]) {
      const mine = reads.filter((l) => l.userId === a.user.id);
      expect(mine.filter((l) => l.ok === true).length).toBe(rounds);
      expect(mine.filter((l) => l.ok === false && l.error === "NOT_FOUND").length).toBe(rounds);
    }
  });

  test("a plain tools/call answers as the SDK's server and transport do (the same call with _meta goes through them)", async () => {
    const call = (id: unknown, params: Record<string, unknown>, headers: Record<string, string>) =>
      rpc(o, { jsonrpc: "2.0", id, method: "tools/call", params }, { authorization: `Bearer ${alice.token}`, ...headers });
    const cases: [id: unknown, args: Record<string, unknown>, headers: Record<string, string>][] = [
      [7, { kbId: alice.kbId, path: "same.md" }, { "mcp-protocol-version": "2025-11-25" }],
      ["a", { kbId: bob.kbId, path: "same.md" }, {}],
      [8, { kbId: alice.kbId }, { "mcp-protocol-version": "2025-06-18" }],
      [9, { path: 5 }, {}],
      // Refused by the transport, whichever way: a version it does not speak, a body that is not JSON, a missing type.
      [10, { kbId: alice.kbId, path: "same.md" }, { "mcp-protocol-version": "1999-01-01" }],
      [11, { kbId: alice.kbId, path: "same.md" }, { "content-type": "text/plain" }],
      [12, { kbId: alice.kbId, path: "same.md" }, { accept: "application/json" }],
      [1.5, { kbId: alice.kbId, path: "same.md" }, {}],
    ];
    for (const [id, args, headers] of cases) {
      const [plain, throughServer] = await Promise.all([
        call(id, { name: "read_document", arguments: args }, headers),
        call(id, { name: "read_document", arguments: args, _meta: {} }, headers),
      ]);
      expect(plain.status).toBe(throughServer.status);
      expect(plain.headers.get("content-type")).toBe(throughServer.headers.get("content-type"));
      expect(await plain.json()).toEqual(await throughServer.json());
    }
  });
});
