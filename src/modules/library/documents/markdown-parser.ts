// The Markdown parser documents are read with: markdown-it (CommonMark, with GFM tables),
// GFM footnotes from its footnote plugin, and GFM strikethrough and YAML frontmatter as
// rules of its own (GFM task list checks are read in markdown.ts). It is pinned: the
// image and reference rules wrapped below are its internal modules. Its token stream is read by markdown.ts. Besides the tokens it
// records where each image's URL is in the source, which markdown-it does not give for
// inline syntax: the image rule is wrapped to note the destination's span in the inline
// text, and the reference rule to note each definition's lines.
import { frontMatterRule } from "../kbs/note-links.ts";
import MarkdownIt, { type PluginSimple } from "markdown-it";
import footnote from "markdown-it-footnote";
// @ts-expect-error markdown-it ships its rule modules without type declarations
import referenceRule from "markdown-it/lib/rules_block/reference.mjs";
// @ts-expect-error markdown-it ships its rule modules without type declarations
import imageRule from "markdown-it/lib/rules_inline/image.mjs";
import type StateBlock from "markdown-it/lib/rules_block/state_block.mjs";
import type StateCore from "markdown-it/lib/rules_core/state_core.mjs";
import type StateInline from "markdown-it/lib/rules_inline/state_inline.mjs";
import type { Delimiter } from "markdown-it/lib/rules_inline/state_inline.mjs";
import type Token from "markdown-it/lib/token.mjs";

type InlineRule = (state: StateInline, silent: boolean) => boolean;
type BlockRule = (state: StateBlock, startLine: number, endLine: number, silent: boolean) => boolean;

/** Where an image's URL was written: a span of an inline text, or the definition it refers to. */
type UrlSite = { inline: [number, number] } | { definition: string } | null;

/** What parsing notes beside the tokens (markdown-it's `env`). */
export interface ParseEnv {
  references?: Record<string, { href: string; title: string }>;
  /** Lines [first, end) of each reference definition, by its normalized label (the first definition wins). */
  definitionLines: Map<string, [number, number]>;
  /** The inline token being parsed and the source lines it came from. */
  current?: { tokens: Token[]; lines: [number, number] | null };
}

/** How an image was written, and where: to find its URL's span in the source. */
export interface ImageSite {
  /** `![alt][label]` (or `![label]`): its URL is its definition's. */
  reference: boolean;
  /** Null for an image inside another's alt text (part of that text). */
  site: UrlSite;
  /** The inline text the span is in, and the source lines that text came from. */
  text: string;
  lines: [number, number] | null;
}

const md = new MarkdownIt("default", { html: true, linkify: false, typographer: false });
// Its declarations are of markdown-it's CommonJS build: the same function.
md.use(footnote as unknown as PluginSimple);
// GFM has no inline footnotes (^[...]); definitions stay where they are written.
md.inline.ruler.disable("footnote_inline");
md.core.ruler.disable("footnote_tail");
// URLs as written (escapes and references decoded), whatever their scheme: documents are
// read, not rendered, and inline data: images of every type are what rewriting looks for.
md.validateLink = () => true;
md.normalizeLink = (url) => url;
md.normalizeLinkText = (text) => text;

const isBlank = (c: number) => c === 0x20 || c === 0x09;

/**
 * GFM strikethrough: a run of one or two tildes opens or closes (markdown-it's own rule
 * takes two only), a closer only matches an opener of its length, and longer runs are text.
 * Each length is its own delimiter marker, so the pairing step matches like with like.
 */
const TILDE = 0x7e;
const tildeMarker = (length: number) => TILDE + length * 0x10000;
const strikethrough: InlineRule = (state, silent) => {
  if (silent || state.src.charCodeAt(state.pos) !== TILDE) return false;
  const scanned = state.scanDelims(state.pos, true);
  const token = state.push("text", "", 0);
  token.content = "~".repeat(scanned.length);
  if (scanned.length <= 2) {
    // length 0: the emphasis "rule of 3" does not apply.
    state.delimiters.push({
      marker: tildeMarker(scanned.length),
      length: 0,
      token: state.tokens.length - 1,
      end: -1,
      open: scanned.can_open,
      close: scanned.can_close,
    });
  }
  state.pos += scanned.length;
  return true;
};
function pairTildes(state: StateInline, delimiters: Delimiter[]) {
  for (const open of delimiters) {
    if ((open.marker !== tildeMarker(1) && open.marker !== tildeMarker(2)) || open.end === -1) continue;
    for (const [at, nesting] of [
      [open.token, 1],
      [delimiters[open.end]!.token, -1],
    ] as const) {
      const t = state.tokens[at]!;
      Object.assign(t, { type: nesting === 1 ? "s_open" : "s_close", tag: "s", nesting, markup: t.content, content: "" });
    }
  }
}
md.inline.ruler.at("strikethrough", strikethrough);
md.inline.ruler2.at("strikethrough", (state) => {
  pairTildes(state, state.delimiters);
  for (const meta of state.tokens_meta) if (meta?.delimiters) pairTildes(state, meta.delimiters);
  return false;
});

// YAML front matter as the dashboard reads it (one rule for both: kbs/note-links.ts).
md.block.ruler.before("table", "front_matter", frontMatterRule, { alt: [] });

/** The inline rule for images, noting where each top-level image's URL is. */
const imageWithSite: InlineRule = (state, silent) => {
  const start = state.pos;
  if (!(imageRule as InlineRule)(state, silent)) return false;
  if (silent) return true;
  const env = state.env as ParseEnv;
  const token = state.tokens[state.tokens.length - 1]!;
  const site = urlSite(state, start, token.attrGet("src") ?? "");
  // Images inside an image's alt text are part of that text, not images of their own.
  const top = env.current !== undefined && state.tokens === env.current.tokens;
  const at: ImageSite = { reference: site !== null && "definition" in site, site: top ? site : null, text: state.src, lines: top ? env.current!.lines : null };
  token.meta = at;
  return true;
};
md.inline.ruler.at("image", imageWithSite);

/** The URL's place in an image that was just read at `start`, by the same steps the image rule took. */
function urlSite(state: StateInline, start: number, url: string): UrlSite {
  const src = state.src;
  const labelEnd = state.md.helpers.parseLinkLabel(state, start + 1, false);
  if (labelEnd < 0) return null;
  let pos = labelEnd + 1;
  if (src.charCodeAt(pos) === 0x28 /* ( */) {
    pos++;
    while (pos < state.posMax && (isBlank(src.charCodeAt(pos)) || src.charCodeAt(pos) === 0x0a)) pos++;
    const dest = state.md.helpers.parseLinkDestination(src, pos, state.posMax);
    if (!dest.ok) return null;
    const [a, b] = src.charCodeAt(pos) === 0x3c /* < */ ? [pos + 1, dest.pos - 1] : [pos, dest.pos];
    // Written with escapes or character references: not the URL's own characters.
    return src.slice(a, b) === url ? { inline: [a, b] } : null;
  }
  let label: string | undefined;
  if (src.charCodeAt(pos) === 0x5b /* [ */) {
    const end = state.md.helpers.parseLinkLabel(state, pos, false);
    if (end >= 0) label = src.slice(pos + 1, end);
  }
  if (!label) label = src.slice(start + 2, labelEnd);
  return { definition: md.utils.normalizeReference(label) };
}

/** The block rule for reference definitions, noting the lines of each label's first one. */
const referenceWithLines: BlockRule = (state, startLine, endLine, silent) => {
  const env = state.env as ParseEnv;
  const opens = state.src.charCodeAt(state.bMarks[startLine]! + state.tShift[startLine]!) === 0x5b; /* [ */
  const before = silent || !opens ? undefined : new Set(Object.keys(env.references ?? {}));
  if (!(referenceRule as BlockRule)(state, startLine, endLine, silent)) return false;
  if (before) {
    for (const label of Object.keys(env.references ?? {})) {
      if (!before.has(label)) env.definitionLines.set(label, [startLine, state.line]);
    }
  }
  return true;
};
md.block.ruler.at("reference", referenceWithLines);

/** Inline parsing with the source lines of each inline text known to the image rule. */
md.core.ruler.at("inline", (state: StateCore) => {
  const env = state.env as ParseEnv;
  let lines: [number, number] | null = null;
  for (const token of state.tokens) {
    // A table cell's text has no lines of its own; its row's are the nearest before it.
    if (token.map) lines = token.map;
    if (token.type !== "inline") continue;
    env.current = { tokens: token.children!, lines: token.map ?? lines };
    state.md.inline.parse(token.content, state.md, state.env, token.children!);
  }
  env.current = undefined;
});

/** @public Reached through a lazy `require` in markdown.ts, which the unused-export check does not follow. */
export function parseMarkdown(source: string): { tokens: Token[]; env: ParseEnv } {
  const env: ParseEnv = { definitionLines: new Map() };
  const tokens = md.parse(source, env);
  return { tokens, env };
}
