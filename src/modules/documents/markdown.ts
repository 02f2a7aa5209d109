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

export function countWords(text: string): number {
  let count = 0;
  let inWord = false;
  for (const ch of text) {
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

export function readMarkdown(source: string): MarkdownFacts {
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
  const chars = [...(excerpt ?? "")];
  return {
    frontmatterTitle: fm.title || undefined,
    frontmatterTags: fm.tags,
    firstH1: firstH1 || undefined,
    excerpt: chars.length > EXCERPT_LENGTH ? `${chars.slice(0, EXCERPT_LENGTH - 1).join("")}…` : chars.join(""),
    images,
    wordCount: countWords(prose.join(" ")),
  };
}
