// POST /v1/kbs/:id/sync under v2 (docs/sync.md): version negotiation, results[] per op, the
// batch limits, SYNC_VERSION_MISMATCH, SYNC_HASH_REQUIRED, update by docId, bases by time
// or hash, default mode's 409 SYNC_CONFLICT with meta.results, conflictResolution.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { call, callJson } from "../helpers/context.ts";
import { makeClient } from "../helpers/factories.ts";
import { expectTenantIsolation } from "../helpers/tenancy.ts";
import { fullManifest, newKb, pushed, sha256, sync, upsert } from "./fixtures.ts";
import { delete2, type OpResult, pushed2, sync2, update2, upsert2, V2, walk2 } from "./v2-fixtures.ts";
import { TEST_TIMEOUT_MS } from "../helpers/timeout.ts";

setDefaultTimeout(TEST_TIMEOUT_MS);

const raw = async (key: string, kbId: string, path: string) =>
  (await call("GET", `/v1/kbs/${kbId}/raw?path=${encodeURIComponent(path)}`, { token: key })).text();

describe("version negotiation", () => {
  test("header Service-Sync-Version: 2, or ?syncVersion=2, answers v2; the header wins; v1 stays the default", async () => {
    const { key } = await makeClient();
    const kb = await newKb(key);
    const byHeader = await sync2(key, kb.id, [upsert2("a.md", "a")]);
    expect(byHeader.status).toBe(200);
    expect(byHeader.body.data.results).toHaveLength(1);
    const byQuery = await callJson("POST", `/v1/kbs/${kb.id}/sync?syncVersion=2`, { token: key, json: { ops: [upsert2("b.md", "b")] } });
    expect(byQuery.body.data.results).toHaveLength(1);
    const headerWins = await callJson("POST", `/v1/kbs/${kb.id}/sync?syncVersion=2`, {
      token: key,
      headers: { "service-sync-version": "1" },
      json: { ops: [upsert("c.md", "c")] },
    });
    expect(headerWins.body.data.applied).toHaveLength(1);
    expect((await sync(key, kb.id, [upsert("d.md", "d")])).body.data.applied).toHaveLength(1);
    for (const [v, code] of [
      ["0", "INVALID_SYNC_VERSION"],
      ["two", "INVALID_SYNC_VERSION"],
      ["3", "SYNC_VERSION_UNSUPPORTED"],
    ]) {
      const res = await sync2(key, kb.id, [upsert2("e.md", "e")], { headers: { "service-sync-version": v! } });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe(code!);
    }
  });
});

describe("v2 ops", () => {
  test("results[] per op: opIndex, op, status, docId; upserts and updates applied with their path, updatedAt and hash", async () => {
    const { key } = await makeClient();
    const kb = await newKb(key);
    const made = await pushed2(key, kb.id, [upsert2("a.md", "# A\n"), upsert2("dir/b.md", "b")]);
    expect(made.results).toEqual([
      {
        opIndex: 0,
        op: "upsert",
        status: "applied",
        docId: expect.any(String),
        relativePath: "a.md",
        kind: "document",
        updatedAt: expect.any(String),
        sourceHash: sha256("# A\n"),
        change: "created",
      },
      {
        opIndex: 1,
        op: "upsert",
        status: "applied",
        docId: expect.any(String),
        relativePath: "dir/b.md",
        kind: "document",
        updatedAt: expect.any(String),
        sourceHash: sha256("b"),
        change: "created",
      },
    ]);
    const a = made.results[0]!;
    const edited = await pushed2(key, kb.id, [update2(a.docId!, "# A edited\n", { baseUpdatedAt: a.updatedAt })]);
    expect(edited.results[0]).toMatchObject({
      opIndex: 0,
      op: "update",
      status: "applied",
      docId: a.docId,
      relativePath: "a.md",
      sourceHash: sha256("# A edited\n"),
    });
    expect(await raw(key, kb.id, "a.md")).toBe("# A edited\n");
    const doc = (await callJson("GET", `/v1/docs/${a.docId}`, { token: key })).body.data;
    expect(doc).toMatchObject({ title: "A edited", updatedAt: edited.results[0]!.updatedAt });
    expect(edited.serverTime >= edited.results[0]!.updatedAt!).toBe(true);
  });

  test("an upsert says what it did to its path (created, updated, unchanged); overwrite replaces whatever is there, and with a base is skipped", async () => {
    const { key } = await makeClient();
    const kb = await newKb(key);
    const first = (await pushed2(key, kb.id, [upsert2("c.md", "one")])).results[0]!;
    expect(first).toMatchObject({ status: "applied", change: "created" });
    // Someone else's change meanwhile: a write with no base is a conflict, one with overwrite replaces it.
    const stale = await sync2(key, kb.id, [{ op: "upsert", relativePath: "c.md", content: "mine", sourceHash: sha256("mine") }]);
    expect(stale.status).toBe(409);
    expect(stale.body.meta.results[0]).toMatchObject({ status: "conflict", reason: "BASE_MISSING" });
    const over = await pushed2(key, kb.id, [{ op: "upsert", relativePath: "c.md", content: "mine", sourceHash: sha256("mine"), overwrite: true }]);
    expect(over.results[0]).toMatchObject({ status: "applied", docId: first.docId, change: "updated", sourceHash: sha256("mine") });
    expect(await raw(key, kb.id, "c.md")).toBe("mine");
    const again = await pushed2(key, kb.id, [{ op: "upsert", relativePath: "c.md", content: "mine", sourceHash: sha256("mine"), overwrite: true }]);
    expect(again.results[0]).toMatchObject({ status: "applied", change: "unchanged" });
    const fresh = await pushed2(key, kb.id, [{ op: "upsert", relativePath: "d.md", content: "new", sourceHash: sha256("new"), overwrite: true }]);
    expect(fresh.results[0]).toMatchObject({ status: "applied", change: "created" });
    const both = await pushed2(key, kb.id, [
      { op: "upsert", relativePath: "c.md", content: "x", sourceHash: sha256("x"), overwrite: true, baseHash: sha256("mine") },
    ]);
    expect(both.results[0]).toMatchObject({ status: "skipped", reason: "VALIDATION_ERROR", meta: { path: "body.ops.0.overwrite" } });
    expect(await raw(key, kb.id, "c.md")).toBe("mine");
  });

  test("an update of an id that is not a document of this KB (another KB's, another user's, none) is skipped NOT_FOUND", async () => {
    const { key } = await makeClient();
    const [kb, other] = [await newKb(key), await newKb(key)];
    const elsewhere = (await pushed2(key, other.id, [upsert2("x.md", "x")])).results[0]!.docId!;
    const stranger = await makeClient();
    const strangerKb = await newKb(stranger.key);
    const theirs = (await pushed2(stranger.key, strangerKb.id, [upsert2("s.md", "s")])).results[0]!.docId!;
    const res = await pushed2(key, kb.id, [
      update2(elsewhere, "y", { baseUpdatedAt: new Date().toISOString() }),
      update2(theirs, "mine now"),
      update2("x".repeat(21), "z"),
    ]);
    expect(res.results.map((r) => [r.status, r.op, (r as any).reason])).toEqual([
      ["skipped", "update", "NOT_FOUND"],
      ["skipped", "update", "NOT_FOUND"],
      ["skipped", "update", "NOT_FOUND"],
    ]);
    expect(await raw(stranger.key, strangerKb.id, "s.md")).toBe("s");
  });

  test("a base by hash: master's hash applies, another is stale; baseHash wins over baseUpdatedAt", async () => {
    const { key } = await makeClient();
    const kb = await newKb(key);
    const a = (await pushed2(key, kb.id, [upsert2("a.md", "one")])).results[0]!;
    const old = "2020-01-01T00:00:00.000Z";
    const ok = await pushed2(key, kb.id, [update2(a.docId!, "two", { baseHash: sha256("one"), baseUpdatedAt: old })]);
    expect(ok.results[0]!.status).toBe("applied");
    const stale = await sync2(key, kb.id, [upsert2("a.md", "three", { baseHash: sha256("one"), baseUpdatedAt: ok.results[0]!.updatedAt })]);
    expect(stale.status).toBe(409);
    expect(stale.body.meta.results[0]).toMatchObject({ status: "conflict", reason: "REMOTE_NEWER", currentMasterHash: sha256("two") });
    // A baseHash that is no hash refuses its op alone (sync-op-values.test.ts).
    const bad = await pushed2(key, kb.id, [upsert2("a.md", "x", { baseHash: "nothex" })]);
    expect(bad.results[0]).toMatchObject({ status: "skipped", reason: "VALIDATION_ERROR", meta: { path: "body.ops.0.baseHash", problem: "not-sha256-hex" } });
  });

  test("default mode: a stale op makes the answer 409 SYNC_CONFLICT with meta.results; the other ops stay applied, master keeps its text", async () => {
    const { key } = await makeClient();
    const kb = await newKb(key);
    const a = (await pushed2(key, kb.id, [upsert2("a.md", "master")])).results[0]!;
    const res = await sync2(key, kb.id, [
      upsert2("new.md", "fresh"),
      update2(a.docId!, "from a stale base", { baseUpdatedAt: "2020-01-01T00:00:00.000Z" }),
      upsert2("a.md", "no base"),
      { op: "upsert", relativePath: "lie.md", content: "text", sourceHash: sha256("other") },
      delete2("a.md", { baseUpdatedAt: "2020-01-01T00:00:00.000Z" }),
      delete2("none.md"),
    ]);
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ success: false, code: "SYNC_CONFLICT" });
    const results = res.body.meta.results as OpResult[];
    expect(results.map((r) => [r.opIndex, r.status, r.reason ?? null])).toEqual([
      [0, "applied", null],
      [1, "conflict", "REMOTE_NEWER"],
      [2, "conflict", "BASE_MISSING"],
      [3, "conflict", "LOCAL_HASH_MISMATCH"],
      [4, "conflict", "REMOTE_NEWER"],
      [5, "skipped", "NOT_FOUND"],
    ]);
    expect(results[1]).toMatchObject({ docId: a.docId, currentMasterHash: sha256("master"), currentMasterUpdatedAt: a.updatedAt });
    expect(typeof res.body.meta.serverTime).toBe("string");
    expect(await raw(key, kb.id, "a.md")).toBe("master");
    expect(await raw(key, kb.id, "new.md")).toBe("fresh");
  });

  test("a soft-deleted document: an update from before the delete is REMOTE_DELETED (currentMasterHash null)", async () => {
    const { key } = await makeClient();
    const kb = await newKb(key);
    const a = (await pushed2(key, kb.id, [upsert2("a.md", "a")])).results[0]!;
    const gone = (await pushed2(key, kb.id, [delete2("a.md", { baseUpdatedAt: a.updatedAt })])).results[0]!;
    expect(gone).toMatchObject({ status: "applied", op: "delete", docId: a.docId, sourceHash: null });
    const res = await sync2(key, kb.id, [update2(a.docId!, "edited offline", { baseUpdatedAt: a.updatedAt })]);
    expect(res.status).toBe(409);
    expect(res.body.meta.results[0]).toMatchObject({ reason: "REMOTE_DELETED", currentMasterHash: null, currentMasterUpdatedAt: gone.updatedAt });
  });
});

describe("v2 request rules", () => {
  test("1 to 200 ops: none or 201 is 422 INVALID_OP_BATCH_SIZE (nothing applied), 200 apply", async () => {
    const { key } = await makeClient({ plan: "pro" });
    const kb = await newKb(key);
    const ops = (n: number) => Array.from({ length: n }, (_, i) => upsert2(`n${i}.md`, `note ${i}`));
    for (const n of [0, 201]) {
      const res = await sync2(key, kb.id, ops(n));
      expect(res.status).toBe(422);
      expect(res.body).toMatchObject({ code: "INVALID_OP_BATCH_SIZE", meta: { max: 200, count: n } });
    }
    expect((await fullManifest(key, kb.id)).items).toEqual([]);
    expect((await pushed2(key, kb.id, ops(200))).results.filter((r) => r.status === "applied")).toHaveLength(200);
  });

  test("a v1-shaped body under v2 (upserts without sourceHash) is 409 SYNC_VERSION_MISMATCH; nothing applied", async () => {
    const { key } = await makeClient();
    const kb = await newKb(key);
    const res = await sync2(key, kb.id, [
      { op: "upsert", relativePath: "a.md", content: "a" },
      { op: "delete", relativePath: "b.md" },
    ]);
    expect(res.status).toBe(409);
    expect(res.body.code).toBe("SYNC_VERSION_MISMATCH");
    expect((await fullManifest(key, kb.id)).items).toEqual([]);
    // Deletes alone carry no hash under either version: a v2 batch of them is fine.
    expect((await sync2(key, kb.id, [delete2("b.md")])).status).toBe(200);
  });

  test("an update, move or upsert without sourceHash in a v2 body is 422 SYNC_HASH_REQUIRED at that op; nothing applied", async () => {
    const { key } = await makeClient();
    const kb = await newKb(key);
    const a = (await pushed2(key, kb.id, [upsert2("a.md", "a")])).results[0]!;
    for (const op of [
      { op: "update", docId: a.docId, content: "b", baseUpdatedAt: a.updatedAt },
      { op: "move", fromPath: "a.md", toPath: "b.md", baseUpdatedAt: a.updatedAt },
      { op: "upsert", relativePath: "c.md", content: "c" },
    ]) {
      const res = await sync2(key, kb.id, [upsert2("first.md", "first"), op]);
      expect(res.status).toBe(422);
      expect(res.body).toMatchObject({ code: "SYNC_HASH_REQUIRED", meta: { path: "body.ops.1.sourceHash", op: op.op } });
    }
    expect((await fullManifest(key, kb.id)).items.map((i) => i.relativePath)).toEqual(["a.md"]);
  });

  test("fields an op's kind carries are its shape: one missing is 422 VALIDATION_ERROR at it for the whole request", async () => {
    const { key } = await makeClient();
    const kb = await newKb(key);
    for (const [op, path] of [
      [{ op: "update", content: "x", sourceHash: sha256("x") }, "body.ops.1.docId"],
      [{ op: "update", docId: "d".repeat(21), sourceHash: sha256("x") }, "body.ops.1.content"],
      [{ op: "move", toPath: "b.md", sourceHash: sha256("x") }, "body.ops.1.fromPath"],
      [{ op: "move", fromPath: "a.md", sourceHash: sha256("x") }, "body.ops.1.toPath"],
      [{ op: "upsert", content: "x", sourceHash: sha256("x") }, "body.ops.1.relativePath"],
      [{ op: "delete" }, "body.ops.1.relativePath"],
      [{ op: "tombstone_ack" }, "body.ops.1.docId"],
    ] as const) {
      const res = await sync2(key, kb.id, [upsert2("first.md", "first"), op]);
      expect(res.status).toBe(422);
      expect(res.body).toMatchObject({ code: "VALIDATION_ERROR", meta: { path } });
    }
    expect((await fullManifest(key, kb.id)).items).toEqual([]);
  });

  test("conflictResolution: default or preserve_both under v2 (anything else 422); under v1 preserve_both, and v2 ops and fields, are 422", async () => {
    const { key } = await makeClient();
    const kb = await newKb(key);
    for (const mode of ["default", "preserve_both"]) {
      expect((await sync2(key, kb.id, [upsert2(`${mode}.md`, mode)], { query: `conflictResolution=${mode}` })).status).toBe(200);
    }
    expect((await sync2(key, kb.id, [upsert2("x.md", "x")], { query: "conflictResolution=overwrite" })).status).toBe(422);
    const v1 = await callJson("POST", `/v1/kbs/${kb.id}/sync?conflictResolution=preserve_both`, { token: key, json: { ops: [upsert("y.md", "y")] } });
    expect(v1.status).toBe(422);
    for (const [op, path] of [
      [{ op: "move", fromPath: "a.md", toPath: "b.md" }, "body.ops.0.op"],
      [{ ...upsert("a.md", "a"), baseHash: sha256("a") }, "body.ops.0.baseHash"],
    ] as const) {
      const res = await sync(key, kb.id, [op]);
      expect(res.status).toBe(422);
      expect(res.body.meta.path).toBe(path);
    }
    expect((await pushed(key, kb.id, [upsert("v1.md", "v1")])).applied).toHaveLength(1);
  });

  test("v2 sync tenancy: 401, 403 without kb.write, 404 for another user's KB (nothing written)", async () => {
    await expectTenantIsolation({
      method: "POST",
      path: (id) => `/v1/kbs/${id}/sync`,
      scope: "kb.write",
      create: async (owner) => (await newKb(owner.jwt)).id,
      request: () => ({ headers: V2, json: { ops: [upsert2("intruder.md", "x")] } }),
      untouched: async (owner, id) => expect((await walk2(owner.jwt, id)).items).toEqual([]),
    });
  });
});
