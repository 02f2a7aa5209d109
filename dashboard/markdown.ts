// A document's Markdown rendered in the browser, safely: markdown-it (the server's own
// version) with raw HTML off, so a `<script>` in the text stays text. Links keep to http(s),
// mailto and paths (a path is another document of the KB: it opens in the dashboard); an
// image loads only from the media edge or the API's origin, any other is shown as a link
// (no remote loads, which the CSP forbids anyway). Table alignment becomes a class: the CSP
// allows no style attribute. markdown-it is loaded on first use, apart from the first page.
import type { default as MarkdownIt, Options, Renderer, Token } from "markdown-it";
import { apiUrl, mediaBlobUrl } from "./api.ts";
import { kbHref } from "./kb-data.ts";

const SCHEME = /^[a-z][a-z0-9+.-]*:/i;
const SAFE_LINK = /^(https?:|mailto:)/i;
const DATA_IMAGE = /^data:image\/(gif|png|jpeg|webp);/i;

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

let parser: Promise<MarkdownIt> | undefined;

async function make(): Promise<MarkdownIt> {
  const { default: Md } = await import("markdown-it");
  const md = new Md({ html: false, linkify: true });
  // A link or image markdown-it accepts at all: the safe schemes, data: images, paths.
  md.validateLink = (url) => SAFE_LINK.test(url) || DATA_IMAGE.test(url) || !SCHEME.test(url);
  const esc = md.utils.escapeHtml;
  const base = (tokens: Token[], i: number, options: Options, _env: unknown, self: Renderer) => self.renderToken(tokens, i, options);

  md.renderer.rules.link_open = (tokens, i, options, env, self) => {
    const token = tokens[i]!;
    const href = token.attrGet("href") ?? "";
    const ctx = env as Place;
    if (href.startsWith("#") || DATA_IMAGE.test(href)) {
      // An anchor would leave the dashboard's route (the fragment is the address); no href.
      token.attrs = [];
    } else if (!SCHEME.test(href) && !href.startsWith("//")) {
      token.attrSet("href", inKb(ctx, href));
    } else {
      token.attrSet("rel", "noopener noreferrer");
    }
    return base(tokens, i, options, env, self);
  };

  md.renderer.rules.image = (tokens, i, options, env, self) => {
    const token = tokens[i]!;
    const src = token.attrGet("src") ?? "";
    const alt = self.renderInlineAsText(token.children ?? [], options, env);
    if (loadable(src)) {
      token.attrSet("alt", alt);
      token.attrSet("loading", "lazy");
      return base(tokens, i, options, env, self);
    }
    const label = `Image not loaded: ${alt || src}`;
    return /^https?:\/\//i.test(src)
      ? `<a class="blocked-image" href="${esc(src)}" rel="noopener noreferrer">${esc(label)}</a>`
      : `<span class="blocked-image">${esc(label)}</span>`;
  };

  // markdown-it writes a table column's alignment as style="text-align:…"; a class instead.
  for (const rule of ["th_open", "td_open"] as const) {
    md.renderer.rules[rule] = (tokens, i, options, env, self) => {
      const token = tokens[i]!;
      const align = /text-align:(\w+)/.exec(token.attrGet("style") ?? "")?.[1];
      token.attrs = align ? [["class", `align-${align}`]] : [];
      return base(tokens, i, options, env, self);
    };
  }
  return md;
}

/** Where the document sits: its KB and its folder, against which a relative link resolves. */
interface Place {
  kbId: string;
  dir: string;
}

/** A relative link to another document of the KB, as the dashboard's address of it. */
function inKb(place: Place, href: string): string {
  const url = new URL(href, `https://kb.invalid/${place.dir.split("/").map(encodeURIComponent).join("/")}`);
  const path = decodeURIComponent(url.pathname).replace(/^\/+/, "").replace(/\/+$/, "");
  return kbHref(place.kbId, path);
}

/**
 * The rendered document, in `into`. The HTML comes from markdown-it with raw HTML off and
 * the rules above; an image of the media edge that is private is fetched with the token.
 */
export async function renderMarkdown(into: HTMLElement, source: string, place: Place) {
  parser ??= make();
  into.innerHTML = (await parser).render(source, place);
  for (const img of into.querySelectorAll("img")) {
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
}
