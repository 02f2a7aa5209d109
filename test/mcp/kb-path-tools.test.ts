// The tools for working in a knowledge base by path, through the SDK's client against the
// API's own state: list_folder, read_documents, edit_document (one match applied; none or
// several refused with nothing changed), move_document, delete_document, read_attachment
// (an image as image content), search_documents' pages; and each tool's annotations.
import { beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { TestUser } from "../helpers/factories.ts";
import { TEST_TIMEOUT_MS } from "../helpers/timeout.ts";
import { PNG, putFile, upsertFile } from "../kbs/file-fixtures.ts";
import { pushed2 } from "../kbs/v2-fixtures.ts";
import { oauthApp } from "../oauth/flow.ts";
import { ALL_SCOPES, connect, deviceTokens } from "./helpers.ts";

setDefaultTimeout(TEST_TIMEOUT_MS);

const o = await oauthApp();
const sha256 = (s: string) => new Bun.CryptoHasher("sha256").update(s).digest("hex");
const sha256Bytes = (b: Uint8Array) => new Bun.CryptoHasher("sha256").update(b).digest("hex");

type Structured = Record<string, any>;
type Content = { type: "text"; text: string } | { type: "image"; data: string; mimeType: string };
async function callTool(client: Client, name: string, args: Record<string, unknown>) {
  const res = await client.callTool({ name, arguments: args });
  return res as { isError?: boolean; content: Content[]; structuredContent?: Structured };
}
const textOf = (res: { content: Content[] }) => (res.content[0] as { text: string }).text;

let user: TestUser;
let client: Client;

/** A KB of the test user with these documents, written through write_document. */
async function kbWith(files: Record<string, string>): Promise<string> {
  const kb = await o.call("POST", "/v1/kbs", { app: o.app, token: user.jwt, json: { name: `KB ${crypto.randomUUID().slice(0, 8)}` } });
  expect(kb.status).toBe(201);
  const kbId = ((await kb.json()) as { data: { id: string } }).data.id;
  for (const [path, content] of Object.entries(files)) {
    const written = await callTool(client, "write_document", { kbId, path, content });
    expect(written.isError).toBeFalsy();
  }
  return kbId;
}

async function rawText(kbId: string, path: string): Promise<{ status: number; text: string }> {
  const res = await o.call("GET", `/v1/kbs/${kbId}/raw?path=${encodeURIComponent(path)}`, { app: o.app, token: user.jwt });
  return { status: res.status, text: await res.text() };
}

beforeAll(async () => {
  // A KB per test: more than a trial plan's five.
  user = await o.makeUser({ plan: "pro" });
  client = await connect(o, (await deviceTokens(o, user, { scope: ALL_SCOPES })).access_token);
});

describe("MCP tools for a KB's paths", () => {
  test("each tool says whether it is read-only, destructive and idempotent", async () => {
    const { tools } = await client.listTools();
    const hints = Object.fromEntries(
      tools.map((t) => [t.name, [t.annotations?.readOnlyHint, t.annotations?.destructiveHint, t.annotations?.idempotentHint ?? false]]),
    );
    const reading = [true, false, true];
    expect(hints).toEqual({
      list_knowledge_bases: reading,
      search_documents: reading,
      read_document: reading,
      list_folder: reading,
      read_documents: reading,
      read_attachment: reading,
      list_media: reading,
      get_usage: reading,
      write_document: [false, true, true],
      edit_document: [false, true, false],
      move_document: [false, true, true],
      delete_document: [false, true, true],
      upload_image: [false, false, false],
      list_collections: reading,
      read_collection: reading,
      create_collection: [false, false, false],
      add_to_collection: [false, false, true],
      remove_from_collection: [false, true, true],
      reorder_collection: [false, true, true],
    });
  });

  test("list_folder: a folder's subfolders and documents with their hashes; an unknown folder is a tool error", async () => {
    const kbId = await kbWith({ "index.md": "# Index\n", "notes/a.md": "a\n", "notes/deep/b.md": "b\n" });
    const top = await callTool(client, "list_folder", { kbId });
    expect(top.isError).toBeFalsy();
    expect(top.structuredContent).toEqual({
      path: "",
      nextCursor: null,
      items: [
        expect.objectContaining({ kind: "document", path: "index.md", sourceHash: sha256("# Index\n"), format: "markdown" }),
        expect.objectContaining({ kind: "folder", path: "notes", docCount: 2 }),
      ],
    });
    expect(textOf(top)).toContain("- notes/ (folder, 2 documents)");
    const notes = await callTool(client, "list_folder", { kbId, path: "notes" });
    expect(notes.structuredContent!.items.map((i: { path: string }) => i.path)).toEqual(["notes/a.md", "notes/deep"]);
    const none = await callTool(client, "list_folder", { kbId, path: "nowhere" });
    expect(none.isError).toBe(true);
    expect(textOf(none)).toContain("NOT_FOUND");
  });

  test("read_documents: several at once in the order asked, each failure its own", async () => {
    const kbId = await kbWith({ "a.md": "alpha\n", "b.md": "beta\n" });
    const read = await callTool(client, "read_documents", { kbId, paths: ["b.md", "gone.md", "a.md"] });
    expect(read.isError).toBeFalsy();
    expect(read.structuredContent!.docs.map((d: { relativePath: string; content: string }) => [d.relativePath, d.content])).toEqual([
      ["b.md", "beta\n"],
      ["a.md", "alpha\n"],
    ]);
    expect(read.structuredContent!.failed).toEqual([{ path: "gone.md", reason: "NOT_FOUND", message: expect.any(String) }]);
    expect(textOf(read)).toContain(`=== b.md (sourceHash ${sha256("beta\n")}) ===\nbeta\n`);
    const tooMany = await callTool(client, "read_documents", { kbId, paths: Array.from({ length: 51 }, (_, i) => `${i}.md`) });
    expect(tooMany.isError).toBe(true);
    expect(textOf(tooMany)).toContain("invalid arguments for read_documents: paths");
  });

  test("edit_document: the one match is replaced; none or several are refused in words and nothing changes; a stale base is refused", async () => {
    const text = "# Shopping\n\n- milk\n- bread\n- milk chocolate\n";
    const kbId = await kbWith({ "list.md": text });
    const several = await callTool(client, "edit_document", { kbId, path: "list.md", oldText: "milk", newText: "oat milk" });
    expect(several.isError).toBe(true);
    expect(textOf(several)).toContain("occurs 2 times");
    expect(textOf(several)).toContain("CONFLICT");
    const none = await callTool(client, "edit_document", { kbId, path: "list.md", oldText: "- eggs", newText: "- two eggs" });
    expect(none.isError).toBe(true);
    expect(textOf(none)).toContain("does not occur");
    expect((await rawText(kbId, "list.md")).text).toBe(text);

    const edited = await callTool(client, "edit_document", { kbId, path: "list.md", oldText: "- milk\n", newText: "- oat milk\n", baseHash: sha256(text) });
    expect(edited.isError).toBeFalsy();
    const after = "# Shopping\n\n- oat milk\n- bread\n- milk chocolate\n";
    expect(edited.structuredContent).toMatchObject({ status: "updated", relativePath: "list.md", sourceHash: sha256(after), previousHash: sha256(text) });
    expect((await rawText(kbId, "list.md")).text).toBe(after);

    const stale = await callTool(client, "edit_document", { kbId, path: "list.md", oldText: "bread", newText: "rye bread", baseHash: sha256(text) });
    expect(stale.isError).toBe(true);
    expect(textOf(stale)).toContain("changed since the version you read");
    expect((await rawText(kbId, "list.md")).text).toBe(after);
    const missing = await callTool(client, "edit_document", { kbId, path: "nothing.md", oldText: "a", newText: "b" });
    expect(textOf(missing)).toContain("NOT_FOUND");
  });

  test("move_document: renames and moves keeping the id; a taken path, a stale base or a missing source is refused in words", async () => {
    const kbId = await kbWith({ "draft.md": "draft\n", "taken.md": "taken\n" });
    const id = (await callTool(client, "read_document", { kbId, path: "draft.md" })).structuredContent!.id;
    const taken = await callTool(client, "move_document", { kbId, fromPath: "draft.md", toPath: "taken.md", baseHash: sha256("draft\n") });
    expect(taken.isError).toBe(true);
    expect(textOf(taken)).toContain("taken.md is taken by another document");
    const stale = await callTool(client, "move_document", { kbId, fromPath: "draft.md", toPath: "final.md", baseHash: sha256("older\n") });
    expect(stale.isError).toBe(true);
    expect(textOf(stale)).toContain("changed since the version you read");

    const moved = await callTool(client, "move_document", { kbId, fromPath: "draft.md", toPath: "done/final.md", baseHash: sha256("draft\n") });
    expect(moved.isError).toBeFalsy();
    expect(moved.structuredContent).toMatchObject({ id, fromPath: "draft.md", relativePath: "done/final.md", sourceHash: sha256("draft\n") });
    expect((await rawText(kbId, "done/final.md")).text).toBe("draft\n");
    expect((await rawText(kbId, "draft.md")).status).toBe(404);
    const again = await callTool(client, "move_document", { kbId, fromPath: "draft.md", toPath: "done/final.md", baseHash: sha256("draft\n") });
    expect(again.isError).toBe(true);
    expect(textOf(again)).toContain("there is no document at draft.md");
  });

  test("delete_document: deletes with the base read; a stale base or a missing document is refused", async () => {
    const kbId = await kbWith({ "old.md": "old\n" });
    const stale = await callTool(client, "delete_document", { kbId, path: "old.md", baseHash: sha256("something else\n") });
    expect(stale.isError).toBe(true);
    expect(textOf(stale)).toContain("changed since the version you read");
    expect((await rawText(kbId, "old.md")).status).toBe(200);
    const deleted = await callTool(client, "delete_document", { kbId, path: "old.md", baseHash: sha256("old\n") });
    expect(deleted.isError).toBeFalsy();
    expect(deleted.structuredContent).toMatchObject({ relativePath: "old.md" });
    expect((await rawText(kbId, "old.md")).status).toBe(404);
    const again = await callTool(client, "delete_document", { kbId, path: "old.md", baseHash: sha256("old\n") });
    expect(again.isError).toBe(true);
    expect(textOf(again)).toContain("Nothing changed");
    const noBase = await callTool(client, "delete_document", { kbId, path: "old.md" });
    expect(textOf(noBase)).toContain("invalid arguments for delete_document: baseHash");
  });

  test("read_attachment: a document's text is answered as text, with its type, size and hash; a missing path is a tool error", async () => {
    const kbId = await kbWith({ "notes/readme.md": "# Read me\n" });
    const read = await callTool(client, "read_attachment", { kbId, path: "notes/readme.md" });
    expect(read.isError).toBeFalsy();
    expect(read.structuredContent).toEqual({
      path: "notes/readme.md",
      contentType: "text/markdown",
      sizeBytes: 10,
      sourceHash: sha256("# Read me\n"),
      shown: "text",
    });
    expect(read.content).toEqual([{ type: "text", text: "# Read me\n" }]);
    const missing = await callTool(client, "read_attachment", { kbId, path: "notes/none.png" });
    expect(missing.isError).toBe(true);
    expect(textOf(missing)).toContain("NOT_FOUND");
  });

  /** KB files (attachments) at these paths: their bytes PUT by hash, then linked by a sync upsert of kind file. */
  async function withFiles(kbId: string, files: Record<string, Uint8Array>) {
    for (const [path, bytes] of Object.entries(files)) {
      const put = await putFile(user.jwt, kbId, bytes, { app: o.app, name: path });
      expect([200, 201]).toContain(put.status);
      await pushed2(user.jwt, kbId, [upsertFile(path, bytes)], { app: o.app });
    }
  }

  test("read_attachment: a PNG is image content, JSON is text, other bytes and an image past 5 MiB are described; list_folder shows files; a file moves and is deleted as a document is", async () => {
    const kbId = await kbWith({ "notes/index.md": "# Index\n" });
    const json = new TextEncoder().encode('{"a": 1}\n');
    const binary = Uint8Array.from({ length: 64 }, (_, i) => (i * 37 + 11) % 256);
    // A PNG's signature and then 6 MiB: an image by its bytes, too large to be sent as one.
    const big = new Uint8Array(6 * 1024 * 1024);
    big.set(PNG);
    await withFiles(kbId, { "notes/pic.png": PNG, "notes/data.json": json, "notes/blob.bin": binary, "notes/huge.png": big });

    const pic = await callTool(client, "read_attachment", { kbId, path: "notes/pic.png" });
    expect(pic.isError).toBeFalsy();
    expect(pic.content).toEqual([
      { type: "text", text: `notes/pic.png: image/png, ${PNG.length} bytes` },
      { type: "image", mimeType: "image/png", data: Buffer.from(PNG).toString("base64") },
    ]);
    expect(pic.structuredContent).toEqual({
      path: "notes/pic.png",
      contentType: "image/png",
      sizeBytes: PNG.length,
      sourceHash: sha256Bytes(PNG),
      shown: "image",
    });

    const data = await callTool(client, "read_attachment", { kbId, path: "notes/data.json" });
    expect(data.structuredContent).toMatchObject({ contentType: "application/json", shown: "text" });
    expect(data.content).toEqual([{ type: "text", text: '{"a": 1}\n' }]);

    const blob = await callTool(client, "read_attachment", { kbId, path: "notes/blob.bin" });
    expect(blob.structuredContent).toMatchObject({ contentType: "application/octet-stream", sizeBytes: 64, shown: "described" });
    expect(textOf(blob)).toBe("notes/blob.bin: application/octet-stream, 64 bytes (its bytes are not shown here).");

    const huge = await callTool(client, "read_attachment", { kbId, path: "notes/huge.png" });
    expect(huge.structuredContent).toMatchObject({ contentType: "image/png", sizeBytes: big.length, shown: "described" });
    expect(huge.content).toEqual([{ type: "text", text: `notes/huge.png: image/png, ${big.length} bytes (an image over 5 MiB is not sent).` }]);

    const listed = await callTool(client, "list_folder", { kbId, path: "notes" });
    expect(listed.structuredContent!.items).toContainEqual(expect.objectContaining({ kind: "file", path: "notes/pic.png", sourceHash: sha256Bytes(PNG) }));
    expect(textOf(listed)).toContain("- notes/pic.png (file: read_attachment reads it");
    const top = await callTool(client, "list_folder", { kbId });
    expect(textOf(top)).toContain("- notes/ (folder, 1 document, 4 files)");
    // An attachment has no text to read or edit.
    const asText = await callTool(client, "read_documents", { kbId, paths: ["notes/pic.png"] });
    expect(asText.structuredContent!.failed).toEqual([{ path: "notes/pic.png", reason: "NOT_FOUND", message: expect.stringContaining("file") }]);
    const edited = await callTool(client, "edit_document", { kbId, path: "notes/data.json", oldText: "1", newText: "2" });
    expect(textOf(edited)).toContain("NOT_FOUND");

    const moved = await callTool(client, "move_document", { kbId, fromPath: "notes/pic.png", toPath: "images/pic.png", baseHash: sha256Bytes(PNG) });
    expect(moved.isError).toBeFalsy();
    expect((await callTool(client, "read_attachment", { kbId, path: "images/pic.png" })).structuredContent!.shown).toBe("image");
    const deleted = await callTool(client, "delete_document", { kbId, path: "images/pic.png", baseHash: sha256Bytes(PNG) });
    expect(deleted.isError).toBeFalsy();
    expect(textOf(await callTool(client, "read_attachment", { kbId, path: "images/pic.png" }))).toContain("NOT_FOUND");
  });

  test("search_documents pages with nextCursor", async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 5; i++) files[`w${i}.md`] = `wombat ${i}\n`;
    const kbId = await kbWith(files);
    const first = await callTool(client, "search_documents", { query: "wombat", kbId, limit: 3 });
    expect(first.structuredContent!.items).toHaveLength(3);
    expect(textOf(first)).toContain("(more: pass nextCursor)");
    const second = await callTool(client, "search_documents", { query: "wombat", kbId, limit: 3, cursor: first.structuredContent!.nextCursor });
    expect(second.structuredContent!.items).toHaveLength(2);
    expect(second.structuredContent!.nextCursor).toBeNull();
    const paths = [...first.structuredContent!.items, ...second.structuredContent!.items].map((i: { relativePath: string }) => i.relativePath);
    expect(new Set(paths)).toEqual(new Set(Object.keys(files)));
  });

  test("a token without kb.write cannot edit, move or delete: refused naming the scope (a step-up), nothing changes", async () => {
    const kbId = await kbWith({ "ro.md": "read only\n" });
    const reader = await connect(o, (await deviceTokens(o, user, { scope: "kb.read" })).access_token);
    const base = sha256("read only\n");
    for (const [name, args] of [
      ["edit_document", { kbId, path: "ro.md", oldText: "read", newText: "write" }],
      ["move_document", { kbId, fromPath: "ro.md", toPath: "rw.md", baseHash: base }],
      ["delete_document", { kbId, path: "ro.md", baseHash: base }],
    ] as const) {
      await expect(callTool(reader, name, args)).rejects.toThrow(/insufficient|kb\.write/);
    }
    expect((await callTool(reader, "list_folder", { kbId })).isError).toBeFalsy();
    expect((await rawText(kbId, "ro.md")).text).toBe("read only\n");
    await reader.close();
  });
});
