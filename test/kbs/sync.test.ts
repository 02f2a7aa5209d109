// POST /v1/kbs/:id/sync, protocol v1: every row of the conflict table, the
// hash check, batch sizes and the request's shape (an op's values, the path rule among
// them: sync-op-values.test.ts), NFC, letter case, limits per op, history, counters.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { call, callJson, testContext } from "../helpers/context.ts";
import { makeClient, makeKey, type TestUser } from "../helpers/factories.ts";
import { expectTenantIsolation } from "../helpers/tenancy.ts";
import { updateUser } from "../../src/modules/identity/public.ts";
import { del, fullManifest, newKb, pushed, sha256, sync, upsert } from "./fixtures.ts";
import { TEST_TIMEOUT_MS } from "../helpers/timeout.ts";

setDefaultTimeout(TEST_TIMEOUT_MS);

const usage = async (user: TestUser) => (await callJson("GET", "/v1/user/me/usage", { token: (await makeKey(user, ["usage.read"])).key })).body.data;
const kbOf = async (token: string, id: string) => (await callJson("GET", `/v1/kbs/${id}`, { token })).body.data;
/** An instant `ms` from an ISO time, as ISO. */
const shift = (at: string, ms: number) => new Date(Date.parse(at) + ms).toISOString();

/** A KB with an active document at a.md and a soft-deleted one at gone.md; their times. */
async function seeded() {
  const { user, key } = await makeClient();
  const kb = await newKb(key);
  const first = await pushed(key, kb.id, [upsert("a.md", "a v1"), upsert("gone.md", "gone")]);
  const active = first.applied[0]!;
  const removed = await pushed(key, kb.id, [del("gone.md", first.applied[1]!.updatedAt)]);
  const deletedAt = removed.applied[0]!.updatedAt;
  return { user, key, kbId: kb.id, active, deletedAt };
}

describe("the v1 conflict table", () => {
  test("no record + upsert (any base): applied, a new document", async () => {
    const { key } = await makeClient();
    const kb = await newKb(key);
    const r = await pushed(key, kb.id, [upsert("new.md", "# New\n"), upsert("based.md", "based", "2020-01-01T00:00:00.000Z")]);
    expect(r.conflicts).toEqual([]);
    expect(r.applied.map((a) => [a.op, a.relativePath, a.sourceHash])).toEqual([
      ["upsert", "new.md", sha256("# New\n")],
      ["upsert", "based.md", sha256("based")],
    ]);
    const doc = (await callJson("GET", `/v1/docs/${r.applied[0]!.id}`, { token: key })).body.data;
    expect(doc).toMatchObject({ kbId: kb.id, relativePath: "new.md", title: "New", format: "markdown", updatedAt: r.applied[0]!.updatedAt });
    expect(r.serverTime >= r.applied[1]!.updatedAt).toBe(true);
  });

  test("no record + delete: skipped", async () => {
    const { key } = await makeClient();
    const kb = await newKb(key);
    const r = await pushed(key, kb.id, [del("none.md"), del("none2.md", "2020-01-01T00:00:00.000Z")]);
    expect(r.applied).toEqual([]);
    expect(r.skipped.map((s) => [s.op, s.relativePath, s.reason])).toEqual([
      ["delete", "none.md", "NOT_FOUND"],
      ["delete", "none2.md", "NOT_FOUND"],
    ]);
  });

  test("soft-deleted + upsert without a base: applied (recreated, same id)", async () => {
    const { key, kbId } = await seeded();
    const before = (await fullManifest(key, kbId)).items.find((i) => i.relativePath === "gone.md")!;
    expect(before).toMatchObject({ sourceHash: null, sizeBytes: null, updatedAt: null });
    const r = await pushed(key, kbId, [upsert("gone.md", "back")]);
    expect(r.applied).toHaveLength(1);
    expect((await fullManifest(key, kbId)).items.find((i) => i.relativePath === "gone.md")).toMatchObject({ sourceHash: sha256("back"), deletedAt: null });
  });

  test("soft-deleted + upsert with a base before deletedAt: conflict REMOTE_DELETED with the remote state", async () => {
    const { key, kbId, deletedAt } = await seeded();
    const r = await pushed(key, kbId, [upsert("gone.md", "edited before the delete", shift(deletedAt, -1))]);
    expect(r.applied).toEqual([]);
    expect(r.conflicts).toEqual([
      {
        opIndex: 0,
        op: "upsert",
        relativePath: "gone.md",
        reason: "REMOTE_DELETED",
        remote: { sourceHash: null, sizeBytes: null, updatedAt: null, deletedAt, relativePath: "gone.md" },
      },
    ]);
  });

  test("soft-deleted + upsert with a base at or after deletedAt: applied", async () => {
    const { key, kbId, deletedAt } = await seeded();
    const r = await pushed(key, kbId, [upsert("gone.md", "recreated", deletedAt)]);
    expect(r.applied.map((a) => a.relativePath)).toEqual(["gone.md"]);
    const again = await seeded();
    expect((await pushed(again.key, again.kbId, [upsert("gone.md", "later", shift(again.deletedAt, 1000))])).applied).toHaveLength(1);
  });

  test("soft-deleted + delete (any base): skipped", async () => {
    const { key, kbId, deletedAt } = await seeded();
    const r = await pushed(key, kbId, [del("gone.md"), del("gone.md", deletedAt)]);
    expect(r.skipped.map((s) => s.reason)).toEqual(["ALREADY_DELETED", "ALREADY_DELETED"]);
    expect(r.applied).toEqual([]);
  });

  test("active + upsert without a base: conflict BASE_MISSING, even for the same text", async () => {
    const { key, kbId, active } = await seeded();
    const r = await pushed(key, kbId, [upsert("a.md", "other text"), upsert("a.md", "a v1")]);
    expect(r.conflicts.map((c) => c.reason)).toEqual(["BASE_MISSING", "BASE_MISSING"]);
    expect(r.conflicts[0]!.remote).toEqual({ sourceHash: sha256("a v1"), sizeBytes: 4, updatedAt: active.updatedAt, deletedAt: null, relativePath: "a.md" });
  });

  test("active + upsert with a base before updatedAt: conflict REMOTE_NEWER, the text untouched", async () => {
    const { key, kbId, active } = await seeded();
    const r = await pushed(key, kbId, [upsert("a.md", "stale edit", shift(active.updatedAt, -1))]);
    expect(r.conflicts).toMatchObject([{ reason: "REMOTE_NEWER", remote: { sourceHash: sha256("a v1"), updatedAt: active.updatedAt } }]);
    const raw = await fetchRaw(key, kbId, "a.md");
    expect(await raw.text()).toBe("a v1");
  });

  test("active + upsert with a base at or after updatedAt: applied, same id, new updatedAt", async () => {
    const { key, kbId, active } = await seeded();
    const r = await pushed(key, kbId, [upsert("a.md", "a v2", active.updatedAt)]);
    expect(r.applied).toMatchObject([{ op: "upsert", relativePath: "a.md", id: active.id, sourceHash: sha256("a v2") }]);
    expect(r.applied[0]!.updatedAt > active.updatedAt).toBe(true);
    const later = await pushed(key, kbId, [upsert("a.md", "a v3", shift(r.applied[0]!.updatedAt, 60_000))]);
    expect(later.applied).toHaveLength(1);
    // The same text with a current base changes nothing and keeps the version.
    const same = await pushed(key, kbId, [upsert("a.md", "a v3", later.applied[0]!.updatedAt)]);
    expect(same.applied).toMatchObject([{ updatedAt: later.applied[0]!.updatedAt, sourceHash: sha256("a v3") }]);
  });

  test("active + delete without a base: conflict BASE_MISSING", async () => {
    const { key, kbId } = await seeded();
    expect((await pushed(key, kbId, [del("a.md")])).conflicts.map((c) => c.reason)).toEqual(["BASE_MISSING"]);
  });

  test("active + delete with a base before updatedAt: conflict REMOTE_NEWER; after it too (only the version seen may be deleted)", async () => {
    const { key, kbId, active } = await seeded();
    const r = await pushed(key, kbId, [del("a.md", shift(active.updatedAt, -1)), del("a.md", shift(active.updatedAt, 1))]);
    expect(r.conflicts.map((c) => c.reason)).toEqual(["REMOTE_NEWER", "REMOTE_NEWER"]);
    expect((await fetchRaw(key, kbId, "a.md")).status).toBe(200);
  });

  test("active + delete with a base equal to updatedAt: applied (soft delete, reported by the manifest)", async () => {
    const { key, kbId, active } = await seeded();
    const r = await pushed(key, kbId, [del("a.md", active.updatedAt)]);
    expect(r.applied).toMatchObject([{ op: "delete", relativePath: "a.md", id: active.id, sourceHash: null }]);
    const entry = (await fullManifest(key, kbId)).items.find((i) => i.relativePath === "a.md");
    expect(entry).toEqual({ relativePath: "a.md", sourceHash: null, sizeBytes: null, updatedAt: null, deletedAt: r.applied[0]!.updatedAt });
    expect((await fetchRaw(key, kbId, "a.md")).status).toBe(404);
  });
});

async function fetchRaw(token: string, kbId: string, path: string) {
  return await call("GET", `/v1/kbs/${kbId}/raw?path=${encodeURIComponent(path)}`, { token });
}

describe("ops and their checks", () => {
  test("a sourceHash that is not the SHA-256 of the content: conflict LOCAL_HASH_MISMATCH, nothing stored; upper-case hex and no hash are fine", async () => {
    const { key } = await makeClient();
    const kb = await newKb(key);
    const r = await pushed(key, kb.id, [
      upsert("bad.md", "text", undefined, sha256("other")),
      upsert("junk.md", "text", undefined, "not a hash"),
      upsert("upper.md", "text", undefined, sha256("text").toUpperCase()),
      upsert("none.md", "text", undefined, undefined),
    ]);
    expect(r.conflicts.map((c) => [c.relativePath, c.reason])).toEqual([
      ["bad.md", "LOCAL_HASH_MISMATCH"],
      ["junk.md", "LOCAL_HASH_MISMATCH"],
    ]);
    expect(r.conflicts[0]!.remote).toEqual({ sourceHash: null, sizeBytes: null, updatedAt: null, deletedAt: null, relativePath: null });
    expect(r.applied.map((a) => a.relativePath)).toEqual(["upper.md", "none.md"]);
    expect((await kbOf(key, kb.id)).docCount).toBe(2);
  });

  test("1 to 100 ops: 101 or none is 422 INVALID_OP_BATCH_SIZE and nothing is applied; 100 apply", async () => {
    const { key } = await makeClient({ plan: "pro" });
    const kb = await newKb(key);
    const ops = (n: number) => Array.from({ length: n }, (_, i) => upsert(`n/${i}.md`, `note ${i}`));
    // One bad path among them changes nothing: the batch's size is the request's.
    const over = await sync(key, kb.id, [...ops(100), upsert("../x.md", "x")]);
    expect(over.status).toBe(422);
    expect(over.body).toMatchObject({ code: "INVALID_OP_BATCH_SIZE", meta: { max: 100, count: 101 } });
    expect((await sync(key, kb.id, [])).body.code).toBe("INVALID_OP_BATCH_SIZE");
    expect((await kbOf(key, kb.id)).docCount).toBe(0);
    expect((await pushed(key, kb.id, ops(100))).applied).toHaveLength(100);
    expect((await kbOf(key, kb.id)).docCount).toBe(100);
  });

  test("the request's shape refuses it whole (422, nothing applied): no ops array, a v2 op, an op without its path or content, a base that is no date-time", async () => {
    const { key } = await makeClient();
    const kb = await newKb(key);
    for (const [ops, path] of [
      [[{ op: "upsert", relativePath: "a.md" }], "body.ops.1.content"],
      [[{ op: "delete" }], "body.ops.1.relativePath"],
      [[{ op: "upsert", content: "x" }], "body.ops.1.relativePath"],
    ] as const) {
      const res = await sync(key, kb.id, [upsert("fine.md", "fine"), ...ops]);
      expect(res.status).toBe(422);
      expect(res.body).toMatchObject({ code: "VALIDATION_ERROR", meta: { path } });
    }
    for (const json of [{}, { ops: "x" }, { ops: [{ op: "move", relativePath: "a.md" }] }, { ops: [upsert("fine.md", "fine"), del("a.md", "yesterday")] }]) {
      expect((await callJson("POST", `/v1/kbs/${kb.id}/sync`, { token: key, json })).status).toBe(422);
    }
    expect((await kbOf(key, kb.id)).docCount).toBe(0);
  });

  test("NFC and NFD spellings of one name are one path; hidden files are fine", async () => {
    const { key } = await makeClient();
    const kb = await newKb(key);
    const nfd = "Cafe\u0301/re\u0301sume\u0301.md";
    const created = await pushed(key, kb.id, [upsert(nfd, "one"), upsert(".obsidian/app.json.md", "{}")]);
    expect(created.applied[0]!.relativePath).toBe(nfd.normalize("NFC"));
    const again = await pushed(key, kb.id, [upsert(nfd.normalize("NFC"), "two", created.applied[0]!.updatedAt)]);
    expect(again.applied).toMatchObject([{ id: created.applied[0]!.id }]);
    const { items } = await fullManifest(key, kb.id);
    expect(items.map((i) => i.relativePath).sort()).toEqual([".obsidian/app.json.md", "Café/résumé.md"]);
    expect(await (await fetchRaw(key, kb.id, nfd)).text()).toBe("two");
  });

  test("letter case: another spelling of an active path is a PATH_CASE_CONFLICT (the remote names its spelling); once deleted, it is recreated under the new one", async () => {
    const { key } = await makeClient();
    const kb = await newKb(key);
    const first = (await pushed(key, kb.id, [upsert("Notes/Todo.md", "mine")])).applied[0]!;
    const r = await pushed(key, kb.id, [upsert("notes/todo.md", "theirs", first.updatedAt), del("NOTES/TODO.md", first.updatedAt)]);
    expect(r.applied).toEqual([]);
    expect(r.conflicts.map((c) => [c.relativePath, c.reason, c.remote.relativePath])).toEqual([
      ["notes/todo.md", "PATH_CASE_CONFLICT", "Notes/Todo.md"],
      ["NOTES/TODO.md", "PATH_CASE_CONFLICT", "Notes/Todo.md"],
    ]);
    expect(await (await fetchRaw(key, kb.id, "Notes/Todo.md")).text()).toBe("mine");
    // A case-only rename: the delete of the old spelling, then the new one.
    const renamed = await pushed(key, kb.id, [del("Notes/Todo.md", first.updatedAt), upsert("notes/todo.md", "mine")]);
    expect(renamed.applied.map((a) => [a.op, a.relativePath, a.id])).toEqual([
      ["delete", "Notes/Todo.md", first.id],
      ["upsert", "notes/todo.md", first.id],
    ]);
    expect((await fullManifest(key, kb.id)).items.map((i) => i.relativePath)).toEqual(["notes/todo.md"]);
  });

  test("ops are independent: a file type or size the plan refuses is skipped, the rest applied; doc_count refuses per op", async () => {
    const { user, key } = await makeClient();
    const kb = await newKb(key);
    const big = "x".repeat(1024 * 1024 + 1);
    const r = await pushed(key, kb.id, [upsert("a.txt", "text"), upsert("big.md", big), upsert("ok.typ", "= Typst\n")]);
    expect(r.skipped.map((s) => [s.relativePath, s.reason])).toEqual([
      ["a.txt", "INVALID_FILE_TYPE"],
      ["big.md", "DOC_FILE_TOO_LARGE"],
    ]);
    expect(r.skipped[1]!.meta).toMatchObject({ limit: 1024 * 1024 });
    expect(r.applied.map((a) => a.relativePath)).toEqual(["ok.typ"]);
    // Trial: 100 documents. The 100th applies, the 101st is refused, the replacement goes on.
    const many = Array.from({ length: 99 }, (_, i) => upsert(`m/${i}.md`, `m ${i}`));
    expect((await pushed(key, kb.id, many)).applied).toHaveLength(99);
    const ok = r.applied[0]!;
    const edge = await pushed(key, kb.id, [upsert("over.md", "one too many"), upsert("ok.typ", "= Typst 2\n", ok.updatedAt)]);
    expect(edge.skipped).toMatchObject([{ relativePath: "over.md", reason: "QUOTA_EXCEEDED", meta: { type: "doc_count", limit: 100 } }]);
    expect(edge.applied.map((a) => a.relativePath)).toEqual(["ok.typ"]);
    const u = await usage(user);
    expect(u.doc.count.used).toBe(100);
    expect(await kbOf(key, kb.id)).toMatchObject({ docCount: 100 });
  });

  test("a batch that reaches doc_count mid-way: the ops before apply, the one over is skipped, a delete makes room for a later one, counters exact", async () => {
    const { user, key } = await makeClient();
    const kb = await newKb(key);
    // Trial: 100 documents. 51 are there; the batch adds 49 (ops 0-48), so op 49 is one too many.
    const seed = await pushed(
      key,
      kb.id,
      Array.from({ length: 51 }, (_, i) => upsert(`s/${i}.md`, `seed ${i}`)),
    );
    const [kept, removed] = [seed.applied[0]!, seed.applied[1]!];
    const ops = [
      ...Array.from({ length: 49 }, (_, i) => upsert(`b/${i}.md`, `new ${i}`)),
      upsert("b/over.md", "one too many"),
      upsert("s/0.md", "seed 0, longer now", kept.updatedAt),
      del("s/1.md", removed.updatedAt),
      upsert("b/room.md", "fits again"),
      ...Array.from({ length: 47 }, (_, i) => upsert(`b/late-${i}.md`, `late ${i}`)),
    ];
    expect(ops).toHaveLength(100);
    const r = await pushed(key, kb.id, ops);
    expect(r.conflicts).toEqual([]);
    expect(r.skipped.map((s) => s.relativePath)).toEqual(["b/over.md", ...Array.from({ length: 47 }, (_, i) => `b/late-${i}.md`)]);
    expect(r.skipped[0]).toMatchObject({ reason: "QUOTA_EXCEEDED", meta: { type: "doc_count", limit: 100 } });
    expect(r.applied.map((a) => a.relativePath)).toEqual([...Array.from({ length: 49 }, (_, i) => `b/${i}.md`), "s/0.md", "s/1.md", "b/room.md"]);
    // Each applied op has its own stamp, in order, and serverTime is the last of them.
    const stamps = r.applied.map((a) => Date.parse(a.updatedAt));
    expect(stamps.every((s, i) => i === 0 || s > stamps[i - 1]!)).toBe(true);
    expect(r.serverTime).toBe(r.applied.at(-1)!.updatedAt);

    const { items } = await fullManifest(key, kb.id);
    const active = items.filter((i) => !i.deletedAt);
    expect(active).toHaveLength(100);
    const bytes = active.reduce((n, i) => n + i.sizeBytes!, 0);
    expect(await kbOf(key, kb.id)).toMatchObject({ docCount: 100, sizeBytes: bytes, updatedAt: r.serverTime });
    const u = await usage(user);
    expect(u.doc.count.used).toBe(100);
    expect(u.image.storage.used).toBe(bytes);
  });

  test("one new path twice in a batch: the second op sees the first's document (conflict without a base, replaced with a later one)", async () => {
    const { user, key } = await makeClient();
    const kb = await newKb(key);
    const r = await pushed(key, kb.id, [
      upsert("dup.md", "one"),
      upsert("dup.md", "two"),
      upsert("twice.md", "first"),
      upsert("twice.md", "second, longer", "2100-01-01T00:00:00.000Z"),
      upsert("other.md", "other"),
    ]);
    expect(r.conflicts).toMatchObject([{ relativePath: "dup.md", reason: "BASE_MISSING", remote: { sourceHash: sha256("one"), sizeBytes: 3 } }]);
    expect(r.applied.map((a) => [a.relativePath, a.sourceHash])).toEqual([
      ["dup.md", sha256("one")],
      ["twice.md", sha256("first")],
      ["twice.md", sha256("second, longer")],
      ["other.md", sha256("other")],
    ]);
    expect(r.applied[1]!.id).toBe(r.applied[2]!.id);
    const { items } = await fullManifest(key, kb.id);
    expect(Object.fromEntries(items.map((i) => [i.relativePath, i.sourceHash]))).toEqual({
      "dup.md": sha256("one"),
      "twice.md": sha256("second, longer"),
      "other.md": sha256("other"),
    });
    const bytes = 3 + "second, longer".length + 5;
    expect(await kbOf(key, kb.id)).toMatchObject({ docCount: 3, sizeBytes: bytes });
    const u = await usage(user);
    expect(u.doc.count.used).toBe(3);
    expect(u.image.storage.used).toBe(bytes);
  });

  test("one path replaced twice in a batch, then a delete after a replacement: each op sees the one before; the stored rows are the last", async () => {
    const { user, key } = await makeClient();
    const kb = await newKb(key);
    const first = await pushed(key, kb.id, [upsert("a.md", "a v1"), upsert("b.md", "b v1"), upsert("c.md", "c v1")]);
    const at = Object.fromEntries(first.applied.map((a) => [a.relativePath, a.updatedAt]));
    const far = "2100-01-01T00:00:00.000Z";
    const r = await pushed(key, kb.id, [
      upsert("a.md", "# A two\n\nsecond text", at["a.md"]),
      upsert("b.md", "---\ntitle: B\ntags: [x]\n---\nb two", at["b.md"]),
      upsert("a.md", "# A three\n\nthird text", far),
      upsert("c.md", "c two", at["c.md"]),
    ]);
    expect(r.conflicts).toEqual([]);
    const cTwo = r.applied[3]!.updatedAt;
    const gone = await pushed(key, kb.id, [upsert("c.md", "c three", cTwo), del("c.md", cTwo)]);
    expect(gone.conflicts).toMatchObject([{ relativePath: "c.md", reason: "REMOTE_NEWER", remote: { sourceHash: sha256("c three") } }]);
    const c = await pushed(key, kb.id, [del("c.md", gone.applied[0]!.updatedAt)]);
    expect(c.applied).toHaveLength(1);
    const doc = async (id: string) => (await callJson("GET", `/v1/docs/${id}`, { token: key })).body.data;
    expect(await doc(r.applied[2]!.id)).toMatchObject({ title: "A three", excerpt: "third text", wordCount: 4, updatedAt: r.applied[2]!.updatedAt });
    expect(await doc(r.applied[1]!.id)).toMatchObject({ title: "B", tags: ["x"], excerpt: "b two", updatedAt: r.applied[1]!.updatedAt });
    const raw = await call("GET", `/v1/docs/${r.applied[2]!.id}/raw`, { token: key });
    expect(await raw.text()).toBe("# A three\n\nthird text");
    const { items } = await fullManifest(key, kb.id);
    expect(Object.fromEntries(items.map((i) => [i.relativePath, [i.sourceHash, i.deletedAt !== null]]))).toEqual({
      "a.md": [sha256("# A three\n\nthird text"), false],
      "b.md": [sha256("---\ntitle: B\ntags: [x]\n---\nb two"), false],
      "c.md": [null, true],
    });
    const bytes = "# A three\n\nthird text".length + "---\ntitle: B\ntags: [x]\n---\nb two".length;
    expect(await kbOf(key, kb.id)).toMatchObject({ docCount: 2, sizeBytes: bytes });
    expect((await usage(user)).image.storage.used).toBe(bytes);
  });

  test("a batch within the limits moves every counter once, exactly: new, grown, shrunk, deleted, revived, with history", async () => {
    const { user, key } = await makeClient();
    await callJson("PATCH", "/v1/user/me", { token: user.jwt, json: { docVersioningEnabled: true } });
    const kb = await newKb(key);
    const first = await pushed(key, kb.id, [
      upsert("grow.md", "g"),
      upsert("shrink.md", "shrink me"),
      upsert("del.md", "delete me"),
      upsert("back.md", "back"),
    ]);
    const at = Object.fromEntries(first.applied.map((a) => [a.relativePath, a.updatedAt]));
    await pushed(key, kb.id, [del("back.md", at["back.md"])]);
    const r = await pushed(key, kb.id, [
      upsert("grow.md", "grown a lot", at["grow.md"]),
      upsert("shrink.md", "s", at["shrink.md"]),
      del("del.md", at["del.md"]),
      upsert("back.md", "revived"),
      upsert("new.md", "brand new"),
    ]);
    expect(r.applied).toHaveLength(5);
    const bytes = "grown a lot".length + "s".length + "revived".length + "brand new".length;
    expect(await kbOf(key, kb.id)).toMatchObject({ docCount: 4, sizeBytes: bytes, updatedAt: r.serverTime });
    const u = await usage(user);
    expect(u.doc.count.used).toBe(4);
    expect(u.image.storage.used).toBe(bytes);
    // Two replacements kept the previous texts.
    expect(u.docs).toMatchObject({ revisionCount: 2, revisionBytes: "g".length + "shrink me".length });
  });

  test("counters move per op: doc_count, storage and the KB's count and bytes; no image rewriting in sync", async () => {
    const { user, key } = await makeClient();
    const kb = await newKb(key);
    const inline = "![x](data:image/png;base64,iVBORw0KGgo=)\n";
    const r = await pushed(key, kb.id, [upsert("a.md", "aaaa"), upsert("img.md", inline)]);
    expect(await kbOf(key, kb.id)).toMatchObject({ docCount: 2, sizeBytes: 4 + inline.length });
    expect(await (await fetchRaw(key, kb.id, "img.md")).text()).toBe(inline);
    let u = await usage(user);
    expect(u.doc.count.used).toBe(2);
    expect(u.image.storage.used).toBe(4 + inline.length);
    await pushed(key, kb.id, [upsert("a.md", "a", r.applied[0]!.updatedAt), del("img.md", r.applied[1]!.updatedAt)]);
    expect(await kbOf(key, kb.id)).toMatchObject({ docCount: 1, sizeBytes: 1 });
    u = await usage(user);
    expect(u.doc.count.used).toBe(1);
    expect(u.image.storage.used).toBe(1);
  });

  test("with history on, a replacement by sync keeps the previous text as a revision with origin sync", async () => {
    const { user, key } = await makeClient();
    await callJson("PATCH", "/v1/user/me", { token: user.jwt, json: { docVersioningEnabled: true } });
    const kb = await newKb(key);
    const first = (await pushed(key, kb.id, [upsert("h.md", "version one")])).applied[0]!;
    await pushed(key, kb.id, [upsert("h.md", "version two", first.updatedAt)]);
    const revs = (await callJson("GET", `/v1/docs/${first.id}/revisions`, { token: key })).body.data;
    expect(revs.revisions).toMatchObject([{ revNumber: 1, origin: "sync", sourceHash: sha256("version one"), sizeBytes: 11 }]);
    expect((await usage(user)).docs).toMatchObject({ revisionCount: 1, revisionBytes: 11 });
  });

  test("a PATCH of title, tags or visibility leaves the version a client holds: its next push applies, no REMOTE_NEWER", async () => {
    const { key } = await makeClient();
    const kb = await newKb(key);
    const first = (await pushed(key, kb.id, [upsert("p.md", "# Title\n")])).applied[0]!;
    const patched = await callJson("PATCH", `/v1/docs/${first.id}`, { token: key, json: { title: "Renamed", tags: ["t"], isPublic: true } });
    expect(patched.body.data).toMatchObject({ title: "Renamed", updatedAt: first.updatedAt });
    const { items } = await fullManifest(key, kb.id, { since: shift(first.updatedAt, -1) });
    expect(items).toMatchObject([{ relativePath: "p.md", updatedAt: first.updatedAt }]);
    const next = await pushed(key, kb.id, [upsert("p.md", "# Title\n\nmore\n", first.updatedAt)]);
    expect(next.conflicts).toEqual([]);
    // Visibility and tags the text does not name are kept.
    expect((await callJson("GET", `/v1/docs/${first.id}`, { token: key })).body.data).toMatchObject({ tags: ["t"], isPublic: true, title: "Title" });
  });

  test("two pushes to one path at the same moment: exactly one applies, the other is a conflict; nothing is lost", async () => {
    const { key } = await makeClient();
    const kb = await newKb(key);
    const base = (await pushed(key, kb.id, [upsert("race.md", "base")])).applied[0]!;
    for (let round = 0; round < 3; round++) {
      const current = (await fullManifest(key, kb.id)).items[0]!;
      const results = await Promise.all(["left", "right"].map((side) => pushed(key, kb.id, [upsert("race.md", `${side} ${round}`, current.updatedAt)])));
      expect(results.map((r) => r.applied.length).sort()).toEqual([0, 1]);
      const loser = results.find((r) => r.conflicts.length)!;
      const winner = results.find((r) => r.applied.length)!;
      expect(loser.conflicts[0]).toMatchObject({ reason: "REMOTE_NEWER", remote: { sourceHash: winner.applied[0]!.sourceHash } });
    }
    const news = await Promise.all(["one", "two"].map((t) => pushed(key, kb.id, [upsert("fresh.md", t)])));
    expect(news.map((r) => r.applied.length).sort()).toEqual([0, 1]);
    expect(news.find((r) => r.conflicts.length)!.conflicts[0]!.reason).toBe("BASE_MISSING");
    expect((await kbOf(key, kb.id)).docCount).toBe(2);
    expect(base.id).toBeTruthy();
  });

  test("an expired plan cannot sync: 403 PLAN_INACTIVE; another user's KB is 404", async () => {
    const { deps } = await testContext();
    const { user, key } = await makeClient();
    const kb = await newKb(key);
    await updateUser(deps.db, user.id, { planExpiresAt: new Date(deps.clock.nowMs() - 1000) }, deps.clock.now());
    const res = await sync(key, kb.id, [upsert("a.md", "a")]);
    expect(res.status).toBe(403);
    expect(res.body.code).toBe("PLAN_INACTIVE");
    expect((await callJson("GET", `/v1/kbs/${kb.id}/manifest`, { token: key })).body.code).toBe("PLAN_INACTIVE");
  });

  test("tenancy: 401, 403 without kb.write, 404 for another user's KB", async () => {
    await expectTenantIsolation({
      method: "POST",
      path: (id) => `/v1/kbs/${id}/sync`,
      scope: "kb.write",
      create: async (owner) => (await newKb(owner.jwt)).id,
      request: () => ({ json: { ops: [upsert("a.md", "a")] } }),
      untouched: async (owner, id) => expect((await kbOf(owner.jwt, id)).docCount).toBe(0),
    });
  });
});
