// A KB's documents by path: GET /v1/kbs/:id/tree (one folder's subfolders and documents),
// POST /v1/kbs/:id/read (several documents at once) and POST /v1/kbs/:id/edit (an exact
// find-and-replace written as a sync upsert: one match is applied, none or several are
// refused with nothing changed, a stale base is refused).
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { updateUser } from "../../src/modules/identity/public.ts";
import { call, callJson, testContext } from "../helpers/context.ts";
import { makeClient, makeKey } from "../helpers/factories.ts";
import { expectTenantIsolation } from "../helpers/tenancy.ts";
import { TEST_TIMEOUT_MS } from "../helpers/timeout.ts";
import { newKb, sha256 } from "./fixtures.ts";
import { pushed2, upsert2, walk2 } from "./v2-fixtures.ts";

setDefaultTimeout(TEST_TIMEOUT_MS);

async function seeded(files: Record<string, string>, plan: "trial" | "pro" = "trial") {
  const { user, key } = await makeClient({ plan });
  const kb = await newKb(key);
  await pushed2(
    key,
    kb.id,
    Object.entries(files).map(([p, c]) => upsert2(p, c)),
  );
  return { user, key, kbId: kb.id };
}

const raw = async (key: string, kbId: string, path: string) => {
  const res = await call("GET", `/v1/kbs/${kbId}/raw?path=${encodeURIComponent(path)}`, { token: key });
  return { status: res.status, text: await res.text(), hash: res.headers.get("x-source-hash") };
};

const edit = (key: string, kbId: string, json: Record<string, unknown>) => callJson("POST", `/v1/kbs/${kbId}/edit`, { token: key, json });

describe("GET /v1/kbs/:id/tree", () => {
  test("lists one folder's subfolders (with their counts) and documents by name, letter case ignored", async () => {
    const { key, kbId } = await seeded({
      "readme.md": "# Readme\n",
      "Notes/b.md": "b\n",
      "notes/a.md": "a\n",
      "notes/deep/c.md": "c\n",
      "projects/x.typ": "= X\n",
    });
    const top = await callJson("GET", `/v1/kbs/${kbId}/tree`, { token: key });
    expect(top.status).toBe(200);
    const items = top.body.data.items as { kind: string; name: string; path: string; docCount?: number }[];
    // "Notes" and "notes" are one folder: a path's letter case is not a second folder.
    expect(items.map((i) => [i.kind, i.path])).toEqual([
      ["folder", "Notes"],
      ["folder", "projects"],
      ["document", "readme.md"],
    ]);
    expect(items[0]).toMatchObject({ name: "Notes", docCount: 3 });
    expect(top.body.data).toMatchObject({ prefix: "", nextCursor: null });

    const notes = await callJson("GET", `/v1/kbs/${kbId}/tree?prefix=notes/`, { token: key });
    expect(notes.body.data.prefix).toBe("notes");
    expect(notes.body.data.items).toEqual([
      expect.objectContaining({ kind: "document", name: "a.md", path: "notes/a.md", format: "markdown", sourceHash: sha256("a\n"), sizeBytes: 2 }),
      expect.objectContaining({ kind: "document", name: "b.md", path: "Notes/b.md" }),
      expect.objectContaining({ kind: "folder", name: "deep", docCount: 1 }),
    ]);
    const deep = await callJson("GET", `/v1/kbs/${kbId}/tree?prefix=${encodeURIComponent("NOTES/Deep")}`, { token: key });
    expect(deep.body.data.items.map((i: { path: string }) => i.path)).toEqual(["notes/deep/c.md"]);
  });

  test("pages by name through the one cursor; a folder with nothing under it is 404, a bad prefix 422, a bad cursor 400", async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 7; i++) files[`f/n${i}.md`] = `${i}\n`;
    files["f/sub/x.md"] = "x\n";
    const { key, kbId } = await seeded(files);
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const q = new URLSearchParams({ prefix: "f", limit: "3", ...(cursor && { cursor }) });
      const page = await callJson("GET", `/v1/kbs/${kbId}/tree?${q}`, { token: key });
      expect(page.status).toBe(200);
      expect(page.body.data.items.length).toBeLessThanOrEqual(3);
      seen.push(...page.body.data.items.map((i: { name: string }) => i.name));
      cursor = page.body.data.nextCursor;
    } while (cursor);
    expect(seen).toEqual(["n0.md", "n1.md", "n2.md", "n3.md", "n4.md", "n5.md", "n6.md", "sub"]);

    const none = await callJson("GET", `/v1/kbs/${kbId}/tree?prefix=nowhere`, { token: key });
    expect(none.status).toBe(404);
    expect(none.body).toMatchObject({ code: "NOT_FOUND", meta: { entity: "folder" } });
    const bad = await callJson("GET", `/v1/kbs/${kbId}/tree?prefix=${encodeURIComponent("a/../b")}`, { token: key });
    expect(bad.status).toBe(422);
    expect(bad.body.meta.path).toBe("query.prefix");
    const badCursor = await callJson("GET", `/v1/kbs/${kbId}/tree?cursor=nope`, { token: key });
    expect(badCursor.status).toBe(400);
    expect(badCursor.body.code).toBe("INVALID_CURSOR");
    // An empty KB's top level is an empty listing, not a 404.
    const empty = await newKb(key);
    const listed = await callJson("GET", `/v1/kbs/${empty.id}/tree`, { token: key });
    expect(listed.body.data).toEqual({ prefix: "", items: [], nextCursor: null });
  });

  test("deleted documents are not listed; needs kb.read; another user's KB is 404", async () => {
    const { key, kbId } = await seeded({ "a/keep.md": "k\n", "a/gone.md": "g\n" });
    await pushed2(key, kbId, [{ op: "delete", relativePath: "a/gone.md", baseHash: sha256("g\n") }]);
    const listed = await callJson("GET", `/v1/kbs/${kbId}/tree?prefix=a`, { token: key });
    expect(listed.body.data.items.map((i: { name: string }) => i.name)).toEqual(["keep.md"]);
    await expectTenantIsolation({
      method: "GET",
      path: (id) => `/v1/kbs/${id}/tree`,
      scope: "kb.read",
      create: async (owner) => (await newKb((await makeKey(owner)).key)).id,
    });
  });
});

describe("POST /v1/kbs/:id/read", () => {
  test("reads several documents by path in the order asked; each failure is its own", async () => {
    const { key, kbId } = await seeded({ "a.md": "alpha\n", "dir/B.md": "beta\n" });
    const res = await callJson("POST", `/v1/kbs/${kbId}/read`, { token: key, json: { paths: ["dir/b.md", "missing.md", "a.md", "../x.md"] } });
    expect(res.status).toBe(200);
    expect(res.body.data.docs).toEqual([
      expect.objectContaining({ path: "dir/b.md", relativePath: "dir/B.md", content: "beta\n", sourceHash: sha256("beta\n"), format: "markdown" }),
      expect.objectContaining({ path: "a.md", relativePath: "a.md", content: "alpha\n" }),
    ]);
    // Each with its title, as GET /v1/docs/:id has it.
    const doc = await callJson("GET", `/v1/docs/${res.body.data.docs[0].id}`, { token: key });
    expect(res.body.data.docs[0].title).toBe(doc.body.data.title);
    expect(res.body.data.failed).toEqual([
      { path: "missing.md", reason: "NOT_FOUND", message: expect.any(String) },
      { path: "../x.md", reason: "VALIDATION_ERROR", message: expect.stringContaining("..") },
    ]);
    const tooMany = await callJson("POST", `/v1/kbs/${kbId}/read`, { token: key, json: { paths: Array.from({ length: 51 }, (_, i) => `${i}.md`) } });
    expect(tooMany.status).toBe(422);
    const none = await callJson("POST", `/v1/kbs/${kbId}/read`, { token: key, json: { paths: [] } });
    expect(none.status).toBe(422);
  });

  test("needs kb.read; another user's KB is 404", async () => {
    await expectTenantIsolation({
      method: "POST",
      path: (id) => `/v1/kbs/${id}/read`,
      scope: "kb.read",
      create: async (owner) => (await newKb((await makeKey(owner)).key)).id,
      request: () => ({ json: { paths: ["a.md"] } }),
    });
  });
});

describe("POST /v1/kbs/:id/edit", () => {
  test("replaces the one occurrence; the answer and the stored text agree, with a revision and a sync client's view", async () => {
    const text = "# Plan\n\nBuy milk.\nCall Ann.\n";
    const { user, key, kbId } = await seeded({ "todo/plan.md": text });
    expect((await callJson("PATCH", "/v1/user/me", { token: user.jwt, json: { docVersioningEnabled: true } })).status).toBe(200);
    const before = await raw(key, kbId, "todo/plan.md");
    const res = await edit(key, kbId, { path: "todo/plan.md", oldText: "Buy milk.", newText: "Buy oat milk." });
    expect(res.status).toBe(200);
    const after = "# Plan\n\nBuy oat milk.\nCall Ann.\n";
    expect(res.body.data).toMatchObject({
      relativePath: "todo/plan.md",
      change: "updated",
      sourceHash: sha256(after),
      previousHash: sha256(text),
      sizeBytes: after.length,
    });
    expect((await raw(key, kbId, "todo/plan.md")).text).toBe(after);
    expect(before.hash).toBe(sha256(text));
    // Written as a sync upsert: a revision of the old text, and the manifest's new hash.
    const revs = await callJson("GET", `/v1/docs/${res.body.data.id}/revisions`, { token: key });
    expect(revs.body.data.revisions.map((r: { sourceHash: string; origin: string }) => [r.origin, r.sourceHash])).toEqual([["sync", sha256(text)]]);
    const { items } = await walk2(key, kbId);
    expect(items.find((i) => i.relativePath === "todo/plan.md")!.sourceHash).toBe(sha256(after));

    // With the base it was made on, and removing text; the same text again is unchanged.
    const again = await edit(key, kbId, { path: "todo/plan.md", oldText: "\nCall Ann.", newText: "", baseHash: sha256(after) });
    expect(again.body.data).toMatchObject({ change: "updated", sourceHash: sha256("# Plan\n\nBuy oat milk.\n") });
    const same = await edit(key, kbId, { path: "TODO/Plan.md", oldText: "oat", newText: "oat" });
    expect(same.body.data).toMatchObject({ change: "unchanged", relativePath: "todo/plan.md" });
  });

  test("oldText that occurs nowhere or more than once is 409 CONFLICT naming the count, and nothing changes", async () => {
    const text = "one fish\ntwo fish\nred fish\nblue fish\n";
    const { key, kbId } = await seeded({ "fish.md": text });
    const none = await edit(key, kbId, { path: "fish.md", oldText: "green fish", newText: "x" });
    expect(none.status).toBe(409);
    expect(none.body).toMatchObject({ code: "CONFLICT", meta: { reason: "no_match", count: 0, currentHash: sha256(text) } });
    const several = await edit(key, kbId, { path: "fish.md", oldText: "fish", newText: "cat" });
    expect(several.status).toBe(409);
    expect(several.body).toMatchObject({ code: "CONFLICT", meta: { reason: "several_matches", count: 4, lines: [1, 2, 3, 4] } });
    expect(several.body.error).toContain("4 times");
    // Overlapping occurrences count: either could be the one meant.
    const overlapping = await seeded({ "a.md": "aaa\n" });
    const twice = await edit(overlapping.key, overlapping.kbId, { path: "a.md", oldText: "aa", newText: "b" });
    expect(twice.body.meta).toMatchObject({ reason: "several_matches", count: 2 });
    // Letter case and whitespace are matched exactly.
    const cased = await edit(key, kbId, { path: "fish.md", oldText: "ONE fish", newText: "x" });
    expect(cased.body.meta.reason).toBe("no_match");
    expect((await raw(key, kbId, "fish.md")).text).toBe(text);
  });

  test("a stale baseHash is 409 stale_base and changes nothing", async () => {
    const { key, kbId } = await seeded({ "n.md": "v1 text\n" });
    await pushed2(key, kbId, [upsert2("n.md", "v2 text\n", { baseHash: sha256("v1 text\n") })]);
    const stale = await edit(key, kbId, { path: "n.md", oldText: "text", newText: "words", baseHash: sha256("v1 text\n") });
    expect(stale.status).toBe(409);
    expect(stale.body).toMatchObject({ code: "CONFLICT", meta: { reason: "stale_base", currentHash: sha256("v2 text\n") } });
    expect((await raw(key, kbId, "n.md")).text).toBe("v2 text\n");
  });

  test("bad input gets its documented code: 404 for no document, 422 for a bad path, an empty oldText or NUL, the plan's size limit", async () => {
    const { key, kbId } = await seeded({ "n.md": "hello\n" });
    const missing = await edit(key, kbId, { path: "other.md", oldText: "a", newText: "b" });
    expect(missing.status).toBe(404);
    expect(missing.body.code).toBe("NOT_FOUND");
    const badPath = await edit(key, kbId, { path: "/abs.md", oldText: "a", newText: "b" });
    expect(badPath.status).toBe(422);
    expect(badPath.body.meta.path).toBe("body.path");
    const emptyOld = await edit(key, kbId, { path: "n.md", oldText: "", newText: "b" });
    expect(emptyOld.status).toBe(422);
    const nul = await edit(key, kbId, { path: "n.md", oldText: "hello", newText: "a\u0000b" });
    expect(nul.status).toBe(422);
    expect(nul.body.meta.path).toBe("body.newText");
    // A body over 1 MiB, as any JSON body: a change that large is a whole-document write.
    const huge = await edit(key, kbId, { path: "n.md", oldText: "hello", newText: "x".repeat(1024 * 1024 + 1) });
    expect(huge.status).toBe(413);
    expect(huge.body.code).toBe("FILE_TOO_LARGE");
    expect((await raw(key, kbId, "n.md")).text).toBe("hello\n");
    // A result over the trial plan's 1 MB per document: the sync path's own refusal.
    const filler = "y".repeat(1024 * 1024 - 100);
    await pushed2(key, kbId, [upsert2("big.md", `${filler}\nhello\n`)]);
    const grown = await edit(key, kbId, { path: "big.md", oldText: "hello", newText: "z".repeat(200) });
    expect(grown.status).toBe(422);
    expect(grown.body.code).toBe("DOC_FILE_TOO_LARGE");
    expect((await raw(key, kbId, "big.md")).text).toBe(`${filler}\nhello\n`);
  });

  test("needs kb.write and an active plan; another user's KB is 404", async () => {
    await expectTenantIsolation({
      method: "POST",
      path: (id) => `/v1/kbs/${id}/edit`,
      scope: "kb.write",
      create: async (owner) => (await newKb((await makeKey(owner)).key)).id,
      request: () => ({ json: { path: "a.md", oldText: "a", newText: "b" } }),
    });
    const { deps } = await testContext();
    const { user: lapsed, key } = await makeClient();
    const kb = await newKb(key);
    await pushed2(key, kb.id, [upsert2("a.md", "abc\n")]);
    await updateUser(deps.db, lapsed.id, { planExpiresAt: new Date(deps.clock.nowMs() - 1000) }, deps.clock.now());
    const refused = await edit(key, kb.id, { path: "a.md", oldText: "b", newText: "x" });
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe("PLAN_INACTIVE");
  });
});
