// Ops run independently: a sync op whose values break a rule (a path, its
// content, its base) is skipped with reason VALIDATION_ERROR, under v1 and v2, while the
// batch's other ops apply; the request's shape (op count, fields, hashes) still refuses
// it whole. Every op's answer carries its opIndex.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { makeClient } from "../helpers/factories.ts";
import { del, fullManifest, newKb, pushed, sha256, sync, upsert } from "./fixtures.ts";
import { delete2, move2, type OpResult, pushed2, sync2, update2, upsert2 } from "./v2-fixtures.ts";
import { TEST_TIMEOUT_MS } from "../helpers/timeout.ts";

setDefaultTimeout(TEST_TIMEOUT_MS);

/** Paths that break a rule, and the rule (the path rule's problem). */
const BAD_PATHS: [string, string][] = [
  ["../x.md", "dot-dot"],
  ["a/../b.md", "dot-dot"],
  ["a\\b.md", "backslash"],
  ["/a.md", "leading-slash"],
  ["a//b.md", "empty-segment"],
  ["a/", "empty-segment"],
  ["", "empty"],
  ["./a.md", "dot"],
  [`${"s".repeat(256)}.md`, "segment-too-long"],
  [`${"p/".repeat(600)}x.md`, "too-long"],
  ["a\ud800.md", "ill-formed"],
  ["x\u0000y.md", "control-character"],
  ["\u202Eevil.md", "bidi-control"],
  ["dir/\u2066x.md", "bidi-control"],
];

const skippedAt = (opIndex: number, field: string, problem: string) => ({
  reason: "VALIDATION_ERROR",
  message: expect.any(String),
  meta: { path: `body.ops.${opIndex}.${field}`, problem },
});

const activePaths = async (key: string, kbId: string) =>
  (await fullManifest(key, kbId)).items
    .filter((i) => !i.deletedAt)
    .map((i) => i.relativePath)
    .sort();

describe("v1: a value that breaks a rule skips its op", () => {
  test("[good, bad path, good]: both good ops apply (in the manifest), op 1 is skipped VALIDATION_ERROR with the path as sent", async () => {
    const { key } = await makeClient();
    const kb = await newKb(key);
    for (const [i, [bad, problem]] of BAD_PATHS.entries()) {
      const r = await pushed(key, kb.id, [upsert(`g${i}-a.md`, "a"), upsert(bad, "x"), upsert(`g${i}-b.md`, "b")]);
      expect(r.applied.map((a) => [a.opIndex, a.relativePath])).toEqual([
        [0, `g${i}-a.md`],
        [2, `g${i}-b.md`],
      ]);
      expect(r.conflicts).toEqual([]);
      expect(r.skipped).toEqual([{ opIndex: 1, op: "upsert", relativePath: bad, ...skippedAt(1, "relativePath", problem) }]);
    }
    expect(await activePaths(key, kb.id)).toEqual(BAD_PATHS.flatMap((_, i) => [`g${i}-a.md`, `g${i}-b.md`]).sort());
  });

  test("a delete at a bad path, content with NUL or a lone surrogate, a base that is no calendar instant: skipped at that field", async () => {
    const { key } = await makeClient();
    const kb = await newKb(key);
    const r = await pushed(key, kb.id, [
      del("../gone.md", "2026-01-01T00:00:00.000Z"),
      upsert("Cafe\u0301.md", "nul\u0000"),
      { op: "upsert", relativePath: "lone.md", content: "lone \ud800" },
      upsert("feb.md", "x", "2026-02-30T00:00:00.000Z"),
      upsert("year0.md", "x", "0000-01-01T00:00:00Z"),
      upsert("fine.md", "fine"),
    ]);
    expect(r.skipped).toEqual([
      { opIndex: 0, op: "delete", relativePath: "../gone.md", ...skippedAt(0, "relativePath", "dot-dot") },
      // The path itself is fine: it is answered normalized (NFC).
      { opIndex: 1, op: "upsert", relativePath: "Café.md", ...skippedAt(1, "content", "nul") },
      { opIndex: 2, op: "upsert", relativePath: "lone.md", ...skippedAt(2, "content", "ill-formed") },
      { opIndex: 3, op: "upsert", relativePath: "feb.md", ...skippedAt(3, "baseUpdatedAt", "not-an-instant") },
      { opIndex: 4, op: "upsert", relativePath: "year0.md", ...skippedAt(4, "baseUpdatedAt", "not-an-instant") },
    ]);
    expect(r.applied).toEqual([
      { opIndex: 5, op: "upsert", relativePath: "fine.md", id: expect.any(String), updatedAt: expect.any(String), sourceHash: sha256("fine") },
    ]);
    expect(await activePaths(key, kb.id)).toEqual(["fine.md"]);
  });

  test("every op's entry, applied, conflict or skipped, carries its opIndex", async () => {
    const { key } = await makeClient();
    const kb = await newKb(key);
    const first = await pushed(key, kb.id, [upsert("a.md", "a")]);
    expect(first.applied[0]!.opIndex).toBe(0);
    const r = await pushed(key, kb.id, [del("none.md"), upsert("a.md", "no base"), upsert("b.md", "b")]);
    expect(r.skipped.map((s) => [s.opIndex, s.reason])).toEqual([[0, "NOT_FOUND"]]);
    expect(r.conflicts.map((c) => [c.opIndex, c.reason])).toEqual([[1, "BASE_MISSING"]]);
    expect(r.applied.map((a) => a.opIndex)).toEqual([2]);
  });

  test("a batch of 101 ops is still 422 INVALID_OP_BATCH_SIZE for the whole request, bad paths among them or not", async () => {
    const { key } = await makeClient({ plan: "pro" });
    const kb = await newKb(key);
    const ops = [...Array.from({ length: 100 }, (_, i) => upsert(`n${i}.md`, `${i}`)), upsert("../x.md", "x")];
    const res = await sync(key, kb.id, ops);
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({ success: false, code: "INVALID_OP_BATCH_SIZE", meta: { max: 100, count: 101 } });
    expect(await activePaths(key, kb.id)).toEqual([]);
  });
});

describe("v2: a value that breaks a rule skips its op", () => {
  test("[good, bad path, good]: both good ops apply, op 1 is results[1] skipped VALIDATION_ERROR", async () => {
    const { key } = await makeClient();
    const kb = await newKb(key);
    for (const [i, [bad, problem]] of BAD_PATHS.entries()) {
      const { results } = await pushed2(key, kb.id, [upsert2(`g${i}-a.md`, "a"), upsert2(bad, "x"), upsert2(`g${i}-b.md`, "b")]);
      expect(results.map((r) => [r.opIndex, r.status])).toEqual([
        [0, "applied"],
        [1, "skipped"],
        [2, "applied"],
      ]);
      expect(results[1]).toEqual({ opIndex: 1, op: "upsert", status: "skipped", docId: null, relativePath: bad, ...skippedAt(1, "relativePath", problem) });
    }
    expect(await activePaths(key, kb.id)).toEqual(BAD_PATHS.flatMap((_, i) => [`g${i}-a.md`, `g${i}-b.md`]).sort());
  });

  test("each op kind: a move's fromPath or toPath, a delete's path, an update's content, a tombstone_ack's path, a base; each skipped at its field", async () => {
    const { key } = await makeClient();
    const kb = await newKb(key);
    const a = (await pushed2(key, kb.id, [upsert2("a.md", "a")])).results[0]!;
    const { results } = await pushed2(key, kb.id, [
      move2("a.md", "\u202Eb.md", "a", { baseUpdatedAt: a.updatedAt }),
      move2("../a.md", "b.md", "a", { baseUpdatedAt: a.updatedAt }),
      delete2("a\\b.md"),
      update2(a.docId!, "nul\u0000", { baseUpdatedAt: a.updatedAt }),
      { op: "tombstone_ack", docId: a.docId, relativePath: "/a.md" },
      update2(a.docId!, "x", { baseHash: "nothex" }),
      update2(a.docId!, "x", { baseUpdatedAt: "2026-02-30T00:00:00Z" }),
      move2("a.md", "moved.md", "a", { baseUpdatedAt: a.updatedAt }),
    ]);
    expect(results.slice(0, 7)).toEqual([
      { opIndex: 0, op: "move", status: "skipped", docId: null, relativePath: "a.md", ...skippedAt(0, "toPath", "bidi-control") },
      { opIndex: 1, op: "move", status: "skipped", docId: null, relativePath: "../a.md", ...skippedAt(1, "fromPath", "dot-dot") },
      { opIndex: 2, op: "delete", status: "skipped", docId: null, relativePath: "a\\b.md", ...skippedAt(2, "relativePath", "backslash") },
      { opIndex: 3, op: "update", status: "skipped", docId: a.docId, ...skippedAt(3, "content", "nul") },
      { opIndex: 4, op: "tombstone_ack", status: "skipped", docId: null, relativePath: "/a.md", ...skippedAt(4, "relativePath", "leading-slash") },
      { opIndex: 5, op: "update", status: "skipped", docId: a.docId, ...skippedAt(5, "baseHash", "not-sha256-hex") },
      { opIndex: 6, op: "update", status: "skipped", docId: a.docId, ...skippedAt(6, "baseUpdatedAt", "not-an-instant") },
    ]);
    expect(results[7]).toMatchObject({ opIndex: 7, op: "move", status: "applied", docId: a.docId, relativePath: "moved.md", fromPath: "a.md" });
    expect(await activePaths(key, kb.id)).toEqual(["moved.md"]);
  });

  test("an update's or tombstone_ack's docId that cannot be an id (NUL, a lone surrogate, a path) is NOT_FOUND for that op, as an unknown id is", async () => {
    const { key } = await makeClient();
    const kb = await newKb(key);
    const odd = ["a\u0000b", "\ud800", "../x", "x".repeat(64)];
    const { results } = await pushed2(key, kb.id, [
      ...odd.map((docId) => ({ op: "update", docId, content: "x", sourceHash: sha256("x") })),
      ...odd.map((docId) => ({ op: "tombstone_ack", docId })),
      upsert2("fine.md", "fine"),
    ]);
    expect(results.slice(0, odd.length)).toEqual(
      odd.map((docId, opIndex) => ({ opIndex, op: "update", status: "skipped", docId, reason: "NOT_FOUND", message: "no document with this id in this KB" })),
    );
    expect(results.slice(odd.length, 2 * odd.length).map((r) => [r.op, r.status, r.docId, r.reason])).toEqual(
      odd.map(() => ["tombstone_ack", "skipped", null, "NOT_FOUND"]),
    );
    expect(results[2 * odd.length]).toMatchObject({ status: "applied", relativePath: "fine.md" });
  });

  test("default mode: a conflict elsewhere in the batch is still 409 SYNC_CONFLICT; the skipped op is in meta.results and the good op stays applied", async () => {
    const { key } = await makeClient();
    const kb = await newKb(key);
    const a = (await pushed2(key, kb.id, [upsert2("a.md", "master")])).results[0]!;
    const res = await sync2(key, kb.id, [
      upsert2("new.md", "fresh"),
      upsert2("../x.md", "x"),
      update2(a.docId!, "from a stale base", { baseUpdatedAt: "2020-01-01T00:00:00.000Z" }),
    ]);
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ success: false, code: "SYNC_CONFLICT" });
    const results = res.body.meta.results as OpResult[];
    expect(results.map((r) => [r.opIndex, r.status, r.reason ?? null])).toEqual([
      [0, "applied", null],
      [1, "skipped", "VALIDATION_ERROR"],
      [2, "conflict", "REMOTE_NEWER"],
    ]);
    expect(results[1]!.meta).toEqual({ path: "body.ops.1.relativePath", problem: "dot-dot" });
    expect(await activePaths(key, kb.id)).toEqual(["a.md", "new.md"]);
  });

  test("the request's shape still refuses it whole: 201 ops, or an op without sourceHash, whatever bad paths the batch holds", async () => {
    const { key } = await makeClient({ plan: "pro" });
    const kb = await newKb(key);
    const over = await sync2(key, kb.id, [...Array.from({ length: 200 }, (_, i) => upsert2(`n${i}.md`, `${i}`)), upsert2("../x.md", "x")]);
    expect(over.status).toBe(422);
    expect(over.body).toMatchObject({ code: "INVALID_OP_BATCH_SIZE", meta: { max: 200, count: 201 } });
    const unhashed = await sync2(key, kb.id, [upsert2("fine.md", "fine"), upsert2("../x.md", "x"), { op: "upsert", relativePath: "../y.md", content: "y" }]);
    expect(unhashed.status).toBe(422);
    expect(unhashed.body).toMatchObject({ code: "SYNC_HASH_REQUIRED", meta: { path: "body.ops.2.sourceHash" } });
    expect(await activePaths(key, kb.id)).toEqual([]);
  });
});
