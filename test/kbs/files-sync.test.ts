// KB files in sync: v2 ops of kind file link bytes the owner holds (FILE_MISSING otherwise)
// and update, move, rename, delete and tombstone them as documents are; the path rules and
// conflicts are the documents' (a file's losing version kept as a branch under
// preserve_both); manifest v2 names each entry's kind; v1, the documents routes and their
// counts never show or touch a file. docs/sync.md, "KB files".
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { call, callJson } from "../helpers/context.ts";
import { makeClient } from "../helpers/factories.ts";
import { TEST_TIMEOUT_MS } from "../helpers/timeout.ts";
import { fileObjects, hashOf, imageStorage, PNG, rawFile, storedFile, updateFile, upsertFile } from "./file-fixtures.ts";
import { fullManifest, newKb, sha256, sync, upsert } from "./fixtures.ts";
import { delete2, manifest2, type OpResult, pushed2, sync2, upsert2, walk2 } from "./v2-fixtures.ts";

setDefaultTimeout(TEST_TIMEOUT_MS);

const bytes = (n: number, seed = 1) => Uint8Array.from({ length: n }, (_, i) => (i * 13 + seed * 5) % 253);
const head = (token: string, kbId: string, sha: string) => call("HEAD", `/v1/kbs/${kbId}/files/${sha}`, { token });
const PRESERVE = "conflictResolution=preserve_both";
const results = (res: { body: any }) => (res.body.data?.results ?? res.body.meta?.results) as OpResult[];

describe("sync v2 ops of kind file", () => {
  test("a file is linked, updated, moved, renamed, deleted and acknowledged as a document is; bytes nothing links any more go at once", async () => {
    const { key } = await makeClient();
    const kb = await newKb(key);
    const [a, b] = [bytes(120, 1), bytes(80, 2)];
    await storedFile(key, kb.id, a);
    await storedFile(key, kb.id, b);
    const { sinceCursor } = await walk2(key, kb.id);

    const [linked] = (await pushed2(key, kb.id, [upsertFile("img/a.png", a)])).results;
    expect(linked).toMatchObject({ op: "upsert", status: "applied", kind: "file", change: "created", relativePath: "img/a.png", sourceHash: hashOf(a) });
    const docId = linked!.docId!;
    const again = (await pushed2(key, kb.id, [upsertFile("img/a.png", a, { baseHash: hashOf(a) })])).results[0]!;
    expect(again).toMatchObject({ change: "unchanged", docId });

    const [updated] = (await pushed2(key, kb.id, [updateFile(docId, b, { baseHash: hashOf(a) })])).results;
    expect(updated).toMatchObject({ op: "update", status: "applied", docId, kind: "file", sourceHash: hashOf(b) });
    // `a` is linked by nothing now: its bytes went with the update.
    expect((await head(key, kb.id, hashOf(a))).status).toBe(404);
    expect(await imageStorage(key)).toBe(80);

    const moved = (await pushed2(key, kb.id, [{ op: "move", fromPath: "img/a.png", toPath: "pics/a.png", sourceHash: hashOf(b), baseHash: hashOf(b) }]))
      .results[0]!;
    expect(moved).toMatchObject({ status: "applied", docId, relativePath: "pics/a.png", fromPath: "img/a.png", kind: "file" });
    // A file is a file at any name: renamed to a document's extension, it stays one.
    const renamed = (await pushed2(key, kb.id, [{ op: "rename", docId, newName: "b.md", sourceHash: hashOf(b), baseHash: hashOf(b) }])).results[0]!;
    expect(renamed).toMatchObject({ status: "applied", docId, relativePath: "pics/b.md", fromPath: "pics/a.png", kind: "file" });
    expect(new Uint8Array(await (await rawFile(key, kb.id, "pics/b.md")).arrayBuffer())).toEqual(b);

    const deleted = (await pushed2(key, kb.id, [delete2("pics/b.md", { baseHash: hashOf(b) })])).results[0]!;
    expect(deleted).toMatchObject({ op: "delete", status: "applied", docId, kind: "file", sourceHash: null });
    expect(await imageStorage(key)).toBe(0);
    const walked = await walk2(key, kb.id, { since: sinceCursor, include: "tombstones" });
    expect(walked.tombstones.map((t: any) => [t.relativePath, t.kind, t.docId])).toEqual([
      ["img/a.png", "file", docId],
      ["pics/a.png", "file", docId],
      ["pics/b.md", "file", docId],
    ]);
    const acked = (await pushed2(key, kb.id, [{ op: "tombstone_ack", docId }])).results[0]!;
    expect(acked).toMatchObject({ status: "applied", meta: { tombstones: 3 } });
  });

  test("FILE_MISSING for bytes the owner does not hold (meta.sourceHash), and the same op applies once they are PUT; a file op carries no content, and only upserts and updates have a kind", async () => {
    const { key } = await makeClient();
    const kb = await newKb(key);
    const blob = bytes(64, 3);
    const missing = results(await sync2(key, kb.id, [upsertFile("x.bin", blob)]))[0]!;
    expect(missing).toMatchObject({ status: "skipped", reason: "FILE_MISSING", relativePath: "x.bin", meta: { sourceHash: hashOf(blob) } });
    await storedFile(key, kb.id, blob);
    expect((await pushed2(key, kb.id, [upsertFile("x.bin", blob)])).results[0]).toMatchObject({ status: "applied", change: "created" });

    const withContent = await sync2(key, kb.id, [{ ...upsertFile("y.bin", blob), content: "text" }]);
    expect(withContent.status).toBe(422);
    expect(withContent.body.meta.path).toBe("body.ops.0.content");
    const kindOnDelete = await sync2(key, kb.id, [{ ...delete2("x.bin"), kind: "file" }]);
    expect(kindOnDelete.status).toBe(422);
    expect(kindOnDelete.body.meta.path).toBe("body.ops.0.kind");
  });

  test("one path per KB whatever its letter case, documents and files alike; a file op at a document's path replaces it under the base rules, and back", async () => {
    const { key } = await makeClient();
    const kb = await newKb(key);
    const text = "# Notes\n";
    const [doc] = (await pushed2(key, kb.id, [upsert2("notes.md", text)])).results;
    await storedFile(key, kb.id, PNG);

    const otherCase = await sync2(key, kb.id, [upsertFile("Notes.md", PNG)]);
    expect(otherCase.status).toBe(409);
    expect(results(otherCase)[0]).toMatchObject({ status: "conflict", reason: "PATH_CASE_CONFLICT", docId: doc!.docId });
    expect(results(await sync2(key, kb.id, [upsertFile("notes.md", PNG)]))[0]).toMatchObject({ status: "conflict", reason: "BASE_MISSING" });

    const toFile = (await pushed2(key, kb.id, [upsertFile("notes.md", PNG, { baseHash: sha256(text) })])).results[0]!;
    expect(toFile).toMatchObject({ status: "applied", change: "updated", kind: "file", docId: doc!.docId, sourceHash: hashOf(PNG) });
    const usage = async () => (await callJson("GET", "/v1/user/me/usage", { token: key })).body.data;
    expect((await usage()).doc.count.used).toBe(0);
    expect(await imageStorage(key)).toBe(PNG.length);
    const entry = (await walk2(key, kb.id)).items.find((i) => i.relativePath === "notes.md") as any;
    expect(entry).toMatchObject({ kind: "file", contentType: "image/png", docId: doc!.docId });

    const back = (await pushed2(key, kb.id, [upsert2("notes.md", "# Back\n", { baseHash: hashOf(PNG) })])).results[0]!;
    expect(back).toMatchObject({ status: "applied", change: "updated", kind: "document", docId: doc!.docId });
    expect((await usage()).doc.count.used).toBe(1);
    expect(await imageStorage(key)).toBe("# Back\n".length);
    expect((await head(key, kb.id, hashOf(PNG))).status).toBe(404);
    expect(await (await rawFile(key, kb.id, "notes.md")).text()).toBe("# Back\n");
  });

  test("preserve_both keeps a file's losing version as a conflict branch that names its bytes and keeps them; accepting it makes it master, discarding lets its bytes go", async () => {
    const { user, key } = await makeClient();
    const kb = await newKb(key);
    const [master, mine, other] = [bytes(100, 1), bytes(40, 2), bytes(30, 3)];
    for (const b of [master, mine, other]) await storedFile(key, kb.id, b);
    const [m] = (await pushed2(key, kb.id, [upsertFile("pic.png", master)])).results;
    const stale = { baseHash: hashOf(bytes(1, 9)) };
    const branched = results(await sync2(key, kb.id, [upsertFile("pic.png", mine, stale)], { query: PRESERVE }))[0]!;
    expect(branched).toMatchObject({ status: "conflict_branch_created", docId: m!.docId, currentMasterHash: hashOf(master) });
    const branchId = (branched as any).branchId as string;

    const list = (await callJson("GET", `/v1/kbs/${kb.id}/conflicts`, { token: key })).body.data.items;
    expect(list).toEqual([expect.objectContaining({ branchId, kind: "file", sourceHash: hashOf(mine), sizeBytes: 40, relativePath: "pic.png" })]);
    const one = (await callJson("GET", `/v1/kbs/${kb.id}/conflicts/${branchId}`, { token: key })).body.data;
    expect(one).toMatchObject({ kind: "file", content: null, currentMasterHash: hashOf(master) });
    // Kept by the branch alone, and counted once.
    expect((await head(key, kb.id, hashOf(mine))).status).toBe(200);
    expect(await imageStorage(key)).toBe(170);
    expect((await walk2(key, kb.id)).items[0]).toMatchObject({ hasPendingBranches: true });

    const accepted = await callJson("POST", `/v1/kbs/${kb.id}/conflicts/${branchId}/accept`, { token: key });
    expect(accepted.status).toBe(200);
    expect(accepted.body.data).toMatchObject({ status: "adopted", docId: m!.docId, sourceHash: hashOf(mine), savedRevision: null });
    expect((await head(key, kb.id, hashOf(master))).status).toBe(404);
    expect(new Uint8Array(await (await rawFile(key, kb.id, "pic.png")).arrayBuffer())).toEqual(mine);

    const second = results(await sync2(key, kb.id, [upsertFile("pic.png", other, stale)], { query: PRESERVE }))[0]!;
    expect((await call("DELETE", `/v1/kbs/${kb.id}/conflicts/${(second as any).branchId}`, { token: key })).status).toBe(204);
    expect((await head(key, kb.id, hashOf(other))).status).toBe(404);
    expect(await imageStorage(key)).toBe(40);
    expect(await fileObjects(user.id)).toHaveLength(1);
  });
});

describe("who sees files", () => {
  test("manifest v2 entries name their kind, a file its contentType; v1's manifest and sync never show or touch a file", async () => {
    const { key } = await makeClient();
    const kb = await newKb(key);
    await storedFile(key, kb.id, PNG, "photo.png");
    await pushed2(key, kb.id, [upsert2("doc.md", "# Doc\n"), upsertFile("photo.png", PNG)]);
    const v2 = (await manifest2(key, kb.id)).body.data.items;
    expect(v2.map((i: any) => [i.relativePath, i.kind, i.contentType])).toEqual([
      ["doc.md", "document", undefined],
      ["photo.png", "file", "image/png"],
    ]);

    const v1 = await fullManifest(key, kb.id);
    expect(v1.items.map((i) => i.relativePath)).toEqual(["doc.md"]);
    const pushedV1 = await sync(key, kb.id, [upsert("photo.png", "text over a picture"), { op: "delete", relativePath: "photo.png" }]);
    expect(pushedV1.status).toBe(200);
    expect(pushedV1.body.data.skipped.map((s: any) => s.reason)).toEqual(["PATH_HOLDS_FILE", "NOT_FOUND"]);
    expect(new Uint8Array(await (await rawFile(key, kb.id, "photo.png")).arrayBuffer())).toEqual(PNG);
    const kindInV1 = await sync(key, kb.id, [{ ...upsert("x.md", "x"), kind: "document" }]);
    expect(kindInV1.status).toBe(422);
    expect(kindInV1.body.meta.path).toBe("body.ops.0.kind");
  });

  test("the documents routes show no file: not listed, not found by id, not in raw:batch, and POST /v1/docs at a file's path is 409 CONFLICT", async () => {
    const { key } = await makeClient();
    const kb = await newKb(key);
    await storedFile(key, kb.id, PNG);
    const [doc, file] = (await pushed2(key, kb.id, [upsert2("a.md", "# A\n"), upsertFile("b.png", PNG)])).results;
    const listed = (await callJson("GET", `/v1/docs?kbId=${kb.id}`, { token: key })).body.data.items;
    expect(listed.map((d: any) => d.id)).toEqual([doc!.docId]);
    expect((await call("GET", `/v1/docs/${file!.docId}`, { token: key })).status).toBe(404);
    expect((await call("DELETE", `/v1/docs/${file!.docId}`, { token: key })).status).toBe(404);
    const batch = (await callJson("POST", "/v1/docs/raw:batch", { token: key, json: { ids: [doc!.docId, file!.docId] } })).body.data;
    expect(batch.docs.map((d: any) => d.id)).toEqual([doc!.docId]);
    expect(batch.failed).toEqual([{ id: file!.docId, reason: "NOT_FOUND" }]);
    const upload = await callJson("POST", "/v1/docs", { token: key, json: { filename: "b.md", content: "# B", kbId: kb.id, relativePath: "b.png" } });
    expect(upload.status).toBe(409);
    expect(upload.body).toMatchObject({ code: "CONFLICT", meta: { existingKind: "file", existingId: file!.docId } });
  });
});
