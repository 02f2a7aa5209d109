// The v2 rename op: a move within the document's folder, named by docId. It keeps the
// document (id, text, history), leaves a tombstone at the old path, stamps the KB, and
// is refused as a move is (stale base, target taken); a bad newName refuses its op alone.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { callJson } from "../helpers/context.ts";
import { makeClient } from "../helpers/factories.ts";
import { fullManifest, newKb, sha256 } from "./fixtures.ts";
import { pushed2, rename2, sync2, update2, upsert2, walk2 } from "./v2-fixtures.ts";
import { TEST_TIMEOUT_MS } from "../helpers/timeout.ts";

setDefaultTimeout(TEST_TIMEOUT_MS);

const kbOf = async (key: string, kbId: string) => (await callJson("GET", `/v1/kbs/${kbId}`, { token: key })).body.data;

describe("rename", () => {
  test("applied: same folder, new name; docId, text and history kept; a tombstone at the old path; the manifest and the KB's updatedAt follow", async () => {
    const { user, key } = await makeClient();
    await callJson("PATCH", "/v1/user/me", { token: user.jwt, json: { docVersioningEnabled: true } });
    const kb = await newKb(key);
    const a = (await pushed2(key, kb.id, [upsert2("notes/a.md", "# A\n")])).results[0]!;
    const b = (await pushed2(key, kb.id, [update2(a.docId!, "# A2\n", { baseUpdatedAt: a.updatedAt })])).results[0]!;
    const before = await kbOf(key, kb.id);
    const { sinceCursor } = await walk2(key, kb.id);
    const renamed = await pushed2(key, kb.id, [rename2(a.docId!, "b.md", "# A2\n", { baseUpdatedAt: b.updatedAt })]);
    expect(renamed.results).toEqual([
      {
        opIndex: 0,
        op: "rename",
        status: "applied",
        docId: a.docId,
        relativePath: "notes/b.md",
        fromPath: "notes/a.md",
        kind: "document",
        updatedAt: expect.any(String),
        sourceHash: sha256("# A2\n"),
      },
    ]);
    const at = renamed.results[0]!.updatedAt!;
    expect(at > b.updatedAt!).toBe(true);
    const doc = (await callJson("GET", `/v1/docs/${a.docId}`, { token: key })).body.data;
    expect(doc).toMatchObject({ id: a.docId, relativePath: "notes/b.md", filename: "b.md" });
    const revisions = (await callJson("GET", `/v1/docs/${a.docId}/revisions`, { token: key })).body.data;
    expect(revisions.revisions).toMatchObject([{ revNumber: 1, sourceHash: sha256("# A\n") }]);
    const after = await walk2(key, kb.id, { since: sinceCursor, include: "tombstones" });
    const byPath = (x: { relativePath: string }, y: { relativePath: string }) => x.relativePath.localeCompare(y.relativePath);
    expect(after.items.sort(byPath)).toMatchObject([
      { relativePath: "notes/a.md", sourceHash: null, deletedAt: at },
      { relativePath: "notes/b.md", docId: a.docId, sourceHash: sha256("# A2\n"), deletedAt: null },
    ]);
    expect(after.tombstones).toEqual([{ docId: a.docId!, relativePath: "notes/a.md", sourceHash: sha256("# A2\n"), kind: "document", deletedAt: at }]);
    const now = await kbOf(key, kb.id);
    expect(now.updatedAt > before.updatedAt).toBe(true);
    expect(now.updatedAt).toBe(at);
    expect(now).toMatchObject({ docCount: 1, sizeBytes: 5 });
  });

  test("a change of letter case only renames in place (no tombstone); a file at the KB's top stays at the top", async () => {
    const { key } = await makeClient();
    const kb = await newKb(key);
    const [a, top] = (await pushed2(key, kb.id, [upsert2("dir/a.md", "a"), upsert2("top.md", "t")])).results;
    const { sinceCursor } = await walk2(key, kb.id);
    const res = await pushed2(key, kb.id, [
      rename2(a!.docId!, "A.md", "a", { baseHash: sha256("a") }),
      rename2(top!.docId!, "Top2.md", "t", { baseUpdatedAt: top!.updatedAt }),
    ]);
    expect(res.results.map((r) => [r.status, r.fromPath, r.relativePath, r.docId])).toEqual([
      ["applied", "dir/a.md", "dir/A.md", a!.docId],
      ["applied", "top.md", "Top2.md", top!.docId],
    ]);
    const after = await walk2(key, kb.id, { since: sinceCursor, include: "tombstones" });
    expect(after.tombstones!.map((t) => t.relativePath)).toEqual(["top.md"]);
    expect(
      (await fullManifest(key, kb.id)).items
        .filter((i) => !i.deletedAt)
        .map((i) => i.relativePath)
        .sort(),
    ).toEqual(["Top2.md", "dir/A.md"]);
  });

  test("conflicts as a move's: target taken (MOVE_TARGET_EXISTS, another letter case too), stale base or other text (REMOTE_NEWER), no base (BASE_MISSING), a deleted document (MOVE_SOURCE_MISSING); preserve_both keeps them conflicts", async () => {
    const { key } = await makeClient();
    const kb = await newKb(key);
    const [a, b, c] = (await pushed2(key, kb.id, [upsert2("d/a.md", "a"), upsert2("d/b.md", "b"), upsert2("d/c.md", "c")])).results;
    await pushed2(key, kb.id, [{ op: "delete", relativePath: "d/c.md", baseUpdatedAt: c!.updatedAt }]);
    const ops = [
      rename2(a!.docId!, "b.md", "a", { baseUpdatedAt: a!.updatedAt }),
      rename2(a!.docId!, "B.md", "a", { baseUpdatedAt: a!.updatedAt }),
      rename2(a!.docId!, "x.md", "a", { baseUpdatedAt: "2020-01-01T00:00:00.000Z" }),
      rename2(a!.docId!, "x.md", "not master's", { baseUpdatedAt: a!.updatedAt }),
      rename2(a!.docId!, "x.md", "a"),
      rename2(c!.docId!, "x.md", "c", { baseHash: sha256("c") }),
    ];
    for (const query of [undefined, "conflictResolution=preserve_both"]) {
      const res = await sync2(key, kb.id, ops, { query });
      expect(res.status).toBe(409);
      expect(res.body.code).toBe("SYNC_CONFLICT");
      expect((res.body.meta.results as { status: string; reason: string; relativePath: string }[]).map((r) => [r.status, r.reason, r.relativePath])).toEqual([
        ["conflict", "MOVE_TARGET_EXISTS", "d/a.md"],
        ["conflict", "MOVE_TARGET_EXISTS", "d/a.md"],
        ["conflict", "REMOTE_NEWER", "d/a.md"],
        ["conflict", "REMOTE_NEWER", "d/a.md"],
        ["conflict", "BASE_MISSING", "d/a.md"],
        ["conflict", "MOVE_SOURCE_MISSING", "d/c.md"],
      ]);
      expect(res.body.meta.results[0]).toMatchObject({ docId: b!.docId, currentMasterHash: sha256("b") });
    }
    expect((await fullManifest(key, kb.id)).items.map((i) => [i.relativePath, i.deletedAt === null]).sort()).toEqual([
      ["d/a.md", true],
      ["d/b.md", true],
      ["d/c.md", false],
    ]);
  });

  test("a bad newName or an unknown docId is skipped while the batch's other ops apply", async () => {
    const { key } = await makeClient();
    const kb = await newKb(key);
    const a = (await pushed2(key, kb.id, [upsert2("a.md", "a")])).results[0]!;
    const base = { baseHash: sha256("a") };
    const res = await pushed2(key, kb.id, [
      rename2(a.docId!, "sub/b.md", "a", base),
      rename2(a.docId!, "b\\c.md", "a", base),
      rename2(a.docId!, "..", "a", base),
      rename2(a.docId!, "", "a", base),
      rename2(a.docId!, "x".repeat(256), "a", base),
      rename2(a.docId!, "b.exe", "a", base),
      rename2("no-such-document-id00", "b.md", "a", base),
      rename2(a.docId!, "b.md", "a", base),
      upsert2("c.md", "c"),
    ]);
    expect(res.results.map((r) => [r.status, r.reason ?? null, (r.meta?.path as string | undefined) ?? null, r.docId])).toEqual([
      ["skipped", "VALIDATION_ERROR", "body.ops.0.newName", a.docId],
      ["skipped", "VALIDATION_ERROR", "body.ops.1.newName", a.docId],
      ["skipped", "VALIDATION_ERROR", "body.ops.2.newName", a.docId],
      ["skipped", "VALIDATION_ERROR", "body.ops.3.newName", a.docId],
      ["skipped", "VALIDATION_ERROR", "body.ops.4.newName", a.docId],
      ["skipped", "INVALID_FILE_TYPE", null, a.docId],
      ["skipped", "NOT_FOUND", null, "no-such-document-id00"],
      ["applied", null, null, a.docId],
      ["applied", null, null, expect.any(String)],
    ]);
    expect(res.results[7]).toMatchObject({ op: "rename", relativePath: "b.md", fromPath: "a.md" });
  });

  test("a rename whose path goes past the path's length is skipped at newName, as a bad path is", async () => {
    const { key } = await makeClient();
    const kb = await newKb(key);
    const deep = `${Array.from({ length: 4 }, () => "d".repeat(250)).join("/")}/a.md`;
    const a = (await pushed2(key, kb.id, [upsert2(deep, "a")])).results[0]!;
    const res = await pushed2(key, kb.id, [rename2(a.docId!, `${"n".repeat(40)}.md`, "a", { baseHash: sha256("a") })]);
    expect(res.results[0]).toMatchObject({
      status: "skipped",
      reason: "VALIDATION_ERROR",
      relativePath: deep,
      meta: { path: "body.ops.0.newName", problem: "too-long" },
    });
  });

  test("without sourceHash (422 SYNC_HASH_REQUIRED at the op), without newName or docId (422 at the field): nothing applied; v1 refuses it", async () => {
    const { key } = await makeClient();
    const kb = await newKb(key);
    const a = (await pushed2(key, kb.id, [upsert2("a.md", "a")])).results[0]!;
    const noHash = await sync2(key, kb.id, [upsert2("z.md", "z"), { op: "rename", docId: a.docId, newName: "b.md", baseUpdatedAt: a.updatedAt }]);
    expect(noHash.status).toBe(422);
    expect(noHash.body).toMatchObject({ code: "SYNC_HASH_REQUIRED", meta: { path: "body.ops.1.sourceHash", op: "rename" } });
    const noName = await sync2(key, kb.id, [{ op: "rename", docId: a.docId, sourceHash: sha256("a") }]);
    expect(noName.status).toBe(422);
    expect(noName.body.meta.path).toBe("body.ops.0.newName");
    const noId = await sync2(key, kb.id, [{ op: "rename", newName: "b.md", sourceHash: sha256("a") }]);
    expect(noId.body.meta.path).toBe("body.ops.0.docId");
    const v1 = await callJson("POST", `/v1/kbs/${kb.id}/sync`, { token: key, json: { ops: [{ op: "rename", docId: a.docId, newName: "b.md" }] } });
    expect(v1.status).toBe(422);
    expect((await fullManifest(key, kb.id)).items.map((i) => i.relativePath)).toEqual(["a.md"]);
  });

  test("within one batch: a rename follows a move of the same document, and an update by id follows the rename", async () => {
    const { key } = await makeClient();
    const kb = await newKb(key);
    const a = (await pushed2(key, kb.id, [upsert2("a.md", "a"), upsert2("x/b.md", "b")])).results[0]!;
    const again = await sync2(key, kb.id, [
      { op: "move", fromPath: "a.md", toPath: "x/a.md", sourceHash: sha256("a"), baseUpdatedAt: a.updatedAt },
      rename2(a.docId!, "c.md", "a", { baseHash: sha256("a") }),
      rename2(a.docId!, "b.md", "a", { baseHash: sha256("a") }),
      update2(a.docId!, "a2", { baseHash: sha256("a") }),
    ]);
    expect(again.status).toBe(409);
    expect(
      (again.body.meta.results as { status: string; relativePath: string; reason?: string }[]).map((r) => [r.status, r.relativePath, r.reason ?? null]),
    ).toEqual([
      ["applied", "x/a.md", null],
      ["applied", "x/c.md", null],
      ["conflict", "x/c.md", "MOVE_TARGET_EXISTS"],
      ["applied", "x/c.md", null],
    ]);
  });
});
