// A note rendered on the server, for a page with no script (a share link's, a published
// site's): the dashboard's markdown-it configuration (note-markdown.ts), with what the server
// cannot do drawn as text. A wikilink or a link into the KB shows its words unless the page
// hands a `site` that places it (a published site links its own notes and shows its own
// pictures, and nothing outside its folder); an image loads only from the given origins (the
// media edge), from the site, or from the text itself (data:); any other is a link or its
// words. Raw HTML is off and every rule escapes what it writes,
// and the page's CSP runs no script, so the HTML needs no sanitizer after it (the dashboard
// runs DOMPurify too, as its page holds a session).
import { mark } from "@mdit/plugin-mark";
import { tasklist } from "@mdit/plugin-tasklist";
import MarkdownIt, { type Options, type PluginSimple, type PluginWithOptions, type Renderer, type Token } from "markdown-it";
import anchor from "markdown-it-anchor";
import footnote from "markdown-it-footnote";
import { calloutPlugin } from "./callouts.ts";
import { relativeHref, headingSlug, noteSyntax, type Wikilink } from "./note-links.ts";
import { DATA_IMAGE, type NoteEnvBase, noteMarkdown, shownWikilink } from "./note-markdown.ts";

/** Where a KB path a note names is on the page's site: its URL, and whether it is a picture. Null: not on the site. */
type SitePlace = { href: string; image: boolean } | null;

/** How a page places what a note names; `relative`: a Markdown link's path, read from the note's folder first. */
export interface NoteSite {
  place(target: string, relative: boolean): SitePlace;
}

interface Env extends NoteEnvBase {
  origins: ReadonlySet<string>;
  site?: NoteSite;
  linkAs?: string;
}

const headingHref = (heading: string | null) => (heading ? `#note-${encodeURIComponent(headingSlug(heading))}` : "");

let made: MarkdownIt | undefined;

function parser(): MarkdownIt {
  if (made) return made;
  const md = noteMarkdown({
    Md: MarkdownIt,
    footnote: footnote as unknown as PluginSimple,
    anchor: anchor as unknown as PluginWithOptions<Record<string, unknown>>,
    tasklist: tasklist as unknown as PluginWithOptions<{ disabled: boolean; label: boolean }>,
    mark: mark as unknown as PluginSimple,
    noteSyntax,
    calloutPlugin,
  });
  const esc = md.utils.escapeHtml;
  const base = (tokens: Token[], i: number, options: Options, _env: unknown, self: Renderer) => self.renderToken(tokens, i, options);
  const rules = md.renderer.rules;
  rules.wikilink = (tokens, i, _options, env: Env) => {
    const link = tokens[i]!.meta as Wikilink;
    const text = shownWikilink(link);
    if (!link.target && link.heading) return `<a href="${esc(headingHref(link.heading))}" class="wikilink">${esc(text)}</a>`;
    const place = link.target ? env.site?.place(link.target, false) : null;
    if (place?.image && link.embed) {
      // An embed's alias is its size ("300", "300x200") or its words.
      const alt = link.alias && !/^\d+(x\d+)?$/.test(link.alias) ? link.alias : link.target;
      return `<img src="${esc(place.href)}" alt="${esc(alt)}" loading="lazy">`;
    }
    if (place) return `<a href="${esc(place.href + (place.image ? "" : headingHref(link.heading)))}" class="wikilink">${esc(text)}</a>`;
    return `<span class="wikilink">${esc(link.embed ? `[${text}]` : text)}</span>`;
  };
  rules.link_open = (tokens, i, options, env: Env, self) => {
    const token = tokens[i]!;
    const href = token.attrGet("href") ?? "";
    env.linkAs = undefined;
    const place = relativeHref(href);
    let onSite: SitePlace = null;
    if (DATA_IMAGE.test(href)) token.attrs = [];
    else if (!place) token.attrSet("rel", "noopener noreferrer");
    else if (!place.path) token.attrs = [["href", `#note-${encodeURIComponent(headingSlug(place.anchor ?? ""))}`]];
    else if ((onSite = env.site?.place(place.path, true) ?? null)) token.attrs = [["href", onSite.href + (onSite.image ? "" : headingHref(place.anchor))]];
    else {
      env.linkAs = "span";
      return '<span class="wikilink">';
    }
    return base(tokens, i, options, env, self);
  };
  rules.link_close = (tokens, i, options, env: Env, self) => {
    const as = env.linkAs;
    env.linkAs = undefined;
    return as ? `</${as}>` : base(tokens, i, options, env, self);
  };
  rules.image = (tokens, i, options, env: Env, self) => {
    const token = tokens[i]!;
    const src = token.attrGet("src") ?? "";
    const alt = self.renderInlineAsText(token.children ?? [], options, env);
    const path = relativeHref(src)?.path;
    const onSite = path ? env.site?.place(path, true) : null;
    if (onSite?.image) token.attrSet("src", onSite.href);
    if (onSite?.image || DATA_IMAGE.test(src) || loadable(src, env.origins)) {
      token.attrSet("alt", alt);
      token.attrSet("loading", "lazy");
      return base(tokens, i, options, env, self);
    }
    const label = `Image not loaded: ${alt || src}`;
    return /^https?:\/\//i.test(src)
      ? `<a class="blocked-image" href="${esc(src)}" rel="noopener noreferrer">${esc(label)}</a>`
      : `<span class="blocked-image">${esc(label)}</span>`;
  };
  made = md;
  return md;
}

function loadable(src: string, origins: ReadonlySet<string>): boolean {
  if (!/^https?:\/\//i.test(src)) return false;
  try {
    return origins.has(new URL(src).origin);
  } catch {
    return false;
  }
}

/** The note's HTML (its front matter left out); images load only from `imageOrigins` (and the `site`'s own). */
export function renderNoteHtml(source: string, imageOrigins: readonly string[], site?: NoteSite): string {
  const env: Env = { prefix: "note-", tasklistId: 1, origins: new Set(imageOrigins), ...(site && { site }) };
  return parser().render(source, env);
}
