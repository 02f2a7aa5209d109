// A note's Markdown rendered in the browser, as a person expects from their editor, and
// safely. markdown-it (the server's own version) with raw HTML off, so a `<script>` in the
// text stays text, and with: footnotes (markdown-it-footnote), heading anchors
// (markdown-it-anchor), read-only task checkboxes (@mdit/plugin-tasklist), ==highlights==
// (@mdit/plugin-mark), callouts (callouts.ts), and front matter, [[wikilinks]] and hidden
// %%comments%% (note-links.ts, shared with the server's backlinks so both resolve a link
// alike). Then every byte of HTML it wrote goes
// through DOMPurify before it reaches the page, whatever a plugin produced.
//
// Links keep to http(s), mailto and paths: a path or a wikilink is another document of the
// KB (it opens in the dashboard; one the KB does not hold is marked as such), an `#anchor`
// stays in the note. An image loads only from the media edge or the API's origin, or from
// the KB itself through the API (`![[a.png]]`, `![](img/a.png)`) with the session's
// token, as a blob: URL; any other image is shown as a link (no remote loads, which the
// CSP forbids anyway). Table alignment becomes a class: the CSP allows no style attribute.
// markdown-it and its plugins are loaded on first use, apart from the first page.
import type { default as MarkdownIt, Options, Renderer, Token } from "markdown-it";
import { headingSlug, isTextDocument, relativeHref, type Wikilink } from "../src/modules/library/kbs/note-links.ts";
import { DATA_IMAGE, type NoteMarkdownParts, shownWikilink as shown } from "../src/modules/library/kbs/note-markdown.ts";
import { apiUrl, mediaBlobUrl } from "./api.ts";
import { kbHref, type NotePlace } from "./kb-data.ts";
import { fillEmbeds, isImagePath, wireKbFiles } from "./note-files.ts";
import { properties } from "./properties.ts";

const NOT_IN_KB = "not in this knowledge base";
const NO_KB = "links between notes work in a knowledge base";

const origins = new Set([new URL(apiUrl("/")).origin, new URL(document.body.dataset.media || apiUrl("/")).origin]);

/** Where an image may be loaded from: the media edge or the API's origin, or the text itself (data:). */
function loadable(src: string): boolean {
  if (DATA_IMAGE.test(src)) return true;
  if (!/^https?:\/\//i.test(src)) return false;
  try {
    return origins.has(new URL(src).origin);
  } catch {
    return false;
  }
}

/** Where a note sits: its KB, its path, and the KB's paths and document ids, against which its links resolve. */
/** What one render knows: the note's place (null outside any KB), the prefix of its ids, and how deep in embeds it is. */
interface Env {
  place: NotePlace | null;
  prefix: string;
  depth: number;
  /** @mdit/plugin-tasklist's counter of checkbox ids: page-wide, so two notes on one page never share one. */
  tasklistId: number;
  /** Set by a Markdown link drawn as something else (a file's button, an unresolved name), for its closing tag. */
  linkAs?: string;
}

let nextTask = 1;

interface Parser {
  md: MarkdownIt;
  purify: (html: string) => DocumentFragment;
}

let parser: Promise<Parser> | undefined;

/** An in-note anchor: its target is found by the click handler (renderNote), never by the address. */
const anchorLink = (anchor: string, text: string, esc: (s: string) => string) =>
  `<a href="#${esc(encodeURIComponent(anchor))}" class="wikilink">${esc(text)}</a>`;

/** A name the KB does not hold: shown, marked, and said so to a screen reader. */
const unresolved = (text: string, why: string, esc: (s: string) => string) =>
  `<span class="unresolved" title="${esc(why[0]!.toUpperCase() + why.slice(1))}">${esc(text)}<span class="visually-hidden"> (${esc(why)})</span></span>`;

/** A file of the KB that is neither a note nor an image: a button that downloads it. */
const fileButton = (path: string, text: string, esc: (s: string) => string) =>
  `<button type="button" class="link-button" data-kb-file="${esc(path)}">${esc(text)}</button>`;

function renderWikilink(link: Wikilink, env: Env, esc: (s: string) => string): string {
  const text = shown(link);
  const place = env.place;
  if (!link.target) return link.heading ? anchorLink(headingSlug(link.heading), text, esc) : esc(text);
  if (!place) return unresolved(text, NO_KB, esc);
  const path = place.index.resolve(link.target, place.path);
  if (!path && link.embed) {
    // An embed that finds nothing says what is missing where it would have been shown.
    const missing = isImagePath(link.target) ? `Image not in this knowledge base: ${link.target}` : `Not in this knowledge base: ${text}`;
    return `<span class="blocked-image unresolved" title="Not in this knowledge base">${esc(missing)}</span>`;
  }
  if (!path) return unresolved(text, NOT_IN_KB, esc);
  const anchor = link.heading ? headingSlug(link.heading) : null;
  if (link.embed) {
    if (isImagePath(path)) {
      // ![[a.png|300]] or ![[a.png|300x200]]: a size; any other alias is the picture's words.
      const size = /^(\d+)(?:x(\d+))?$/.exec(link.alias ?? "");
      const alt = size || !link.alias ? path.slice(path.lastIndexOf("/") + 1) : link.alias;
      const dims = size ? ` width="${size[1]}"${size[2] ? ` height="${size[2]}"` : ""}` : "";
      return `<img class="kb-image" data-kb-path="${esc(path)}" alt="${esc(alt)}"${dims}>`;
    }
    if (isTextDocument(path) && env.depth === 0) {
      const href = kbHref(place.kbId, path) + (anchor ? `#${encodeURIComponent(anchor)}` : "");
      return `<span class="note-embed" role="group" aria-label="${esc(`Embedded: ${text}`)}" data-embed-path="${esc(path)}"${anchor ? ` data-embed-anchor="${esc(anchor)}"` : ""}><span class="note-embed-title"><a href="${esc(href)}">${esc(text)}</a></span></span>`;
    }
  }
  if (!isTextDocument(path)) return fileButton(path, text, esc);
  if (path === place.path) return anchor ? anchorLink(anchor, text, esc) : esc(text);
  return `<a class="wikilink" href="${esc(kbHref(place.kbId, path) + (anchor ? `#${encodeURIComponent(anchor)}` : ""))}">${esc(text)}</a>`;
}

async function make(): Promise<Parser> {
  const [
    { default: Md },
    { default: footnote },
    { default: anchor },
    { tasklist },
    { mark },
    { default: DOMPurify },
    { noteSyntax },
    { calloutPlugin },
    { noteMarkdown },
  ] = await Promise.all([
    import("markdown-it"),
    import("markdown-it-footnote"),
    import("markdown-it-anchor"),
    import("@mdit/plugin-tasklist"),
    import("@mdit/plugin-mark"),
    import("dompurify"),
    import("../src/modules/library/kbs/note-links.ts"),
    import("../src/modules/library/kbs/callouts.ts"),
    import("../src/modules/library/kbs/note-markdown.ts"),
  ]);
  // Their declarations are of the CommonJS builds: the same functions.
  const md = noteMarkdown({ Md, footnote, anchor, tasklist, mark, noteSyntax, calloutPlugin } as unknown as NoteMarkdownParts);
  const esc = md.utils.escapeHtml;
  const base = (tokens: Token[], i: number, options: Options, _env: unknown, self: Renderer) => self.renderToken(tokens, i, options);
  const rules = md.renderer.rules;

  rules.wikilink = (tokens, i, _options, env: Env) => renderWikilink(tokens[i]!.meta as Wikilink, env, esc);

  rules.link_open = (tokens, i, options, env: Env, self) => {
    const token = tokens[i]!;
    const href = token.attrGet("href") ?? "";
    env.linkAs = undefined;
    const place = relativeHref(href);
    if (DATA_IMAGE.test(href)) {
      token.attrs = [];
    } else if (!place) {
      token.attrSet("rel", "noopener noreferrer");
    } else if (!place.path) {
      token.attrs = [["href", `#${encodeURIComponent(headingSlug(place.anchor ?? ""))}`]];
    } else if (!env.place) {
      env.linkAs = "span";
      return `<span class="unresolved" title="${esc(NO_KB[0]!.toUpperCase() + NO_KB.slice(1))}">`;
    } else {
      const { kbId, path: from, index } = env.place;
      const path = index.resolve(place.path, from, true);
      const anchor = place.anchor ? `#${encodeURIComponent(headingSlug(place.anchor))}` : "";
      const folder = path ? null : index.folder(place.path, from);
      if (path && !isTextDocument(path)) {
        env.linkAs = "button";
        return `<button type="button" class="link-button" data-kb-file="${esc(path)}">`;
      }
      if (!path && folder === null) {
        env.linkAs = "span";
        return `<span class="unresolved" title="${esc(NOT_IN_KB[0]!.toUpperCase() + NOT_IN_KB.slice(1))}">`;
      }
      token.attrs = [["href", path === from && anchor ? anchor : kbHref(kbId, path ?? folder ?? "") + anchor]];
    }
    return base(tokens, i, options, env, self);
  };
  rules.link_close = (tokens, i, options, env: Env, self) => {
    const as = env.linkAs;
    env.linkAs = undefined;
    if (as === "span") return `<span class="visually-hidden"> (${esc(env.place ? NOT_IN_KB : NO_KB)})</span></span>`;
    return as ? `</${as}>` : base(tokens, i, options, env, self);
  };

  rules.image = (tokens, i, options, env: Env, self) => {
    const token = tokens[i]!;
    const src = token.attrGet("src") ?? "";
    const alt = self.renderInlineAsText(token.children ?? [], options, env);
    if (loadable(src)) {
      token.attrSet("alt", alt);
      token.attrSet("loading", "lazy");
      return base(tokens, i, options, env, self);
    }
    const place = relativeHref(src);
    if (place?.path && env.place) {
      const path = env.place.index.resolve(place.path, env.place.path, true);
      return path
        ? `<img class="kb-image" data-kb-path="${esc(path)}" alt="${esc(alt)}">`
        : `<span class="blocked-image unresolved" title="Not in this knowledge base">${esc(`Image not in this knowledge base: ${alt || src}`)}</span>`;
    }
    const label = `Image not loaded: ${alt || src}`;
    return /^https?:\/\//i.test(src)
      ? `<a class="blocked-image" href="${esc(src)}" rel="noopener noreferrer">${esc(label)}</a>`
      : `<span class="blocked-image">${esc(label)}</span>`;
  };

  const purify = (html: string) =>
    DOMPurify.sanitize(html, {
      RETURN_DOM_FRAGMENT: true,
      FORBID_TAGS: ["style", "form"],
      FORBID_ATTR: ["style"],
      // DOMPurify's own rule with fewer schemes: http(s), mailto and data: images, or a value without a scheme.
      ALLOWED_URI_REGEXP: /^(?:https?:|mailto:|data:image\/(?:gif|png|jpeg|webp);|[^a-z]|[a-z+.-]+(?:[^a-z+.\-:]|$))/i,
    });
  return { md, purify };
}

/** The id prefix of the note drawn at the top of a page; an embedded note gets one of its own. */
const TOP = "note-";
let embeds = 0;

/** The element an address's anchor (`#/kbs/<id>/<path>#<anchor>`) names in a rendered note, if any. */
export function anchorTarget(root: HTMLElement, anchor: string): HTMLElement | null {
  return root.querySelector<HTMLElement>(`#${CSS.escape(TOP + headingSlug(anchor))}`) ?? root.querySelector<HTMLElement>(`#${CSS.escape(TOP + anchor)}`);
}

/** Scrolls to an element of the note and puts the focus on it (a heading or footnote takes it without entering the tab order). */
export function jumpTo(target: HTMLElement) {
  if (target.tabIndex < 0 && !target.hasAttribute("tabindex")) target.tabIndex = -1;
  target.scrollIntoView({ block: "start" });
  target.focus({ preventScroll: true });
}

/**
 * The rendered note, in `into`: its properties (front matter) above its text. The HTML
 * comes from markdown-it with raw HTML off and the rules above, then DOMPurify; images and
 * files of the KB are then fetched with the token, and embedded notes filled in. Resolves
 * to the prefix of the ids it wrote.
 */
export async function renderMarkdown(into: HTMLElement, source: string, place: NotePlace | null, depth = 0): Promise<string> {
  parser ??= make();
  const { md, purify } = await parser;
  const env: Env = { place, prefix: depth ? `note-e${++embeds}-` : TOP, depth, tasklistId: nextTask };
  const tokens = md.parse(source, env);
  // An embedded note shows its text only, as in an editor.
  const front = depth ? undefined : tokens.find((t) => t.type === "front_matter");
  const body = purify(md.renderer.render(tokens, md.options, env));
  nextTask = env.tasklistId + 1;
  // A property's links are rendered on their own (with an env of their own: the note's holds its footnotes).
  const inline = (text: string) => purify(md.renderInline(text, { place, prefix: env.prefix, depth, tasklistId: 0 } satisfies Env));
  const props = front ? await properties(front.content, inline) : null;
  into.replaceChildren(...(props ? [props] : []), body);
  wireAnchors(into, env);
  // A task's words start after its check's space, which the label would otherwise keep (and strike through).
  for (const label of into.querySelectorAll(".task-list-item-label")) {
    const first = label.firstChild;
    if (first?.nodeType === Node.TEXT_NODE) first.textContent = first.textContent!.replace(/^\s+/, "");
  }
  for (const img of into.querySelectorAll<HTMLImageElement>("img[src]")) {
    img.addEventListener(
      "error",
      () => {
        if (!img.src.startsWith("http")) return;
        mediaBlobUrl(img.src)
          .then((url) => {
            img.src = url;
          })
          .catch(() => img.classList.add("broken"));
      },
      { once: true },
    );
  }
  if (place) {
    wireKbFiles(into, place.kbId);
    if (depth === 0) await fillEmbeds(into, place, (el, text, at) => renderMarkdown(el, text, at, depth + 1));
  }
  return env.prefix;
}

/**
 * In-note anchors (a footnote and its way back, `[[#Heading]]`, `[x](#heading)`): the
 * fragment is the dashboard's address, so a click scrolls to the target itself, and the
 * address becomes the note's with the anchor (a link that can be shared) without
 * drawing the screen again.
 */
function wireAnchors(root: HTMLElement, env: Env) {
  const own = env.place ? kbHref(env.place.kbId, env.place.path) : null;
  for (const a of root.querySelectorAll<HTMLAnchorElement>('a[href^="#"]:not([href^="#/"])')) {
    let anchor = a.getAttribute("href")!.slice(1);
    try {
      anchor = decodeURIComponent(anchor);
    } catch {
      // As written.
    }
    a.dataset.target = env.prefix + anchor;
    if (own) a.setAttribute("href", `${own}#${encodeURIComponent(anchor)}`);
    a.addEventListener("click", (e) => {
      const target = root.ownerDocument.getElementById(a.dataset.target!);
      if (!target) return;
      e.preventDefault();
      jumpTo(target);
      if (own && env.depth === 0) history.replaceState(null, "", a.href);
    });
  }
}
