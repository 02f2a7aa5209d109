// How the notes of a KB name each other, as Obsidian reads them: YAML front matter at the
// top, [[wikilinks]] and ![[embeds]] (with a heading, a block or an alias), and relative
// Markdown links; and how a KB's paths resolve such a name. One file for both readers: the
// backlinks route (links.ts) scans notes with it and the dashboard draws them with it
// (dashboard/markdown.ts imports this file), so a link the page shows as resolved is the
// one the backlinks count. It is pure: markdown-it's types only, no server or DOM code.
import type MarkdownIt from "markdown-it";
import type StateBlock from "markdown-it/lib/rules_block/state_block.mjs";
import type StateInline from "markdown-it/lib/rules_inline/state_inline.mjs";
import type Token from "markdown-it/lib/token.mjs";

/** One [[wikilink]] or ![[embed]], as written. */
export interface Wikilink {
  /** The note or file it names: a name or a path ("" for a heading of the same note). */
  target: string;
  /** The heading after "#" (the last one of "#A#B"), or null. */
  heading: string | null;
  /** The block after "#^", or null. */
  block: string | null;
  /** The text after "|" (for an image embed, its size or alt text), or null. */
  alias: string | null;
  embed: boolean;
}

/** The inside of `[[...]]`: "Note", "folder/Note#Heading|shown"; `\|` (a pipe escaped in a table) is a pipe. Null when it names nothing. */
export function parseWikilink(inner: string, embed: boolean): Wikilink | null {
  const bar = inner.search(/\\?\|/);
  const body = bar < 0 ? inner : inner.slice(0, bar);
  const alias = bar < 0 ? null : inner.slice(bar + (inner[bar] === "\\" ? 2 : 1)).trim() || null;
  const hash = body.indexOf("#");
  const target = (hash < 0 ? body : body.slice(0, hash)).trim();
  const fragment = hash < 0 ? "" : body.slice(hash + 1).trim();
  const block = fragment.startsWith("^") ? fragment.slice(1).trim() || null : null;
  const heading =
    block || !fragment
      ? null
      : (fragment
          .split("#")
          .map((s) => s.trim())
          .filter(Boolean)
          .pop() ?? null);
  if (!target && !heading && !block) return null;
  return { target, heading, block, alias, embed };
}

/** The inline rule: `[[...]]` or `![[...]]` on one line, without brackets inside, is a `wikilink` token (its meta the Wikilink). */
function wikilinkRule(state: StateInline, silent: boolean): boolean {
  const src = state.src;
  const embed = src.charCodeAt(state.pos) === 0x21; /* ! */
  const open = state.pos + (embed ? 1 : 0);
  if (src.charCodeAt(open) !== 0x5b || src.charCodeAt(open + 1) !== 0x5b) return false;
  const close = src.indexOf("]]", open + 2);
  if (close < 0 || close + 2 > state.posMax) return false;
  const inner = src.slice(open + 2, close);
  if (/[[\]\n]/.test(inner)) return false;
  const link = parseWikilink(inner, embed);
  if (!link) return false;
  if (!silent) {
    const token = state.push("wikilink", "", 0);
    token.meta = link;
    token.content = inner;
    token.markup = embed ? "![[" : "[[";
  }
  state.pos = close + 2;
  return true;
}

/**
 * YAML front matter as micromark's frontmatter extension reads it, for the server's parser
 * (documents/markdown-parser.ts) and the dashboard alike: a first line `---`, a later line
 * `---`, the lines between its value; without a closing line there is none.
 */
export function frontMatterRule(state: StateBlock, startLine: number, endLine: number, silent: boolean): boolean {
  if (startLine !== 0 || state.blkIndent !== 0 || state.bMarks[0] !== 0 || state.tShift[0] !== 0) return false;
  const fenceAt = (line: number) => {
    let pos = state.bMarks[line]!;
    if (line === 0 && state.src.charCodeAt(0) === 0xfeff) pos++;
    if (state.src.slice(pos, pos + 3) !== "---") return false;
    return /^[ \t]*$/.test(state.src.slice(pos + 3, state.eMarks[line]!));
  };
  if (!fenceAt(0) || startLine + 1 >= endLine) return false;
  let close = 1;
  while (close < endLine && !fenceAt(close)) close++;
  if (close >= endLine) return false;
  if (silent) return true;
  const token = state.push("front_matter", "", 0);
  token.content = close > 1 ? state.src.slice(state.bMarks[1], state.eMarks[close - 1]) : "";
  token.map = [0, close + 1];
  token.block = true;
  token.hidden = true;
  state.line = close + 1;
  return true;
}

/**
 * Obsidian's comments, `%%like this%%`, are the writer's and are never shown: inline, up to
 * the next `%%` of the paragraph (an unclosed `%%` is text), and as a block, from a line
 * that starts with `%%` to the line that ends with one. Their links are not links.
 */
function commentInline(state: StateInline, silent: boolean): boolean {
  const src = state.src;
  if (src.charCodeAt(state.pos) !== 0x25 || src.charCodeAt(state.pos + 1) !== 0x25) return false;
  const close = src.indexOf("%%", state.pos + 2);
  if (close < 0 || close + 2 > state.posMax) return false;
  if (!silent) state.push("comment", "", 0).hidden = true;
  state.pos = close + 2;
  return true;
}

function commentBlock(state: StateBlock, startLine: number, endLine: number, silent: boolean): boolean {
  if (state.sCount[startLine]! - state.blkIndent >= 4) return false;
  const lineText = (line: number) => state.src.slice(state.bMarks[line]! + state.tShift[line]!, state.eMarks[line]!).trimEnd();
  const first = lineText(startLine);
  if (!first.startsWith("%%")) return false;
  let last = startLine;
  if (!(first.length >= 4 && first.endsWith("%%"))) {
    last = startLine + 1;
    while (last < endLine && !lineText(last).endsWith("%%")) last++;
    if (last >= endLine) return false;
  }
  if (silent) return true;
  const token = state.push("comment", "", 0);
  token.map = [startLine, last + 1];
  token.block = true;
  token.hidden = true;
  state.line = last + 1;
  return true;
}

/** The plugin: front matter (`front_matter` tokens), wikilinks (`wikilink` tokens) and comments (hidden) for a markdown-it instance. */
export function noteSyntax(md: MarkdownIt): void {
  md.block.ruler.before("table", "front_matter", frontMatterRule, { alt: [] });
  md.block.ruler.before("table", "comment", commentBlock, { alt: ["paragraph"] });
  md.inline.ruler.before("link", "wikilink", wikilinkRule);
  md.inline.ruler.before("emphasis", "comment", commentInline);
  // A hidden token renders as nothing, whatever the renderer's other rules.
  md.renderer.rules.comment = () => "";
}

/** The wikilinks written in front matter values (Obsidian's link properties, such as `related: "[[Plan]]"`). */
function propertyLinks(yamlText: string): Wikilink[] {
  const out: Wikilink[] = [];
  for (const m of yamlText.matchAll(/(!?)\[\[([^[\]\n]+)\]\]/g)) {
    const link = parseWikilink(m[2]!, m[1] === "!");
    if (link) out.push(link);
  }
  return out;
}

/** What a note points at: its wikilinks and embeds (front matter's included) and the hrefs of its Markdown links and images. */
export type NoteTarget = { wikilink: Wikilink } | { href: string };

/** The targets in a parsed note's tokens, in order. */
export function targetsOf(tokens: Token[]): NoteTarget[] {
  const out: NoteTarget[] = [];
  const walk = (list: Token[]) => {
    for (const t of list) {
      if (t.type === "front_matter") out.push(...propertyLinks(t.content).map((wikilink) => ({ wikilink })));
      else if (t.type === "wikilink") out.push({ wikilink: t.meta as Wikilink });
      else if (t.type === "link_open") out.push({ href: t.attrGet("href") ?? "" });
      else if (t.type === "image") out.push({ href: t.attrGet("src") ?? "" });
      if (t.children) walk(t.children);
    }
  };
  walk(tokens);
  return out;
}

/**
 * A Markdown link's destination as a place in the KB: its path (percent-escapes decoded)
 * and the anchor after "#". Null for a link that leaves the KB: a scheme (https:, mailto:)
 * or a network path (//host); `path` is "" for an anchor of the same note.
 */
export function relativeHref(href: string): { path: string; anchor: string | null } | null {
  if (/^[a-z][a-z0-9+.-]*:/i.test(href) || href.startsWith("//")) return null;
  const hash = href.indexOf("#");
  const beforeHash = hash < 0 ? href : href.slice(0, hash);
  const query = beforeHash.indexOf("?");
  const decode = (s: string) => {
    try {
      return decodeURIComponent(s);
    } catch {
      return s;
    }
  };
  return { path: decode(query < 0 ? beforeHash : beforeHash.slice(0, query)), anchor: hash < 0 ? null : decode(href.slice(hash + 1)) || null };
}

/** A heading's anchor: lower case, letters, digits, "-" and "_", spaces as "-" (the dashboard's heading ids and a [[Note#Heading]] agree). */
export const headingSlug = (text: string) =>
  text
    .normalize("NFC")
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\p{M}\s_-]/gu, "")
    .replace(/\s+/g, "-") || "section";

const TEXT_DOCUMENT = /\.(md|markdown|typ)$/i;
/** Letter case folded as the server folds a path's key (documents/path.ts): upper then lower case, NFC. */
const fold = (s: string) => s.normalize("NFC").toUpperCase().toLowerCase().normalize("NFC");
const folderOf = (path: string) => (path.includes("/") ? path.slice(0, path.lastIndexOf("/")) : "");
const nameOf = (path: string) => path.slice(path.lastIndexOf("/") + 1);
/** A document's path without its extension (a note is named without it); any other file keeps it. */
const withoutTextExtension = (path: string) => (TEXT_DOCUMENT.test(path) ? path.replace(TEXT_DOCUMENT, "") : path);

/** `rel` from the folder `dir`, "." and ".." applied; null when it climbs above the KB's top. */
function join(dir: string, rel: string): string | null {
  const out = dir ? dir.split("/") : [];
  for (const segment of rel.split("/")) {
    if (segment === "" || segment === ".") continue;
    if (segment === "..") {
      if (!out.length) return null;
      out.pop();
    } else out.push(segment);
  }
  return out.join("/");
}

/**
 * A KB's paths, for resolving what its notes name (Obsidian's rules): a name ("Note": a
 * document whose file name without its extension is that, or any file by its full name),
 * or a path from the top ("folder/Note", "/Note", the extension optional for a
 * document), matched whatever the letter case. Of several names alike, the one in the
 * linking note's folder wins, then the shortest path, then Markdown before Typst, then the
 * first by name. A path with a folder that matches no path from the top matches the end of
 * longer paths ("sub/Note" finds "a/sub/Note.md").
 */
export class LinkIndex {
  private readonly byPath = new Map<string, string>();
  private readonly byName = new Map<string, string[]>();
  private readonly folders = new Map<string, string>();

  constructor(paths: Iterable<string>) {
    for (const path of paths) {
      this.byPath.set(fold(path), path);
      const names = new Set([fold(nameOf(path)), fold(nameOf(withoutTextExtension(path)))]);
      for (const n of names) this.byName.set(n, [...(this.byName.get(n) ?? []), path]);
      for (let dir = folderOf(path); dir && !this.folders.has(fold(dir)); dir = folderOf(dir)) this.folders.set(fold(dir), dir);
    }
  }

  /** Whether the KB holds this path. */
  has(path: string): boolean {
    return this.byPath.has(fold(path));
  }

  /** A path of the KB exactly, or with a document's extension added. */
  private exact(path: string): string | null {
    const f = fold(path);
    return this.byPath.get(f) ?? this.byPath.get(`${f}.md`) ?? this.byPath.get(`${f}.markdown`) ?? this.byPath.get(`${f}.typ`) ?? null;
  }

  /**
   * The path `target` names, written in the note at `from`. A Markdown link's path
   * (`relative`) is read from the note's folder first, as a browser reads it, and then as a
   * wikilink (Obsidian writes "shortest path" links); a wikilink's is read from the folder
   * only when it starts with "./" or "../".
   */
  resolve(target: string, from: string, relative = false): string | null {
    let t = target.replace(/\\/g, "/").trim();
    if (!t) return null;
    const dir = folderOf(from);
    const explicit = t.startsWith("./") || t.startsWith("../");
    if (relative || explicit) {
      const joined = join(dir, t);
      const hit = joined ? this.exact(joined) : null;
      if (hit || explicit) return hit;
    }
    const fromTop = t.startsWith("/");
    t = t.replace(/^\/+/, "").replace(/\/+$/, "");
    if (!t) return null;
    const slash = t.lastIndexOf("/");
    // A path is read from the top first; a bare name is a name, so the note's own folder wins.
    if (fromTop || slash >= 0) {
      const exact = this.exact(t);
      if (exact || fromTop) return exact;
    }
    let found = this.byName.get(fold(t.slice(slash + 1))) ?? [];
    if (slash >= 0) {
      const tail = `/${fold(t)}`;
      found = found.filter((p) => fold(p).endsWith(tail) || fold(withoutTextExtension(p)).endsWith(tail));
    }
    return best(found, dir);
  }

  /** The folder a relative Markdown link names (a link to "guides/"), or null. */
  folder(target: string, from: string): string | null {
    const joined = join(folderOf(from), target.replace(/\\/g, "/"));
    return joined ? (this.folders.get(fold(joined)) ?? null) : null;
  }
}

/** Of several matches: the one in `dir`, then the shortest path, then Markdown, then by name. */
function best(paths: string[], dir: string): string | null {
  const rank = (p: string) => [fold(folderOf(p)) === fold(dir) ? 0 : 1, p.split("/").length, p.length, /\.(md|markdown)$/i.test(p) ? 0 : 1] as const;
  const sorted = [...paths].sort((a, b) => {
    const [ra, rb] = [rank(a), rank(b)];
    for (let i = 0; i < ra.length; i++) if (ra[i] !== rb[i]) return ra[i]! - rb[i]!;
    return a.localeCompare(b);
  });
  return sorted[0] ?? null;
}

/** Whether a path is a document (Markdown or Typst) rather than another file of the KB. */
export const isTextDocument = (path: string) => TEXT_DOCUMENT.test(path);
