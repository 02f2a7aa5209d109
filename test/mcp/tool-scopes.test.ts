// A tool's scope is the scope of the routes it calls, not a table of its own: each tool is
// run against the API, every request it makes is looked up in the OpenAPI document, and
// the scopes those routes require must be exactly the one the tool declares (what the
// hosted server checks a token against before a call, and what tools/list shows).
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { ShelfClient } from "../../src/modules/mcp/client.ts";
import { TOOLS } from "../../src/modules/mcp/tools.ts";
import { call, callJson, testContext } from "../helpers/context.ts";
import { makeKey, makeUser } from "../helpers/factories.ts";
import { type Json, operations } from "../security/no-500-sweep.ts";
import { png, uploadForm as imageForm } from "../images/fixtures.ts";
import { newKb } from "../kbs/fixtures.ts";
import { TEST_TIMEOUT_MS } from "../helpers/timeout.ts";

setDefaultTimeout(TEST_TIMEOUT_MS);

/** The document's operation a request is, by its method and a path that fills the template. */
function operationOf(method: string, pathname: string): Json | undefined {
  return operations.find((o) => o.method === method && new RegExp(`^${o.path.replace(/\{\w+\}/g, "[^/]+")}$`).test(pathname))?.op;
}

describe("every MCP tool declares the scope its routes require", () => {
  test("each tool, run against the API, calls only routes of exactly its scope", async () => {
    const { app } = await testContext();
    const user = await makeUser({ plan: "pro" });
    const { key } = await makeKey(user, ["media.read", "media.write", "media.delete", "kb.read", "kb.write", "account.read", "usage.read"]);
    const kb = await newKb(key);
    const image = Buffer.from(await png(8, 8)).toString("base64");
    const picture = { kind: "image", id: (await callJson("POST", "/v1/images", { token: key, body: imageForm(await png(8, 8)) })).body.data.id as string };
    const newCollection = async () =>
      (await callJson("POST", "/v1/collections", { token: key, json: { title: "Scoped", items: [picture] } })).body.data as { id: string };
    // One to reorder after another has been emptied.
    const [collection, emptied] = [await newCollection(), await newCollection()];
    const written = "# Scopes\n\nwho may do what\n";
    const edited = "# Scopes\n\nwho can do what\n";
    const sha256 = (s: string) => new Bun.CryptoHasher("sha256").update(s).digest("hex");
    const args: Record<string, Record<string, unknown>> = {
      list_knowledge_bases: {},
      search_documents: { query: "scopes" },
      read_document: { kbId: kb.id, path: "scopes.md" },
      write_document: { kbId: kb.id, path: "scopes.md", content: written },
      list_folder: { kbId: kb.id },
      read_documents: { kbId: kb.id, paths: ["scopes.md"] },
      edit_document: { kbId: kb.id, path: "scopes.md", oldText: "may", newText: "can" },
      move_document: { kbId: kb.id, fromPath: "scopes.md", toPath: "moved/scopes.md", baseHash: sha256(edited) },
      read_attachment: { kbId: kb.id, path: "moved/scopes.md" },
      delete_document: { kbId: kb.id, path: "moved/scopes.md", baseHash: sha256(edited) },
      list_media: {},
      upload_image: { data: image, filename: "s.png" },
      get_usage: {},
      list_collections: {},
      read_collection: { id: collection.id },
      create_collection: { title: "Scopes" },
      add_to_collection: { id: collection.id, items: [picture] },
      remove_from_collection: { id: emptied.id, items: [picture] },
      reorder_collection: { id: collection.id, items: [picture] },
    };
    // Written first, so that reading, searching, editing and moving find it; deleted last.
    const order = ["write_document", ...TOOLS.map((t) => t.name).filter((n) => n !== "write_document" && n !== "delete_document"), "delete_document"];
    const faults: string[] = [];
    for (const name of order) {
      const tool = TOOLS.find((t) => t.name === name)!;
      expect(args[name], `sample arguments for ${name}`).toBeDefined();
      const seen: string[] = [];
      const client = new ShelfClient(
        "http://shelf.test",
        async (request) => {
          seen.push(`${request.method} ${new URL(request.url).pathname}`);
          return app.handle(request);
        },
        () => `Bearer ${key}`,
      );
      await tool.run({ client, fetchImage: async () => ({ bytes: new Uint8Array(0), contentType: null }) }, args[name] as never);
      const scopes = new Set<string>();
      for (const s of seen) {
        const [method, path] = s.split(" ") as [string, string];
        const op = operationOf(method, path);
        if (!op) faults.push(`${name}: ${s} is no documented operation`);
        else scopes.add(op["x-required-scope"] ?? "(none)");
      }
      expect(seen.length, `${name} made no request`).toBeGreaterThan(0);
      if (scopes.size !== 1 || !scopes.has(tool.scope)) faults.push(`${name} declares ${tool.scope}; its routes need ${[...scopes].join(", ")}`);
    }
    expect(faults).toEqual([]);
    // The check has teeth: the document says which scope a route needs.
    expect(operationOf("POST", `/v1/kbs/${kb.id}/sync`)?.["x-required-scope"]).toBe("kb.write");
    expect((await call("GET", "/v1/kbs", { token: key })).status).toBe(200);
  });
});
