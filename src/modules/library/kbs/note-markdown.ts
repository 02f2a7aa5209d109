// The one markdown-it configuration notes are rendered with: the dashboard's renderer
// (dashboard/markdown.ts, in the browser) and a share link's page (shares/page-note.ts, on
// the server) both build theirs here, so a note reads the same in both. markdown-it with
// raw HTML off (a `<script>` in the text stays text), links and images to http(s), mailto,
// data: images and paths only, and: footnotes, heading anchors, read-only task checkboxes,
// ==highlights==, callouts, front matter, [[wikilinks]] and %%comments%% (note-links.ts).
// Each renderer adds what differs: how a wikilink, a link into the KB and an image are drawn.
// Pure code with the plugins handed in: the dashboard loads them on first use.
import type { default as MarkdownIt, Options, PluginSimple, PluginWithOptions, Renderer, Token } from "markdown-it";
import { headingSlug, type Wikilink } from "./note-links.ts";

const SCHEME = /^[a-z][a-z0-9+.-]*:/i;
const SAFE_LINK = /^(https?:|mailto:)/i;
export const DATA_IMAGE = /^data:image\/(gif|png|jpeg|webp);/i;

/** What every render's env holds: the prefix of the ids it writes, and the tasklist plugin's page-wide counter. */
export interface NoteEnvBase {
  prefix: string;
  tasklistId: number;
}

/** The plugins, as their modules' default (or named) exports. */
export interface NoteMarkdownParts {
  Md: typeof MarkdownIt;
  footnote: PluginSimple;
  anchor: PluginWithOptions<Record<string, unknown>>;
  tasklist: PluginWithOptions<{ disabled: boolean; label: boolean }>;
  mark: PluginSimple;
  noteSyntax: PluginSimple;
  calloutPlugin: PluginSimple;
}

/** The words a wikilink shows: its alias, else its target and heading ("Note › Goals"). */
export function shownWikilink(link: Wikilink): string {
  if (link.alias) return link.alias;
  const name = link.target.replace(/\.md$/i, "");
  return [name, link.heading ?? (link.block ? `^${link.block}` : "")].filter(Boolean).join(" › ");
}

/** markdown-it configured for notes, with the rules both renderers share. */
export function noteMarkdown(parts: NoteMarkdownParts): MarkdownIt {
  const md = new parts.Md({ html: false, linkify: true });
  // A link or image markdown-it accepts at all: the safe schemes, data: images, paths.
  md.validateLink = (url) => SAFE_LINK.test(url) || DATA_IMAGE.test(url) || !SCHEME.test(url);
  md.use(parts.noteSyntax)
    .use(parts.footnote)
    .use(parts.tasklist, { disabled: true, label: true })
    .use(parts.mark)
    .use(parts.calloutPlugin)
    .use(parts.anchor, {
      slugifyWithState: (text: string, state: { env: NoteEnvBase }) => `${state.env.prefix}${headingSlug(text)}`,
      // A heading's words as written, a wikilink in it by the words it shows.
      getTokensText: (tokens: Token[]) =>
        tokens
          .map((t) => (t.type === "text" || t.type === "code_inline" ? t.content : t.type === "wikilink" ? shownWikilink(t.meta as Wikilink) : ""))
          .join(""),
      tabIndex: -1,
    });
  const esc = md.utils.escapeHtml;
  const base = (tokens: Token[], i: number, options: Options, _env: unknown, self: Renderer) => self.renderToken(tokens, i, options);
  const rules = md.renderer.rules;

  rules.front_matter = () => "";

  // markdown-it writes a table column's alignment as style="text-align:…"; a class instead.
  for (const rule of ["th_open", "td_open"] as const) {
    rules[rule] = (tokens, i, options, env, self) => {
      const token = tokens[i]!;
      const align = /text-align:(\w+)/.exec(token.attrGet("style") ?? "")?.[1];
      token.attrs = align ? [["class", `align-${align}`]] : [];
      return base(tokens, i, options, env, self);
    };
  }

  // Footnotes: numbers without brackets, ids of this note's prefix, and names that say what each link does.
  const note = (tokens: Token[], i: number) => {
    const meta = tokens[i]!.meta as { id: number; subId: number };
    return { n: String(meta.id + 1), sub: meta.subId > 0 ? `-${meta.subId}` : "" };
  };
  rules.footnote_ref = (tokens, i, _options, env: NoteEnvBase) => {
    const { n, sub } = note(tokens, i);
    return `<sup class="footnote-ref"><a href="#fn-${n}" id="${esc(env.prefix)}fnref-${n}${sub}" aria-label="Footnote ${n}">${n}</a></sup>`;
  };
  rules.footnote_block_open = () => '<section class="footnotes" aria-label="Footnotes">\n<ol class="footnotes-list">\n';
  rules.footnote_block_close = () => "</ol>\n</section>\n";
  rules.footnote_open = (tokens, i, _options, env: NoteEnvBase) => `<li id="${esc(env.prefix)}fn-${note(tokens, i).n}" class="footnote-item" tabindex="-1">`;
  rules.footnote_anchor = (tokens, i) => {
    const { n, sub } = note(tokens, i);
    return ` <a href="#fnref-${n}${sub}" class="footnote-backref" aria-label="Back to reference ${n}">↩\uFE0E</a>`;
  };
  return md;
}
