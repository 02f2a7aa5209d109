// Invisible characters in KB paths (the one path rule, documents/path.ts): zero-width and
// other format characters, U+2028 and U+2029 would make two paths that read the same, so
// every door a path enters by refuses them with the path rule's VALIDATION_ERROR
// (invisible-character). A joiner that shapes the letters of its script stays allowed.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { call, callJson } from "../helpers/context.ts";
import { makeClient } from "../helpers/factories.ts";
import { fullManifest, newKb, pushed, upsert } from "./fixtures.ts";
import { delete2, move2, pushed2, upsert2 } from "./v2-fixtures.ts";
import { TEST_TIMEOUT_MS } from "../helpers/timeout.ts";

setDefaultTimeout(TEST_TIMEOUT_MS);

/** One of each: zero-width space, ZWNJ and ZWJ between Latin letters, the line and paragraph separators, soft hyphen, word joiner, invisible times, BOM, a tag character, the interlinear annotation anchor. */
const INVISIBLE = ["\u200b", "\u200c", "\u200d", "\u2028", "\u2029", "\u00ad", "\u2060", "\u2062", "\ufeff", "\u{e0041}", "\ufff9"];
const hex = (c: string) => `U+${c.codePointAt(0)!.toString(16).toUpperCase()}`;
const hidden = (c: string) => `notes/read${c}me.md`;
const refusal = (opIndex: number, field: string) => ({
  reason: "VALIDATION_ERROR",
  message: expect.stringContaining("invisible"),
  meta: { path: `body.ops.${opIndex}.${field}`, problem: "invisible-character" },
});

describe("invisible characters in KB paths are refused at every door", () => {
  test("sync v2: an upsert, a delete and both ends of a move with U+200B are skipped per op with VALIDATION_ERROR; the other ops apply", async () => {
    const { key } = await makeClient();
    const kb = await newKb(key);
    const a = (await pushed2(key, kb.id, [upsert2("a.md", "a")])).results[0]!;
    const { results } = await pushed2(key, kb.id, [
      upsert2(hidden("\u200b"), "x"),
      delete2(hidden("\u200b")),
      move2(hidden("\u200b"), "b.md", "a", { baseUpdatedAt: a.updatedAt }),
      move2("a.md", hidden("\u200b"), "a", { baseUpdatedAt: a.updatedAt }),
      upsert2("fine.md", "fine"),
    ]);
    expect(results.slice(0, 4)).toEqual([
      { opIndex: 0, op: "upsert", status: "skipped", docId: null, relativePath: hidden("\u200b"), ...refusal(0, "relativePath") },
      { opIndex: 1, op: "delete", status: "skipped", docId: null, relativePath: hidden("\u200b"), ...refusal(1, "relativePath") },
      { opIndex: 2, op: "move", status: "skipped", docId: null, relativePath: hidden("\u200b"), ...refusal(2, "fromPath") },
      { opIndex: 3, op: "move", status: "skipped", docId: null, relativePath: "a.md", ...refusal(3, "toPath") },
    ]);
    expect(results[4]).toMatchObject({ opIndex: 4, status: "applied" });
    expect((await fullManifest(key, kb.id)).items.map((i) => i.relativePath).sort()).toEqual(["a.md", "fine.md"]);
  });

  test("sync v2 and v1: each invisible character is refused in an upsert's path", async () => {
    const { key } = await makeClient();
    const kb = await newKb(key);
    const v2 = await pushed2(
      key,
      kb.id,
      INVISIBLE.map((c) => upsert2(hidden(c), "x")),
    );
    for (const [i, c] of INVISIBLE.entries()) expect([hex(c), v2.results[i]]).toMatchObject([hex(c), { status: "skipped", ...refusal(i, "relativePath") }]);
    const v1 = await pushed(
      key,
      kb.id,
      INVISIBLE.map((c) => upsert(hidden(c), "x")),
    );
    expect(v1.skipped.map((s) => s.meta)).toEqual(INVISIBLE.map((_, i) => ({ path: `body.ops.${i}.relativePath`, problem: "invisible-character" })));
    expect((await fullManifest(key, kb.id)).items).toEqual([]);
  });

  test("POST /v1/docs into a KB: 422 VALIDATION_ERROR at body.relativePath, nothing stored; raw by path: 422 at query.path", async () => {
    const { key } = await makeClient();
    const kb = await newKb(key);
    for (const c of INVISIBLE) {
      const res = await callJson("POST", "/v1/docs", { token: key, json: { filename: "a.md", content: `x${hex(c)}`, kbId: kb.id, relativePath: hidden(c) } });
      expect([hex(c), res.status]).toEqual([hex(c), 422]);
      expect(res.body).toMatchObject({ success: false, code: "VALIDATION_ERROR", meta: { path: "body.relativePath" } });
      expect(res.body.error).toContain("invisible");
      const raw = await call("GET", `/v1/kbs/${kb.id}/raw?path=${encodeURIComponent(hidden(c))}`, { token: key });
      expect(raw.status).toBe(422);
    }
    expect((await callJson("GET", `/v1/kbs/${kb.id}`, { token: key })).body.data.docCount).toBe(0);
  });

  test("names in scripts that need a joiner are kept (Persian ZWNJ, a Devanagari conjunct); a joiner between emoji is not, in a path", async () => {
    const { key } = await makeClient();
    const kb = await newKb(key);
    const persian = "نامه\u200cها/می\u200cخواهم.md";
    const hindi = "क्\u200dष.md";
    const family = "👨\u200d👩\u200d👧.md";
    const { results } = await pushed2(key, kb.id, [upsert2(persian, "p"), upsert2(hindi, "h"), upsert2(family, "f")]);
    expect(results.map((r) => r.status)).toEqual(["applied", "applied", "skipped"]);
    expect(results[2]).toMatchObject(refusal(2, "relativePath"));
    expect((await fullManifest(key, kb.id)).items.map((i) => i.relativePath).sort()).toEqual([hindi, persian].sort());
  });
});
