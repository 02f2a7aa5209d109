// The collection tools through the SDK's client: what they write is what the API then
// answers, and what the API refuses is a tool error the agent can read.
import { beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { TestUser } from "../helpers/factories.ts";
import { TEST_TIMEOUT_MS } from "../helpers/timeout.ts";
import { png, uploadForm } from "../images/fixtures.ts";
import { ALL_SCOPES, connect, deviceTokens } from "../mcp/helpers.ts";
import { oauthApp } from "../oauth/flow.ts";

setDefaultTimeout(TEST_TIMEOUT_MS);

const o = await oauthApp();
type Answer = { isError?: boolean; content: { type: string; text: string }[]; structuredContent?: Record<string, any> };
const callTool = async (client: Client, name: string, args: Record<string, unknown>) => (await client.callTool({ name, arguments: args })) as Answer;

let user: TestUser;
let client: Client;

async function image(owner: TestUser) {
  const res = await o.call("POST", "/v1/images", { app: o.app, token: owner.jwt, body: uploadForm(await png(8, 8), { filename: "p.png" }) });
  return { kind: "image", id: ((await res.json()) as { data: { id: string } }).data.id };
}
async function apiOrder(id: string) {
  const res = await o.call("GET", `/v1/collections/${id}/items`, { app: o.app, token: user.jwt });
  return ((await res.json()) as { data: { items: { kind: string; id: string }[] } }).data.items.map((e) => ({ kind: e.kind, id: e.id }));
}

beforeAll(async () => {
  user = await o.makeUser();
  client = await connect(o, (await deviceTokens(o, user, { scope: ALL_SCOPES })).access_token);
});

describe("MCP collection tools", () => {
  test("create_collection, add_to_collection, read_collection, reorder_collection, remove_from_collection, list_collections", async () => {
    const [a, b, c] = [await image(user), await image(user), await image(user)];
    const created = await callTool(client, "create_collection", { title: "Trip", description: "by the sea", items: [a] });
    expect(created.isError).toBeFalsy();
    expect(created.structuredContent).toMatchObject({ title: "Trip", description: "by the sea", itemCount: 1 });
    expect(created.structuredContent!.coverUrl).toContain(a.id);
    const id = created.structuredContent!.id as string;
    expect(created.content[0]!.text).toBe(`Created Trip (id ${id}): 1 item`);

    const added = await callTool(client, "add_to_collection", { id, items: [b, c, a] });
    expect(added.structuredContent).toMatchObject({ added: 2, alreadyIn: 1, collection: { itemCount: 3 } });
    expect(added.content[0]!.text).toContain("Added 2 (1 already in it)");

    const read = await callTool(client, "read_collection", { id });
    expect(read.structuredContent!.items.map((e: any) => [e.kind, e.id, e.position, e.name])).toEqual([
      ["image", a.id, 0, "p.png"],
      ["image", b.id, 1, "p.png"],
      ["image", c.id, 2, "p.png"],
    ]);

    const reordered = await callTool(client, "reorder_collection", { id, items: [c, b, a] });
    expect(reordered.isError).toBeFalsy();
    expect(await apiOrder(id)).toEqual([c, b, a]);

    const removed = await callTool(client, "remove_from_collection", { id, items: [b] });
    expect(removed.structuredContent).toMatchObject({ removed: 1, notIn: 0, collection: { itemCount: 2 } });
    expect(await apiOrder(id)).toEqual([c, a]);

    const listed = await callTool(client, "list_collections", {});
    expect(listed.structuredContent).toEqual({ items: [expect.objectContaining({ id, title: "Trip", itemCount: 2 })], nextCursor: null });
    expect(listed.content[0]!.text).toBe(`- Trip (id ${id}): 2 items`);
  });

  test("a refusal is a tool error in words: another user's item, an order that is not the collection's items", async () => {
    const stranger = await o.makeUser();
    const theirs = await image(stranger);
    const mine = await image(user);
    const created = await callTool(client, "create_collection", { title: "Mine", items: [mine] });
    const id = created.structuredContent!.id as string;
    const refused = await callTool(client, "add_to_collection", { id, items: [theirs] });
    expect(refused.isError).toBe(true);
    expect(refused.content[0]!.text).toContain("NOT_FOUND");
    expect(refused.content[0]!.text).toContain(theirs.id);
    const mismatch = await callTool(client, "reorder_collection", { id, items: [mine, theirs] });
    expect(mismatch.isError).toBe(true);
    expect(mismatch.content[0]!.text).toContain("COLLECTION_ORDER_MISMATCH");
    expect(await apiOrder(id)).toEqual([mine]);
  });
});
