// Bidi controls in KB paths (the one path rule, documents/path.ts): U+202A-U+202E,
// U+2066-U+2069, U+200E, U+200F and U+061C reorder what a listing shows, so every door a
// path enters by refuses them, as file names are refused: sync v1 and v2 (per op), a
// direct upload into a KB, raw by path, both ends of a move.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { call, callJson } from "../helpers/context.ts";
import { makeClient } from "../helpers/factories.ts";
import { del, fullManifest, newKb, pushed, upsert } from "./fixtures.ts";
import { delete2, move2, pushed2, upsert2 } from "./v2-fixtures.ts";
import { TEST_TIMEOUT_MS } from "../helpers/timeout.ts";

setDefaultTimeout(TEST_TIMEOUT_MS);

const BIDI = ["\u202a", "\u202b", "\u202c", "\u202d", "\u202e", "\u2066", "\u2067", "\u2068", "\u2069", "\u200e", "\u200f", "\u061c"];
const evil = (c: string) => `notes/${c}gnp.md`;
const refusal = (opIndex: number, field: string) => ({
  reason: "VALIDATION_ERROR",
  message: expect.stringContaining("bidirectional"),
  meta: { path: `body.ops.${opIndex}.${field}`, problem: "bidi-control" },
});

describe("bidi controls in KB paths are refused at every door", () => {
  test("sync v1: an upsert or delete at such a path is skipped VALIDATION_ERROR (bidi-control); nothing is stored there", async () => {
    const { key } = await makeClient();
    const kb = await newKb(key);
    const r = await pushed(key, kb.id, [...BIDI.map((c) => upsert(evil(c), "x")), del(evil("\u202e")), upsert("fine.md", "fine")]);
    expect(r.skipped).toEqual([
      ...BIDI.map((c, i) => ({ opIndex: i, op: "upsert", relativePath: evil(c), ...refusal(i, "relativePath") })),
      { opIndex: BIDI.length, op: "delete", relativePath: evil("\u202e"), ...refusal(BIDI.length, "relativePath") },
    ]);
    expect(r.applied.map((a) => a.relativePath)).toEqual(["fine.md"]);
    expect((await fullManifest(key, kb.id)).items.map((i) => i.relativePath)).toEqual(["fine.md"]);
  });

  test("sync v2: an upsert, a delete, a move's fromPath and a move's toPath with one are skipped; the document stays where it was", async () => {
    const { key } = await makeClient();
    const kb = await newKb(key);
    const a = (await pushed2(key, kb.id, [upsert2("a.md", "a")])).results[0]!;
    const { results } = await pushed2(key, kb.id, [
      upsert2(evil("\u202e"), "x"),
      delete2(evil("\u2066")),
      move2(evil("\u200f"), "b.md", "a", { baseUpdatedAt: a.updatedAt }),
      move2("a.md", evil("\u061c"), "a", { baseUpdatedAt: a.updatedAt }),
    ]);
    expect(results).toEqual([
      { opIndex: 0, op: "upsert", status: "skipped", docId: null, relativePath: evil("\u202e"), ...refusal(0, "relativePath") },
      { opIndex: 1, op: "delete", status: "skipped", docId: null, relativePath: evil("\u2066"), ...refusal(1, "relativePath") },
      { opIndex: 2, op: "move", status: "skipped", docId: null, relativePath: evil("\u200f"), ...refusal(2, "fromPath") },
      { opIndex: 3, op: "move", status: "skipped", docId: null, relativePath: "a.md", ...refusal(3, "toPath") },
    ]);
    expect((await fullManifest(key, kb.id)).items.map((i) => i.relativePath)).toEqual(["a.md"]);
  });

  test("POST /v1/docs into a KB: 422 VALIDATION_ERROR at body.relativePath, nothing stored", async () => {
    const { key } = await makeClient();
    const kb = await newKb(key);
    for (const c of BIDI) {
      const res = await callJson("POST", "/v1/docs", { token: key, json: { filename: "a.md", content: "x", kbId: kb.id, relativePath: evil(c) } });
      expect(res.status).toBe(422);
      expect(res.body).toMatchObject({ success: false, code: "VALIDATION_ERROR", meta: { path: "body.relativePath" } });
      expect(res.body.error).toContain("bidirectional");
    }
    expect((await callJson("GET", `/v1/kbs/${kb.id}`, { token: key })).body.data.docCount).toBe(0);
  });

  test("GET /v1/kbs/:id/raw?path= with one: 422 at query.path, not a lookup", async () => {
    const { key } = await makeClient();
    const kb = await newKb(key);
    for (const c of BIDI) {
      const res = await call("GET", `/v1/kbs/${kb.id}/raw?path=${encodeURIComponent(evil(c))}`, { token: key });
      expect(res.status).toBe(422);
      expect(res.headers.get("cache-control")).toBe("no-store");
      const body = (await res.json()) as { code: string; meta: { path: string } };
      expect(body).toMatchObject({ code: "VALIDATION_ERROR", meta: { path: "query.path" } });
    }
  });
});
