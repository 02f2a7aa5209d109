// A published site's pages (CENTER_URL/p/<slug>/...), rendered on the server, no script: a
// navigation of the folder's notes, each note at its path without its extension, rendered by
// the share pages' renderer (renderNoteHtml) with its wikilinks, Markdown links and embeds
// placed on the site (nothing outside the folder is linked), a search box (?q=), and Open
// Graph tags per note.
import { escapeHtml } from "../../core/html.ts";
import { inlineSource, pageSecurityHeaders } from "../../http/page-headers.ts";
import { isTextDocument, LinkIndex, noteExcerpt, renderNoteHtml, type KbFolderEntry, type NoteSite } from "../library/public.ts";

const STYLE = `.site{max-width:68rem;margin:0 auto;padding:1rem;display:grid;gap:1rem 2rem;grid-template-columns:minmax(0,1fr)}
@media (min-width:48rem){.site{grid-template-columns:14rem minmax(0,1fr)}.site>header{grid-column:1/-1}.site>nav{grid-column:1;grid-row:2}.site>main{grid-column:2;grid-row:2}}
.site>main{margin:0;padding:0;max-width:none;min-width:0}
nav{border-top:1px solid var(--line);padding-top:.5rem}
@media (min-width:48rem){nav{border-top:0;padding-top:0}}
header{display:flex;flex-wrap:wrap;gap:.5rem 1rem;align-items:center;justify-content:space-between}
header a{font-weight:600;font-size:1.1rem;text-decoration:none;color:inherit}
form{display:flex;gap:.25rem}
input,button{font:inherit;padding:.35rem .6rem}
input{min-width:0;width:12rem}
nav ul{list-style:none;padding-left:.9rem;margin:.2rem 0}
nav>ul{padding-left:0}
nav li{margin:.2rem 0;overflow-wrap:anywhere}
nav [aria-current]{font-weight:600}
.folder{color:var(--muted)}
article{overflow-wrap:anywhere;min-width:0}
article pre{overflow:auto}
img{max-width:100%;height:auto}
.hits{list-style:none;padding:0;display:grid;gap:.75rem}
.hits p{margin:.2rem 0;color:var(--muted)}
footer{grid-column:1/-1;font-size:.8rem;color:var(--muted)}`;

/** Where the site is, for this request. */
export interface SiteAt {
  /** CENTER_URL/p/<slug>, absolute. */
  root: string;
  stylesheet: string;
  /** The stylesheet's origin when it is not the page's (a site on its own host). */
  styleOrigin?: string;
  mediaOrigin: string;
}

const headers = (at: SiteAt): Record<string, string> => ({
  ...pageSecurityHeaders([
    "script-src 'none'",
    `style-src 'self' ${at.styleOrigin ? `${at.styleOrigin} ` : ""}${inlineSource(STYLE)}`,
    // The site's own pictures, and public ones on the media edge a note names.
    `img-src 'self' data: ${at.mediaOrigin}`,
    "form-action 'self'",
  ]),
  "content-type": "text/html; charset=utf-8",
  // Read from the KB on each request: a sync shows at once, unpublishing closes it at once.
  "cache-control": "no-store",
});

const segmentsUrl = (path: string) => path.split("/").map(encodeURIComponent).join("/");

/** A KB folder's entries as a site: their URLs, and what a note's names resolve to on it. */
export class Site {
  readonly index: LinkIndex;
  private readonly byPath = new Map<string, KbFolderEntry>();

  constructor(
    readonly at: SiteAt,
    readonly title: string,
    /** The published folder ("" is the whole KB). */
    readonly folder: string,
    readonly entries: KbFolderEntry[],
  ) {
    // Only the folder's paths: a link to anything else resolves to nothing, and shows as text.
    this.index = new LinkIndex(entries.map((e) => e.path));
    for (const e of entries) this.byPath.set(e.path, e);
  }

  /** An entry's path below the folder. */
  inner(path: string): string {
    return this.folder ? path.slice(this.folder.length + 1) : path;
  }

  /** A note's URL is its path without the extension; a file's, its path. */
  url(e: KbFolderEntry): string {
    const inner = this.inner(e.path);
    return `${this.at.root}/${segmentsUrl(e.format === "file" ? inner : inner.replace(/\.(md|markdown|typ)$/i, ""))}`;
  }

  /** The entry a site URL's path (below the root, decoded) names: a note by its path without extension, else a file. */
  entryAt(inner: string): KbFolderEntry | null {
    const full = this.folder ? `${this.folder}/${inner}` : inner;
    for (const ext of [".md", ".markdown", ".typ"]) {
      const hit = this.index.resolve(`/${full}${ext}`, "");
      if (hit && this.byPath.get(hit)?.format !== "file") return this.byPath.get(hit)!;
    }
    const hit = this.index.resolve(`/${full}`, "");
    const e = hit ? this.byPath.get(hit) : undefined;
    return e && e.format === "file" && !isTextDocument(e.path) ? e : null;
  }

  /** How a note at `from` places what it names. */
  placesFor(from: string): NoteSite {
    return {
      place: (target, relative) => {
        const hit = this.index.resolve(target, from, relative);
        const e = hit ? this.byPath.get(hit) : undefined;
        return e ? { href: this.url(e), image: e.format === "file" && IMAGE_FILE.test(e.path) } : null;
      },
    };
  }

  /** The note a site shows at its root: index.md or README.md at the folder's top, if any. */
  home(): KbFolderEntry | null {
    for (const name of ["index", "README", "readme"]) {
      const e = this.entryAt(name);
      if (e && e.format !== "file") return e;
    }
    return null;
  }
}

const IMAGE_FILE = /\.(png|jpe?g|gif|webp|avif)$/i;

interface TreeNode {
  folders: Map<string, TreeNode>;
  notes: KbFolderEntry[];
}

/** The folder tree of the site's notes, as nested lists; `current` marked. */
function navigation(site: Site, current: KbFolderEntry | null): string {
  const root: TreeNode = { folders: new Map(), notes: [] };
  for (const e of site.entries) {
    if (e.format === "file") continue;
    const parts = site.inner(e.path).split("/");
    let node = root;
    for (const part of parts.slice(0, -1)) {
      if (!node.folders.has(part)) node.folders.set(part, { folders: new Map(), notes: [] });
      node = node.folders.get(part)!;
    }
    node.notes.push(e);
  }
  const list = (node: TreeNode): string => {
    const notes = node.notes.map((e) => {
      const cur = e === current ? ' aria-current="page"' : "";
      return `<li><a href="${escapeHtml(site.url(e))}"${cur}>${escapeHtml(e.title)}</a></li>`;
    });
    const folders = [...node.folders].map(([name, child]) => `<li><span class="folder">${escapeHtml(name)}/</span>${list(child)}</li>`);
    return `<ul>${notes.join("")}${folders.join("")}</ul>`;
  };
  return `<nav aria-label="Pages">${list(root)}</nav>`;
}

interface Head {
  title: string;
  url: string;
  type: string;
  description?: string;
}

function document(site: Site, head: Head, current: KbFolderEntry | null, main: string, q = ""): string {
  const og = [
    ["og:title", head.title],
    ["og:type", head.type],
    ["og:url", head.url],
    ["og:site_name", site.title],
    ...(head.description ? [["og:description", head.description]] : []),
  ]
    .map(([p, c]) => `<meta property="${p}" content="${escapeHtml(c!)}">`)
    .join("\n");
  const title = head.title === site.title ? site.title : `${head.title} · ${site.title}`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<meta name="color-scheme" content="light dark">
<link rel="icon" href="data:,">
<title>${escapeHtml(title)}</title>
<link rel="stylesheet" href="${escapeHtml(site.at.stylesheet)}">
${og}
<style>${STYLE}</style>
</head>
<body>
<div class="site">
<header><a href="${escapeHtml(site.at.root)}">${escapeHtml(site.title)}</a>
<form role="search" method="get" action="${escapeHtml(site.at.root)}"><input type="search" name="q" aria-label="Search this site" value="${escapeHtml(q)}" placeholder="Search"><button type="submit">Search</button></form></header>
<main>
${main}
</main>
${navigation(site, current)}
<footer>Published with shelf</footer>
</div>
</body>
</html>
`;
}

export async function notePage(site: Site, note: KbFolderEntry, text: string): Promise<Response> {
  const body = note.format === "markdown" ? await renderNoteHtml(text, [site.at.mediaOrigin], site.placesFor(note.path)) : `<pre>${escapeHtml(text)}</pre>`;
  const main = `<article class="doc-body" aria-label="${escapeHtml(note.title)}">${body}</article>`;
  const head = { title: note.title, url: site.url(note), type: "article", description: noteExcerpt(text) };
  return new Response(document(site, head, note, main), { headers: headers(site.at) });
}

/** The root without a home note: the site's name and its notes. */
export function indexPage(site: Site): Response {
  const notes = site.entries.filter((e) => e.format !== "file").length;
  const main = `<h1>${escapeHtml(site.title)}</h1><p>${notes ? `${notes} ${notes === 1 ? "note" : "notes"}: pick one from the list.` : "Nothing is published here yet."}</p>`;
  return new Response(document(site, { title: site.title, url: site.at.root, type: "website" }, null, main), { headers: headers(site.at) });
}

export interface SearchHit {
  entry: KbFolderEntry;
  snippet: string;
  /** Where the matches are in the snippet, each between a « and a » of the search's own. */
  marks: { start: number; end: number }[];
}

/** A snippet with its matches highlighted (the search's « and » around each left out). */
function highlighted(hit: SearchHit): string {
  let out = "";
  let at = 0;
  for (const m of hit.marks) {
    out += `${escapeHtml(hit.snippet.slice(at, m.start - 1))}<mark>${escapeHtml(hit.snippet.slice(m.start, m.end))}</mark>`;
    at = m.end + 1;
  }
  return out + escapeHtml(hit.snippet.slice(at));
}

export function searchPage(site: Site, q: string, hits: SearchHit[] | string): Response {
  const results =
    typeof hits === "string"
      ? `<p role="status">${escapeHtml(hits)}</p>`
      : hits.length
        ? `<ul class="hits">${hits.map((h) => `<li><a href="${escapeHtml(site.url(h.entry))}">${escapeHtml(h.entry.title)}</a><p>${highlighted(h)}</p></li>`).join("")}</ul>`
        : `<p role="status">Nothing found for “${escapeHtml(q)}”.</p>`;
  const main = `<h1>Search</h1>${results}`;
  return new Response(document(site, { title: `Search: ${q}`, url: site.at.root, type: "website" }, null, main, q), { headers: headers(site.at) });
}

/** No such site (unpublished, its KB gone or in the trash), or no such page on it. */
export function missingPage(at: Pick<SiteAt, "stylesheet" | "styleOrigin">): Response {
  const html = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex"><link rel="icon" href="data:,"><title>Not found</title>
<link rel="stylesheet" href="${escapeHtml(at.stylesheet)}"></head>
<body><main><h1>Page not found</h1><p>There is no such published page.</p></main></body>
</html>
`;
  return new Response(html, {
    status: 404,
    headers: {
      ...pageSecurityHeaders([`style-src 'self'${at.styleOrigin ? ` ${at.styleOrigin}` : ""}`, "img-src data:"]),
      "content-type": "text/html; charset=utf-8",
      "cache-control": "no-store",
    },
  });
}
