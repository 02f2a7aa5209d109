// What a Markdown document says about itself, read from the parser's token stream
// (markdown-parser.ts: CommonMark with GFM and YAML frontmatter), never by pattern-matching
// its text: the frontmatter's title and tags, the first H1, an excerpt, every image
// reference with the span of its URL in the source, and the words.
import type Token from "markdown-it/lib/token.mjs";
import type { ImageSite, ParseEnv } from "./markdown-parser.ts";

// The parser (markdown-it and its plugins) and yaml load at the first document read, not at
// start: an api node that never reads Markdown does not hold them (docs/benchmarks.md,
// "Idle memory"). `require` keeps reading synchronous; the first read pays the load.
let parser: typeof import("./markdown-parser.ts") | undefined;
const parseMarkdown = (source: string) => (parser ??= require("./markdown-parser.ts") as typeof import("./markdown-parser.ts")).parseMarkdown(source);
let yaml: typeof import("yaml") | undefined;
const parseYaml = (text: string, options: { maxAliasCount: number }) => (yaml ??= require("yaml") as typeof import("yaml")).parse(text, options);

/** One image reference, in document order. */
export interface ImageRef {
  /** The URL as written (for `![x][ref]`, its definition's). */
  url: string;
  /**
   * Where that URL's text is in the source ([start, end) in string offsets), or null when
   * it cannot be located exactly (then it is never rewritten).
   */
  span: [number, number] | null;
}

export interface MarkdownFacts {
  frontmatterTitle?: string;
  frontmatterTags?: string[];
  firstH1?: string;
  /** The first paragraph's text, at most EXCERPT_LENGTH characters. */
  excerpt: string;
  images: ImageRef[];
  wordCount: number;
}

const EXCERPT_LENGTH = 200;

/** At most EXCERPT_LENGTH characters (code points), the last an ellipsis when cut; only the head of a long text is walked. */
function clipExcerpt(text: string): string {
  let n = 0;
  let kept = 0;
  for (const ch of text) {
    if (++n > EXCERPT_LENGTH) return `${text.slice(0, kept)}…`;
    if (n < EXCERPT_LENGTH) kept += ch.length;
  }
  return text;
}

/** Words of prose: runs of letters or digits, and each CJK character on its own (those scripts do not separate words with spaces). */
const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;
const WORD_CHAR = /[\p{L}\p{N}\p{M}'’_-]/u;

export function countWords(text: string): number {
  let count = 0;
  let inWord = false;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    // ASCII without the regular expressions: the same classes, and most of any text.
    if (code < 0x80) {
      if ((code >= 0x30 && code <= 0x39) || ((code | 0x20) >= 0x61 && (code | 0x20) <= 0x7a)) {
        if (!inWord) count++;
        inWord = true;
      } else if (!(code === 0x27 || code === 0x5f || code === 0x2d)) inWord = false;
      continue;
    }
    const point = text.codePointAt(i)!;
    const ch = String.fromCodePoint(point);
    if (point > 0xffff) i++;
    if (CJK.test(ch)) {
      count++;
      inWord = false;
    } else if (WORD_CHAR.test(ch)) {
      if (!inWord && /[\p{L}\p{N}]/u.test(ch)) {
        count++;
        inWord = true;
      }
    } else inWord = false;
  }
  return count;
}

/**
 * A title or excerpt's text of inline tokens (what a reader sees, without markup): an
 * inline image counts its alt text, an image by reference and a hard break nothing.
 */
function textOf(children: readonly Token[] | null): string {
  let out = "";
  for (const t of children ?? []) {
    if (t.type === "text" || t.type === "code_inline") out += t.content;
    else if (t.type === "softbreak") out += "\n";
    else if (t.type === "image" && !(t.meta as ImageSite | undefined)?.reference) out += textOf(t.children);
  }
  return out;
}

function frontmatter(value: string): { title?: string; tags?: string[] } {
  let data: unknown;
  try {
    data = parseYaml(value, { maxAliasCount: 16 });
  } catch {
    return {};
  }
  if (!data || typeof data !== "object" || Array.isArray(data)) return {};
  const { title, tags } = data as Record<string, unknown>;
  const out: { title?: string; tags?: string[] } = {};
  if (typeof title === "string" || typeof title === "number") out.title = String(title).trim();
  const list = typeof tags === "string" ? tags.split(",") : Array.isArray(tags) ? tags : [];
  const clean = list.filter((t): t is string | number => typeof t === "string" || typeof t === "number").map((t) => String(t).trim());
  if (clean.length) out.tags = clean;
  return out;
}

const isBlank = (c: string | undefined) => c === " " || c === "\t";

/**
 * A GFM task list item's check (`[ ]`, `[x]`) at the start of its first paragraph is no
 * text of it: removed from the paragraph's first text, as GFM reads it, with the one
 * space or tab after it. It must be followed by a line break, or by blanks then more text.
 */
function dropTaskCheck(children: Token[]): void {
  const head = children[0];
  if (head?.type !== "text") return;
  const c = head.content;
  if (c[0] !== "[" || !(isBlank(c[1]) || c[1] === "x" || c[1] === "X") || c[2] !== "]") return;
  if (c.length === 3) {
    if (children[1]?.type === "softbreak" || children[1]?.type === "hardbreak") children.shift();
    return;
  }
  if (!isBlank(c[3])) return;
  let rest = 4;
  while (isBlank(c[rest])) rest++;
  if (rest === c.length && children.length === 1) return;
  head.content = c.slice(4);
  if (!head.content) children.shift();
}

/** Where each line of the source starts and ends (before its line ending: \n, \r\n or \r, as the parser splits them). */
function lineIndex(source: string): { starts: number[]; ends: number[] } {
  const starts = [0];
  const ends: number[] = [];
  for (let i = 0; i < source.length; i++) {
    const c = source.charCodeAt(i);
    if (c !== 0x0a && c !== 0x0d) continue;
    ends.push(i);
    if (c === 0x0d && source.charCodeAt(i + 1) === 0x0a) i++;
    starts.push(i + 1);
  }
  ends.push(source.length);
  return { starts, ends };
}

/**
 * The span of an image's URL in the source: its inline text's line found in the source
 * line it came from (once only: else it cannot be told apart, and is not located), or the
 * URL's first place after its definition's label.
 */
function locate(source: string, lines: ReturnType<typeof lineIndex>, env: ParseEnv, at: ImageSite | undefined, url: string): [number, number] | null {
  if (!at?.site || !url) return null;
  if ("definition" in at.site) {
    const range = env.definitionLines.get(at.site.definition);
    if (!range) return null;
    const start = lines.starts[range[0]]!;
    const text = source.slice(start, lines.ends[range[1] - 1]);
    // The destination is the first thing after the label (a title may repeat the URL).
    let close = text.indexOf("[") + 1;
    while (close > 0 && close < text.length && text[close] !== "]") close += text[close] === "\\" ? 2 : 1;
    const found = close > 0 ? text.indexOf(url, close) : -1;
    return found < 0 ? null : [start + found, start + found + url.length];
  }
  const [a, b] = at.site.inline;
  const text = at.text;
  const lineStart = text.lastIndexOf("\n", a - 1) + 1;
  let lineEnd = text.indexOf("\n", a);
  if (lineEnd < 0) lineEnd = text.length;
  if (!at.lines || b > lineEnd) return null;
  let line = at.lines[0];
  for (let i = text.indexOf("\n"); i >= 0 && i < lineStart; i = text.indexOf("\n", i + 1)) line++;
  if (line >= at.lines[1] || line >= lines.starts.length) return null;
  // Without its leading blanks: the parser writes a tab it takes apart as spaces.
  let from = lineStart;
  while (from < a && (text[from] === " " || text[from] === "\t")) from++;
  const own = text.slice(from, lineEnd);
  const sourceLine = source.slice(lines.starts[line], lines.ends[line]);
  const found = sourceLine.indexOf(own);
  if (found < 0 || sourceLine.indexOf(own, found + 1) >= 0) return null;
  const start = lines.starts[line]! + found + (a - from);
  return source.slice(start, start + (b - a)) === url ? [start, start + (b - a)] : null;
}

export function readMarkdown(source: string): MarkdownFacts {
  const { tokens, env } = parseMarkdown(source);
  let fm: { title?: string; tags?: string[] } = {};
  let firstH1: string | undefined;
  let excerpt: string | undefined;
  const prose: string[] = [];
  const found: { url: string; at: ImageSite | undefined }[] = [];

  for (const [i, t] of tokens.entries()) {
    switch (t.type) {
      case "front_matter":
        fm = frontmatter(t.content);
        break;
      case "heading_open":
        if (t.tag === "h1" && firstH1 === undefined) firstH1 = textOf(tokens[i + 1]!.children).trim();
        break;
      case "paragraph_open": {
        const inline = tokens[i + 1]!;
        if (tokens[i - 1]?.type === "list_item_open") dropTaskCheck(inline.children!);
        if (excerpt === undefined) {
          const text = textOf(inline.children).replace(/\s+/g, " ").trim();
          if (text) excerpt = text;
        }
        break;
      }
      case "inline":
        for (const c of t.children!) {
          if (c.type === "text" || c.type === "code_inline") prose.push(c.content);
          else if (c.type === "image") found.push({ url: c.attrGet("src") ?? "", at: c.meta as ImageSite | undefined });
        }
        break;
      case "fence":
      case "code_block":
        prose.push(t.content);
        break;
    }
  }

  const lines = found.length ? lineIndex(source) : { starts: [], ends: [] };
  const images: ImageRef[] = found.map((f) => ({ url: f.url, span: locate(source, lines, env, f.at, f.url) }));
  return {
    frontmatterTitle: fm.title || undefined,
    frontmatterTags: fm.tags,
    firstH1: firstH1 || undefined,
    excerpt: clipExcerpt(excerpt ?? ""),
    images,
    wordCount: countWords(prose.join(" ")),
  };
}
