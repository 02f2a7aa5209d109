// The tools and resources through the SDK's client, against the API's own state: what a
// tool writes is what the API then answers, and what the API refuses is a tool error the
// agent can read. Every tool call is logged with the user and the OAuth client.
import { beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { captureLog } from "../helpers/log-capture.ts";
import type { TestUser } from "../helpers/factories.ts";
import { png } from "../images/fixtures.ts";
import { oauthApp } from "../oauth/flow.ts";
import { ALL_SCOPES, connect, deviceTokens, MALFORMED, rpc } from "./helpers.ts";
import { TEST_TIMEOUT_MS } from "../helpers/timeout.ts";

setDefaultTimeout(TEST_TIMEOUT_MS);

const captured = captureLog("info");
const o = await oauthApp(() => ({ log: captured.log }));
const sha256 = (s: string) => new Bun.CryptoHasher("sha256").update(s).digest("hex");

type Structured = Record<string, any>;
async function callTool(client: Client, name: string, args: Record<string, unknown>) {
  const res = await client.callTool({ name, arguments: args });
  return res as { isError?: boolean; content: { type: string; text: string }[]; structuredContent?: Structured };
}

let user: TestUser;
let client: Client;
let kbId: string;
let token: string;

beforeAll(async () => {
  user = await o.makeUser();
  const kb = await o.call("POST", "/v1/kbs", { app: o.app, token: user.jwt, json: { name: "Notes" } });
  kbId = ((await kb.json()) as { data: { id: string } }).data.id;
  token = (await deviceTokens(o, user, { scope: ALL_SCOPES })).access_token;
  client = await connect(o, token);
});

describe("MCP tools", () => {
  test("tools/list: every tool with an input and an output schema and its scope", async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual([
      "list_knowledge_bases",
      "search_documents",
      "read_document",
      "write_document",
      "list_folder",
      "read_documents",
      "edit_document",
      "move_document",
      "delete_document",
      "read_attachment",
      "list_media",
      "upload_image",
      "get_usage",
      "list_collections",
      "read_collection",
      "create_collection",
      "add_to_collection",
      "remove_from_collection",
      "reorder_collection",
    ]);
    for (const t of tools) {
      expect(t.inputSchema.type).toBe("object");
      expect(t.outputSchema?.type).toBe("object");
      expect(t.description).toMatch(/Needs the [a-z.]+ scope\.$/);
    }
    expect(tools.find((t) => t.name === "read_document")!.annotations?.readOnlyHint).toBe(true);
    expect(tools.find((t) => t.name === "write_document")!.annotations?.readOnlyHint).toBe(false);
  });

  test("list_knowledge_bases, write_document (create, update, replace), read_document by path and by id", async () => {
    const kbs = await callTool(client, "list_knowledge_bases", {});
    expect(kbs.structuredContent!.items).toEqual([expect.objectContaining({ id: kbId, name: "Notes", docCount: 0 })]);
    expect(kbs.content[0]!.text).toContain(`Notes (id ${kbId})`);

    const created = await callTool(client, "write_document", { kbId, path: "ideas/first.md", content: "# First\n\nan idea\n" });
    expect(created.isError).toBeFalsy();
    expect(created.structuredContent).toMatchObject({ status: "created", relativePath: "ideas/first.md", sourceHash: sha256("# First\n\nan idea\n") });
    const id = created.structuredContent!.id as string;

    const byPath = await callTool(client, "read_document", { kbId, path: "ideas/first.md" });
    expect(byPath.structuredContent).toMatchObject({ id, kbId, relativePath: "ideas/first.md", format: "markdown", content: "# First\n\nan idea\n" });
    expect(byPath.content[0]!.text).toBe("# First\n\nan idea\n");
    const base = byPath.structuredContent!.sourceHash as string;

    const updated = await callTool(client, "write_document", { kbId, path: "ideas/first.md", content: "# First\n\nbetter\n", baseHash: base });
    expect(updated.structuredContent).toMatchObject({ status: "updated", id });
    const byId = await callTool(client, "read_document", { id });
    expect(byId.structuredContent!.content).toBe("# First\n\nbetter\n");

    const replaced = await callTool(client, "write_document", { kbId, path: "ideas/first.md", content: "# First\n\nreplaced\n" });
    expect(replaced.structuredContent!.status).toBe("updated");
    const raw = await o.call("GET", `/v1/kbs/${kbId}/raw?path=ideas/first.md`, { app: o.app, token: user.jwt });
    expect(await raw.text()).toBe("# First\n\nreplaced\n");

    const same = await callTool(client, "write_document", { kbId, path: "ideas/first.md", content: "# First\n\nreplaced\n" });
    expect(same.structuredContent!.status).toBe("unchanged");
  });

  test("write_document with a stale baseHash keeps master and makes a conflict branch, and says so", async () => {
    const first = await callTool(client, "write_document", { kbId, path: "shared.md", content: "v1\n" });
    const stale = first.structuredContent!.sourceHash as string;
    await callTool(client, "write_document", { kbId, path: "shared.md", content: "v2 by someone else\n", baseHash: stale });
    const mine = await callTool(client, "write_document", { kbId, path: "shared.md", content: "v2 by the agent\n", baseHash: stale });
    expect(mine.isError).toBeFalsy();
    const branchId = mine.structuredContent!.branchId;
    expect(typeof branchId).toBe("string");
    expect(mine.structuredContent!.status).toBe("conflict_branch_created");
    expect(mine.content[0]!.text).toContain("conflict branch");
    const master = await o.call("GET", `/v1/kbs/${kbId}/raw?path=shared.md`, { app: o.app, token: user.jwt });
    expect(await master.text()).toBe("v2 by someone else\n");
    const conflicts = await o.call("GET", `/v1/kbs/${kbId}/conflicts`, { app: o.app, token: user.jwt });
    const branches = ((await conflicts.json()) as { data: { items: { branchId: string }[] } }).data.items;
    expect(branches.map((b) => b.branchId)).toContain(branchId);
  });

  test("search_documents: ranked matches with snippets, within one KB when asked", async () => {
    await callTool(client, "write_document", { kbId, path: "garden/tomatoes.md", content: "# Tomatoes\n\nWater the tomatoes every morning.\n" });
    await callTool(client, "write_document", { kbId, path: "kitchen/soup.md", content: "# Soup\n\nA soup of tomatoes and basil.\n" });
    const found = await callTool(client, "search_documents", { query: "tomatoes" });
    expect(found.isError).toBeFalsy();
    const items = found.structuredContent!.items as { relativePath: string; snippet: string; kbId: string }[];
    expect(items.map((i) => i.relativePath)).toEqual(["garden/tomatoes.md", "kitchen/soup.md"]);
    expect(items[0]!.snippet).toContain("«");
    expect(found.content[0]!.text).toContain("garden/tomatoes.md");
    const inKb = await callTool(client, "search_documents", { query: "basil", kbId, limit: 5 });
    expect((inKb.structuredContent!.items as { relativePath: string }[]).map((i) => i.relativePath)).toEqual(["kitchen/soup.md"]);
    const none = await callTool(client, "search_documents", { query: "zucchini" });
    expect(none.structuredContent).toEqual({ items: [], nextCursor: null });
    expect(none.content[0]!.text).toBe('Nothing matches "zucchini".');
  });

  test("read_document of an earlier revision", async () => {
    const history = await o.call("PATCH", "/v1/user/me", { app: o.app, token: user.jwt, json: { docVersioningEnabled: true } });
    expect(history.status).toBe(200);
    const doc = await callTool(client, "write_document", { kbId, path: "history.md", content: "one\n" });
    const id = doc.structuredContent!.id as string;
    await callTool(client, "write_document", { kbId, path: "history.md", content: "two\n" });
    const revs = await o.call("GET", `/v1/docs/${id}/revisions`, { app: o.app, token: user.jwt });
    const revisions = ((await revs.json()) as { data: { revisions: { id: string; revNumber: number }[] } }).data.revisions;
    expect(revisions.length).toBeGreaterThan(0);
    const old = await callTool(client, "read_document", { id, revisionId: revisions.at(-1)!.id });
    expect(old.structuredContent).toMatchObject({ id, content: "one\n", sourceHash: sha256("one\n"), revision: { id: revisions.at(-1)!.id } });
  });

  test("upload_image from base64 data; list_media and get_usage see it", async () => {
    const bytes = await png(12, 9);
    const up = await callTool(client, "upload_image", { filename: "dot.png", data: Buffer.from(bytes).toString("base64") });
    expect(up.isError).toBeFalsy();
    expect(up.structuredContent).toMatchObject({ filename: "dot.png", width: 12, height: 9, url: expect.stringContaining(o.deps.config.MEDIA_URL) });
    const listed = await o.call("GET", `/v1/images/${up.structuredContent!.id}`, { app: o.app, token: user.jwt });
    expect(listed.status).toBe(200);

    const media = await callTool(client, "list_media", {});
    expect(media.structuredContent!.items).toContainEqual(expect.objectContaining({ id: up.structuredContent!.id, type: "image", name: "dot.png" }));
    const images = await callTool(client, "list_media", { type: "image" });
    expect(images.structuredContent!.nextCursor).toBeNull();
    const audio = await callTool(client, "list_media", { type: "audio" });
    expect(audio.structuredContent).toEqual({ items: [], nextCursor: null });

    const usage = await callTool(client, "get_usage", {});
    expect(usage.isError).toBeFalsy();
    const api = await o.call("GET", "/v1/user/me/usage", { app: o.app, token: user.jwt });
    expect(usage.structuredContent).toEqual(((await api.json()) as { data: Structured }).data);
  });

  test("bad arguments and API refusals are tool errors in words; an unknown tool is a protocol error", async () => {
    const bad = await callTool(client, "read_document", { id: 42 });
    expect(bad.isError).toBe(true);
    expect(bad.content[0]!.text).toContain("invalid arguments for read_document: id");
    const neither = await callTool(client, "read_document", {});
    expect(neither.isError).toBe(true);
    expect(neither.content[0]!.text).toContain("by id, or by kbId and path");
    const missing = await callTool(client, "read_document", { id: "AAAAAAAAAAAAAAAAAAAAA" });
    expect(missing.isError).toBe(true);
    expect(missing.content[0]!.text).toContain("NOT_FOUND");
    const notBase64 = await callTool(client, "upload_image", { filename: "x.png", data: "@@@" });
    expect(notBase64.content[0]!.text).toBe("data is not base64");
    const notImage = await callTool(client, "upload_image", { filename: "x.png", data: Buffer.from("not an image").toString("base64") });
    expect(notImage.isError).toBe(true);
    await expect(client.callTool({ name: "no_such_tool", arguments: {} })).rejects.toThrow(/no tool named no_such_tool/);
  });

  test("malformed params are -32602 (invalid params) in one line naming what is wrong, never -32603 or a validation report", async () => {
    const auth = { authorization: `Bearer ${token}` };
    for (const [method, params, says] of MALFORMED) {
      const res = await rpc(o, { jsonrpc: "2.0", id: 7, method, ...(params !== undefined && { params }) }, auth);
      const body = (await res.json()) as { id: number; error?: { code: number; message: string } };
      expect({ method, params, status: res.status, id: body.id, code: body.error?.code }).toEqual({ method, params, status: 200, id: 7, code: -32602 });
      expect(body.error!.message).toBe(`Invalid params for ${method}: ${says}`);
    }
    // In a batch each request is answered on its own: the malformed one -32602, the other as usual.
    const batch = await rpc(
      o,
      [
        { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "list_knowledge_bases", arguments: [] } },
        { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "list_knowledge_bases", arguments: {} } },
      ],
      auth,
    );
    const answers = ((await batch.json()) as { id: number; error?: { code: number }; result?: unknown }[]).sort((a, b) => a.id - b.id);
    expect(answers[0]!.error?.code).toBe(-32602);
    expect(answers[1]!.result).toBeDefined();
    // A name that is a string but no tool's: -32602 too, as the MCP specification has it.
    const unknown = await rpc(o, { jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: "no_such_tool", arguments: {} } }, auth);
    const { error } = (await unknown.json()) as { error: { code: number; message: string } };
    expect(error.code).toBe(-32602);
    expect(error.message).toEndWith("no tool named no_such_tool");
  });

  test("resources: the document template, the list of KB documents, and reading one by its URI", async () => {
    await callTool(client, "write_document", { kbId, path: "notes/a b.md", content: "# A\n" });
    const { resourceTemplates } = await client.listResourceTemplates();
    expect(resourceTemplates.map((t) => t.uriTemplate)).toEqual(["shelf://kb/{kbId}/{+path}"]);
    const { resources } = await client.listResources();
    const uri = `shelf://kb/${kbId}/notes/a%20b.md`;
    expect(resources).toContainEqual(expect.objectContaining({ uri, name: "notes/a b.md", mimeType: "text/markdown" }));
    const read = await client.readResource({ uri });
    expect(read.contents).toEqual([{ uri, mimeType: "text/markdown", text: "# A\n" }]);
    await expect(client.readResource({ uri: `shelf://kb/${kbId}/nothing.md` })).rejects.toThrow(/-32002|not found/i);
    await expect(client.readResource({ uri: "https://example.com/x" })).rejects.toThrow(/not a shelf document URI/);
  });

  test("another user's knowledge base and documents are out of reach", async () => {
    const stranger = await o.makeUser();
    const theirs = await connect(o, (await deviceTokens(o, stranger, { scope: ALL_SCOPES })).access_token);
    const kbs = await callTool(theirs, "list_knowledge_bases", {});
    expect(kbs.structuredContent!.items).toEqual([]);
    const read = await callTool(theirs, "read_document", { kbId, path: "ideas/first.md" });
    expect(read.isError).toBe(true);
    expect(read.content[0]!.text).toContain("NOT_FOUND");
    const write = await callTool(theirs, "write_document", { kbId, path: "intrude.md", content: "x" });
    expect(write.isError).toBe(true);
    await expect(theirs.readResource({ uri: `shelf://kb/${kbId}/shared.md` })).rejects.toThrow();
    await theirs.close();
  });

  test("every tool call is logged with the tool, the user and the OAuth client", async () => {
    await callTool(client, "list_knowledge_bases", {});
    const line = await captured.next((l) => l.msg === "mcp tool call" && l.tool === "list_knowledge_bases");
    expect(line).toMatchObject({ level: "info", userId: user.id, clientId: "shelf-agent", ok: true });
  });
});
