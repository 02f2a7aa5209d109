// readMarkdown reads plain prose (ATX headings and paragraphs) without the parser: what it
// says of any text must be what the parser says. Hand-picked edges, then generated texts
// built from the characters and line starts that make the difference.
import { describe, expect, test } from "bun:test";
import { countWords, parseMarkdown, plainFacts, readMarkdown } from "../../src/modules/documents/markdown.ts";
import { noteBatch } from "../../bench/kb-notes.ts";

let read = 0;
/** Checks readMarkdown against the parser; true when it took the short way. */
const same = (text: string) => {
  expect({ text, facts: readMarkdown(text) }).toEqual({ text, facts: parseMarkdown(text) });
  const short = plainFacts(text) !== null;
  if (short) read++;
  return short;
};

describe("readMarkdown", () => {
  test("edges of headings and paragraphs read as the parser reads them", () => {
    const cases = [
      "",
      "\n\n",
      "# Title\n\nBody text here.",
      "#",
      "# ",
      "#\tTabbed title",
      "#    Spaced   \n\ntext",
      "## Second\n# First\n",
      "#\n# Later\n\nx",
      "####### seven\n\nx",
      "#tag at line start",
      "# Title ##",
      "para one\npara one continued\n\npara two",
      "line with trailing space \nnext line",
      "line with two trailing spaces  \nnext line",
      "ends with blanks   ",
      "ends with blanks  \n\nafter",
      "text\n# heading interrupts\nmore",
      "text  \n# heading after trailing blanks",
      "Setext\n===",
      "Setext\n---",
      "---\ntitle: Front\n---\n\nbody",
      "- item\n- item",
      "+ item",
      "1. first\n2. second",
      "1) first",
      "2024 was a year. 3.5 things",
      "> quoted",
      "    indented code",
      "\tindented code",
      " one space",
      "emphasis *here* and _there_",
      "a [link](http://x.test) and ![img](y.png)",
      "visit www.example.com today",
      "mail me@example.test",
      "see http://example.test",
      "a &amp; b",
      "a <b>bold</b>",
      "a | table | row",
      "~~strike~~",
      "code `here`",
      "escaped \\# hash",
      "windows\r\nline",
      "tab\tinside a line",
      "issue #12 and C# and a -> b, 1 + 1 = 2 (ok) {x} $5 ! ? ; : ' \"",
      "漢字とかな交じり文の段落です。\n\n# 見出し",
      "nbsp\u00a0inside and\u00a0at end\u00a0",
      "\u00a0leading nbsp",
      "\ufeffBOM first",
      "a\u0000b",
      "form\ffeed",
      "# Heading only",
      "text\n\n\n\n# h\n\n\n",
    ];
    read = 0;
    for (const c of cases) same(c);
    // The plain ones among them took the short way.
    expect(read).toBeGreaterThanOrEqual(20);
  });

  test("generated texts", () => {
    // A fixed seed: a failure names its text and reproduces.
    let seed = 12345;
    const rand = (n: number) => {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      return seed % n;
    };
    const starts = ["", "", "", "# ", "## ", "#", "- ", "1. ", "> ", " ", "  ", "\t", "=", "-", "+", "2) "];
    const words = ["word", "Über", "漢字", "it's", "well-known", "a", "3.14", "#5", "x#y", "a>b", "(p)", "!", ":", "–", " ", "  ", "\t", ".", ","];
    read = 0;
    for (let n = 0; n < 1500; n++) {
      const lines: string[] = [];
      for (let l = rand(6); l >= 0; l--) {
        let line = starts[rand(starts.length)]!;
        for (let w = rand(6); w > 0; w--) line += `${words[rand(words.length)]}${rand(3) ? " " : ""}`;
        lines.push(line);
      }
      const text = lines.join("\n");
      same(text);
    }
    expect(read).toBeGreaterThan(150);
  }, 60_000);

  test("the notes sync benchmarks push are read without the parser, as the parser reads them", () => {
    let n = 0;
    for (const note of noteBatch("t", new Map(), () => n++, 10)) {
      expect(same(note.content)).toBe(true);
      expect(readMarkdown(note.content).firstH1).toMatch(/^Note \d+$/);
    }
  });

  test("countWords: letters and digits start words, marks and ' _ - continue them, each CJK character is one", () => {
    // The rule as written, one pattern test a character: countWords must agree with it.
    const reference = (text: string) => {
      let count = 0;
      let inWord = false;
      for (const ch of text) {
        if (/[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u.test(ch)) {
          count++;
          inWord = false;
        } else if (/[\p{L}\p{N}\p{M}'’_-]/u.test(ch)) {
          if (!inWord && /[\p{L}\p{N}]/u.test(ch)) {
            count++;
            inWord = true;
          }
        } else inWord = false;
      }
      return count;
    };
    expect(countWords("It's a well-known fact: 3 words_here, 漢字かな한글 and café\u0301 ’s -x")).toBe(
      reference("It's a well-known fact: 3 words_here, 漢字かな한글 and café\u0301 ’s -x"),
    );
    let seed = 7;
    const alphabet = ["a", "Z", "0", "'", "’", "_", "-", " ", ".", "\n", "é", "\u0301", "漢", "か", "한", "ß", "٣", "\t", "😀", "\u00a0"];
    for (let n = 0; n < 500; n++) {
      let text = "";
      for (let i = 0; i < 40; i++) {
        seed = (seed * 1103515245 + 12345) & 0x7fffffff;
        text += alphabet[seed % alphabet.length];
      }
      expect({ text, words: countWords(text) }).toEqual({ text, words: reference(text) });
    }
  });
});
