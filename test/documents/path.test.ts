// The one relative-path rule, on its own: NFC first, then the rules; the
// case-folded key that decides whether two spellings are one path in a KB.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { normalizePath, pathProblemText } from "../../src/modules/library/public.ts";
import { TEST_TIMEOUT_MS } from "../helpers/timeout.ts";

setDefaultTimeout(TEST_TIMEOUT_MS);

const ok = (p: string) => {
  const r = normalizePath(p);
  if (!r.ok) throw new Error(`${JSON.stringify(p)} refused: ${r.problem}`);
  return r;
};

describe("normalizePath", () => {
  test("NFC and NFD spellings of one name are one path, stored as NFC", () => {
    const nfc = ok("notes/caf\u00e9.md");
    const nfd = ok("notes/cafe\u0301.md");
    expect(nfd.path).toBe("notes/caf\u00e9.md");
    expect(nfd).toEqual(nfc);
    expect(ok("\u1100\u1161.md").path).toBe("\uac00.md");
  });

  test("each rule, judged after NFC", () => {
    const problems: [string, string][] = [
      ["", "empty"],
      ["/a", "leading-slash"],
      ["a\\b", "backslash"],
      ["../x", "dot-dot"],
      ["a/../b", "dot-dot"],
      ["a/..", "dot-dot"],
      ["./a", "dot"],
      ["a//b", "empty-segment"],
      ["a/", "empty-segment"],
      ["a\u0000b", "control-character"],
      ["a\tb", "control-character"],
      ["a\u0085b", "control-character"],
      ...["\u202a", "\u202b", "\u202c", "\u202d", "\u202e", "\u2066", "\u2067", "\u2068", "\u2069", "\u200e", "\u200f", "\u061c"].map((c): [string, string] => [
        `dir/${c}evil.md`,
        "bidi-control",
      ]),
      ["a\ud800b", "ill-formed"],
      ["x".repeat(1025), "too-long"],
      [`${"x".repeat(256)}/a`, "segment-too-long"],
    ];
    for (const [p, problem] of problems) {
      expect(normalizePath(p)).toEqual({ ok: false, problem: problem as never });
      expect(pathProblemText(problem as never)).toBeString();
    }
  });

  test("limits count characters (code points) after NFC: 1024 in all, 255 a segment; hidden files, CJK and emoji are fine", () => {
    ok(`${"x/".repeat(511)}yy`);
    ok("e\u0301".repeat(255));
    expect(normalizePath("😀".repeat(256))).toEqual({ ok: false, problem: "segment-too-long" });
    ok("😀".repeat(255));
    for (const p of [".obsidian/app.json", "a/.hidden", "日本語/メモ.md", "...", "a..b", "a b/c"]) ok(p);
  });

  test("the key folds letter case, so Notes.md and notes.MD collide (ß and SS too), while the path keeps its spelling", () => {
    expect(ok("Dir/Notes.md").key).toBe(ok("dir/notes.MD").key);
    expect(ok("Straße.md").key).toBe(ok("STRASSE.md").key);
    expect(ok("Ä.md").key).toBe(ok("a\u0308.md").key);
    expect(ok("Dir/Notes.md").path).toBe("Dir/Notes.md");
    expect(ok("a.md").key).not.toBe(ok("b.md").key);
  });
});
