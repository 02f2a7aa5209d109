// What a Markdown document says about itself, read from its syntax tree (remark: CommonMark
// with GFM and YAML frontmatter), never by pattern-matching its text: the frontmatter's
// title and tags, the first H1, an excerpt, every image reference with the span of its
// URL in the source, and the words.
import type { Definition, Image, ImageReference, Nodes, Root } from "mdast";
import remarkFrontmatter from "remark-frontmatter";
import remarkGfm from "remark-gfm";
import remarkParse from "remark-parse";
import { unified } from "unified";
import { parse as parseYaml } from "yaml";

const parser = unified().use(remarkParse).use(remarkFrontmatter, ["yaml"]).use(remarkGfm);

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

/** Text of a node's inline content (what a reader sees, without markup). */
function textOf(node: Nodes): string {
  if ("value" in node && (node.type === "text" || node.type === "inlineCode")) return node.value;
  if (node.type === "image") return node.alt ?? "";
  if ("children" in node) return (node.children as Nodes[]).map(textOf).join("");
  return "";
}

/** Words of prose: runs of letters or digits, and each CJK character on its own (those scripts do not separate words with spaces). */
const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;
const WORD_CHAR = /[\p{L}\p{N}\p{M}'’_-]/u;

const WORD_START = /[\p{L}\p{N}]/u;
/** The classes of ASCII characters (0: none, 1: inside a word, 2: starts or continues one), so prose in ASCII takes no pattern test. */
const ASCII_CLASS = Uint8Array.from({ length: 128 }, (_, c) => {
  const ch = String.fromCharCode(c);
  return WORD_START.test(ch) ? 2 : WORD_CHAR.test(ch) ? 1 : 0;
});

export function countWords(text: string): number {
  let count = 0;
  let inWord = false;
  for (const ch of text) {
    const code = ch.charCodeAt(0);
    if (code < 128) {
      const c = ASCII_CLASS[code]!;
      if (c === 2 && !inWord) {
        count++;
        inWord = true;
      } else if (c === 0) inWord = false;
    } else if (CJK.test(ch)) {
      count++;
      inWord = false;
    } else if (WORD_CHAR.test(ch)) {
      if (!inWord && WORD_START.test(ch)) {
        count++;
        inWord = true;
      }
    } else inWord = false;
  }
  return count;
}

/** The span of `url` inside the node's own source text, searched from its end (the URL follows the alt text). */
function urlSpan(source: string, node: Image | Definition): [number, number] | null {
  const start = node.position?.start.offset;
  const end = node.position?.end.offset;
  if (start === undefined || end === undefined || !node.url) return null;
  const at = source.slice(start, end).lastIndexOf(node.url);
  return at < 0 ? null : [start + at, start + at + node.url.length];
}

function frontmatter(tree: Root): { title?: string; tags?: string[] } {
  const yaml = tree.children.find((n) => n.type === "yaml");
  if (yaml?.type !== "yaml") return {};
  let data: unknown;
  try {
    data = parseYaml(yaml.value, { maxAliasCount: 16 });
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

/** Characters that may open Markdown syntax anywhere in a line, or that the parser rewrites. */
const NOT_PLAIN = /[\\`*_[\]<&|~@\r\u0000-\u0008\u000b-\u001f\u007f\ufeff]|www\.|:\/\//i;
/** Line starts that open a block (quote, list, setext underline, thematic break, frontmatter, indented code). */
const BLOCK_START = /^(?:[>+=\-\s]|\d{1,9}[.)])/;
const ATX = /^(#{1,6})(?:[ \t]+([^#]*))?$/;
const trimBlanks = (s: string) => s.replace(/^[ \t]+|[ \t]+$/g, "");

/**
 * The facts of a document made only of ATX headings and paragraphs of plain prose, read
 * line by line; null for anything else, which the parser reads. In this subset the syntax
 * tree is known without building it: a heading is its trimmed text, a paragraph its lines
 * joined by newlines. Every character or line start that could open other syntax sends
 * the text to the parser (readMarkdown's results are the parser's either way; a test holds
 * the two equal). Sync stores notes of prose by the hundred, where the parser costs
 * milliseconds a note.
 */
export function plainFacts(source: string): MarkdownFacts | null {
  if (NOT_PLAIN.test(source)) return null;
  const lines = source.split("\n");
  const prose: string[] = [];
  let firstH1: string | undefined;
  let excerpt: string | undefined;
  let paragraph: string[] = [];
  const endParagraph = () => {
    if (!paragraph.length) return;
    const text = paragraph.join("\n");
    prose.push(text);
    if (excerpt === undefined) excerpt = text.replace(/\s+/g, " ").trim() || undefined;
    paragraph = [];
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (/^[ \t]*$/.test(line)) {
      endParagraph();
      continue;
    }
    if (line.startsWith("#")) {
      const h = ATX.exec(line);
      if (!h) return null;
      endParagraph();
      const text = trimBlanks(h[2] ?? "");
      if (text) prose.push(text);
      if (h[1]!.length === 1 && firstH1 === undefined) firstH1 = text;
      continue;
    }
    if (BLOCK_START.test(line)) return null;
    // Trailing blanks before another line of the paragraph are a line break (two or more)
    // or dropped (one): left to the parser. At the paragraph's end they are dropped.
    const trailing = /[ \t]$/.test(line);
    const next = lines[i + 1];
    if (trailing && next !== undefined && !/^[ \t]*$/.test(next) && !next.startsWith("#")) return null;
    paragraph.push(trailing ? trimBlanks(line) : line);
  }
  endParagraph();
  return finish({ firstH1, excerpt, images: [], prose });
}

function finish(f: {
  frontmatterTitle?: string;
  frontmatterTags?: string[];
  firstH1?: string;
  excerpt?: string;
  images: ImageRef[];
  prose: string[];
}): MarkdownFacts {
  const chars = [...(f.excerpt ?? "")];
  return {
    frontmatterTitle: f.frontmatterTitle || undefined,
    frontmatterTags: f.frontmatterTags,
    firstH1: f.firstH1 || undefined,
    excerpt: chars.length > EXCERPT_LENGTH ? `${chars.slice(0, EXCERPT_LENGTH - 1).join("")}…` : chars.join(""),
    images: f.images,
    wordCount: countWords(f.prose.join(" ")),
  };
}

export function readMarkdown(source: string): MarkdownFacts {
  return plainFacts(source) ?? parseMarkdown(source);
}

/** What the parser reads of `source` (readMarkdown takes a shorter way for plain prose). */
export function parseMarkdown(source: string): MarkdownFacts {
  const tree = parser.parse(source) as Root;
  const fm = frontmatter(tree);
  const definitions = new Map<string, Definition>();
  const refs: (Image | ImageReference)[] = [];
  let firstH1: string | undefined;
  let excerpt: string | undefined;
  const prose: string[] = [];

  const walk = (node: Nodes) => {
    switch (node.type) {
      case "definition":
        // The first definition of a label wins (CommonMark).
        if (!definitions.has(node.identifier)) definitions.set(node.identifier, node);
        return;
      case "image":
      case "imageReference":
        refs.push(node);
        break;
      case "heading":
        if (node.depth === 1 && firstH1 === undefined) firstH1 = textOf(node).trim();
        break;
      case "paragraph":
        if (excerpt === undefined) {
          const text = textOf(node).replace(/\s+/g, " ").trim();
          if (text) excerpt = text;
        }
        break;
      case "text":
      case "inlineCode":
        prose.push(node.value);
        return;
      case "code":
        prose.push(node.value);
        return;
      case "yaml":
      case "html":
        return;
    }
    if ("children" in node) for (const child of node.children as Nodes[]) walk(child);
  };
  walk(tree);

  // A definition several image references share is one URL: it is located (and rewritten) once.
  const images: ImageRef[] = [];
  for (const r of refs) {
    if (r.type === "image") images.push({ url: r.url, span: urlSpan(source, r) });
    else {
      const d = definitions.get(r.identifier);
      if (d) images.push({ url: d.url, span: urlSpan(source, d) });
      else images.push({ url: "", span: null });
    }
  }
  return finish({ frontmatterTitle: fm.title, frontmatterTags: fm.tags, firstH1, excerpt, images, prose });
}
