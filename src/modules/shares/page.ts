// The anonymous page of a share link (CENTER_URL/s/<token>), rendered on the server: an
// image, an audio player and a note work without a script; a video plays in the embeddable
// player's script (center's embed.js, handed the link's own playlist URL). Every media URL
// on it is the link's own (CENTER_URL/s/<token>/m/<file>, media.ts), so a private item
// shows here and nowhere else. Open Graph tags and oEmbed discovery for previews.
import { escapeHtml } from "../../core/html.ts";
import type { Addresses } from "../../http/addresses.ts";
import { inlineSource, pageSecurityHeaders } from "../../http/page-headers.ts";
import { noteExcerpt, renderNoteHtml } from "../library/public.ts";
import type { Shown } from "./targets.ts";

// The dashboard's stylesheet gives the look (its colours, a note's callouts, tasks and
// footnotes); this is the page's own layout.
const STYLE = `main{max-width:52rem;margin:0 auto;padding:1rem}
h1{overflow-wrap:anywhere;margin:.25rem 0 1rem}
figure{margin:0;display:grid;gap:.5rem;justify-items:center}
img,video{max-width:100%;height:auto}
.item{display:block;max-height:80vh;object-fit:contain;border-radius:6px}
#embed{width:100%;aspect-ratio:16/9;background:#000;display:grid;place-items:center;color:#eee}
#embed video{width:100%;height:100%}
audio{width:100%;max-width:32rem}
.cover{max-width:min(100%,20rem);border-radius:6px}
.doc-body{overflow-wrap:anywhere}
.doc-body pre{overflow:auto}
.listing{list-style:none;padding:0;display:grid;gap:.25rem}
.gallery{display:grid;grid-template-columns:repeat(auto-fill,minmax(9rem,1fr));gap:.5rem;padding:0;list-style:none}
.gallery img{width:100%;aspect-ratio:1;object-fit:cover;border-radius:4px;background:var(--line)}
.kind{color:var(--muted);font-size:.85rem}
form{display:grid;gap:.5rem;max-width:20rem}
input,button{font:inherit;padding:.4rem .6rem}
.error{color:var(--danger)}
footer{margin-top:2rem;font-size:.8rem;color:var(--muted)}`;

/** Where the page's own URLs are, for this request. */
export interface PageAt {
  addresses: Addresses;
  /** CENTER_URL/s/<token>, absolute. */
  self: string;
  /** The path of center's player script. */
  playerScript: string;
  /** The path of the dashboard's stylesheet. */
  stylesheet: string;
}

const mediaUrl = (at: PageAt, file: string) => `${at.self}/m/${file}`;

function headers(at: PageAt, withScript: boolean): Record<string, string> {
  const media = new URL(at.addresses.MEDIA_URL).origin;
  return {
    ...pageSecurityHeaders(
      [
        withScript ? "script-src 'self'" : "script-src 'none'",
        `style-src 'self' ${inlineSource(STYLE)}`,
        // The link's own media, and public pictures a note names on the media edge.
        `img-src 'self' data: ${media}`,
        // hls.js fetches the playlists and segments, and plays them as a blob: URL.
        "media-src 'self' blob:",
        "connect-src 'self'",
        "form-action 'self'",
      ],
      // Like the embeddable player: a site may frame the page (oEmbed's <iframe>). It holds no session.
      { framable: true },
    ),
    "content-type": "text/html; charset=utf-8",
    "cache-control": "no-store",
  };
}

interface Head {
  title: string;
  type: string;
  description?: string;
  image?: string;
  oembed: boolean;
  bodyData?: Record<string, string>;
  script?: boolean;
}

function document(at: PageAt, head: Head, main: string): string {
  const og = [
    ["og:title", head.title],
    ["og:type", head.type],
    ["og:url", at.self],
    ["og:site_name", "shelf"],
    ...(head.description ? [["og:description", head.description]] : []),
    ...(head.image ? [["og:image", head.image]] : []),
  ]
    .map(([p, c]) => `<meta property="${p}" content="${escapeHtml(c!)}">`)
    .join("\n");
  const oembed = head.oembed
    ? `\n<link rel="alternate" type="application/json+oembed" href="${escapeHtml(`${at.addresses.PUBLIC_URL}/oembed?format=json&url=${encodeURIComponent(at.self)}`)}" title="${escapeHtml(head.title)}">`
    : "";
  const data = Object.entries(head.bodyData ?? {})
    .map(([k, v]) => ` data-${k}="${escapeHtml(v)}"`)
    .join("");
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<meta name="robots" content="noindex">
<meta name="color-scheme" content="light dark">
<link rel="icon" href="data:,">
<title>${escapeHtml(head.title)}</title>
<link rel="stylesheet" href="${escapeHtml(at.stylesheet)}">
${og}${oembed}
<style>${STYLE}</style>${head.script ? `\n<script type="module" src="${escapeHtml(at.playerScript)}"></script>` : ""}
</head>
<body${data}>
<main>
${main}
<footer>Shared with shelf</footer>
</main>
</body>
</html>
`;
}

/** The page showing what the link opens. `preview`: Open Graph may name its picture (no password on the link). */
export async function contentPage(at: PageAt, shown: Shown, preview: boolean): Promise<Response> {
  const h1 = `<h1>${escapeHtml(shown.title)}</h1>`;
  let head: Head;
  let main: string;
  switch (shown.kind) {
    case "image": {
      const src = mediaUrl(at, shown.file);
      head = { title: shown.title, type: "website", oembed: preview, ...(preview && !shown.svg ? { image: src } : {}) };
      main = `${h1}<figure><img class="item" src="${escapeHtml(src)}" width="${shown.width}" height="${shown.height}" alt="${escapeHtml(shown.title)}"></figure>`;
      break;
    }
    case "video": {
      const poster = shown.poster ? mediaUrl(at, shown.poster) : undefined;
      head = {
        title: shown.title,
        type: "video.other",
        oembed: preview,
        ...(preview && poster ? { image: poster } : {}),
        ...(shown.ready
          ? { script: true, bodyData: { kind: "video", src: mediaUrl(at, `v/${shown.id}/master.m3u8`), title: shown.title, ...(poster ? { poster } : {}) } }
          : {}),
      };
      const still = poster ? `<img src="${escapeHtml(poster)}" alt="${escapeHtml(shown.title)}">` : "";
      main = shown.ready
        ? `${h1}<div id="embed" role="region" aria-label="Video player"><noscript>${still}<p>The player needs JavaScript.</p></noscript></div>`
        : `${h1}<p role="status">This video is not ready to play yet.</p>`;
      break;
    }
    case "audio": {
      const cover = mediaUrl(at, shown.cover);
      head = { title: shown.title, type: "music.song", oembed: preview, ...(preview && shown.cover.endsWith(".jpg") ? { image: cover } : {}) };
      main = `${h1}<figure><img class="cover" src="${escapeHtml(cover)}" alt=""><audio controls preload="metadata" src="${escapeHtml(mediaUrl(at, shown.file))}" aria-label="${escapeHtml(shown.title)}"></audio></figure>`;
      break;
    }
    case "document": {
      head = { title: shown.title, type: "article", oembed: preview, ...(preview ? { description: noteExcerpt(shown.text) } : {}) };
      const body =
        shown.format === "markdown" ? await renderNoteHtml(shown.text, [new URL(at.addresses.MEDIA_URL).origin]) : `<pre>${escapeHtml(shown.text)}</pre>`;
      // The note's own headings are its title: no other above them.
      main = `<article class="doc-body" aria-label="${escapeHtml(shown.title)}">${body}</article>`;
      break;
    }
    case "kb": {
      head = { title: shown.title, type: "website", oembed: preview };
      main = `${h1}${kbListing(at, shown)}`;
      break;
    }
  }
  return new Response(document(at, head, main), { headers: headers(at, head.script ?? false) });
}

const IMAGE_FILE = /\.(png|jpe?g|gif|webp|avif)$/i;

/** A KB folder: its pictures as a gallery, its notes and subfolders as links on the link's own page. */
function kbListing(at: PageAt, shown: Extract<Shown, { kind: "kb" }>): string {
  const pictures = shown.entries.filter((e) => e.kind === "file" && IMAGE_FILE.test(e.name));
  const rest = shown.entries.filter((e) => !pictures.includes(e));
  const gallery = pictures.length
    ? `<h2>Pictures</h2><ul class="gallery">${pictures
        .map(
          (e) =>
            `<li><a href="${escapeHtml(`${at.self}/f/${e.id}`)}"><img src="${escapeHtml(`${at.self}/f/${e.id}`)}" alt="${escapeHtml(e.name)}" loading="lazy"></a></li>`,
        )
        .join("")}</ul>`
    : "";
  const links = rest.map((e) => {
    if (e.kind === "folder")
      return `<li><a href="${escapeHtml(`${at.self}?path=${encodeURIComponent(e.path)}`)}">${escapeHtml(e.name)}/</a> <span class="kind">folder</span></li>`;
    if (e.kind === "document") return `<li><a href="${escapeHtml(`${at.self}/d/${e.id}`)}">${escapeHtml(e.name)}</a></li>`;
    return `<li><a href="${escapeHtml(`${at.self}/f/${e.id}`)}">${escapeHtml(e.name)}</a> <span class="kind">file</span></li>`;
  });
  const list = links.length ? `<h2>Notes and folders</h2><ul class="listing">${links.join("")}</ul>` : "";
  return gallery + list || "<p>This folder is empty.</p>";
}

/** The password form; `error` after a wrong one. 401 then, 200 the first time. */
export function passwordPage(at: PageAt, error: string | null, status = error ? 401 : 200, extra: Record<string, string> = {}): Response {
  const main = `<h1>This link is protected</h1>
<form method="post" action="${escapeHtml(at.self)}">
<label for="password">Password</label>
<input id="password" name="password" type="password" required autocomplete="current-password" autofocus${error ? ' aria-describedby="error" aria-invalid="true"' : ""}>
${error ? `<p id="error" class="error" role="alert">${escapeHtml(error)}</p>` : ""}
<button type="submit">Open</button>
</form>`;
  return new Response(document(at, { title: "Protected link", type: "website", oembed: false }, main), {
    status,
    headers: { ...headers(at, false), ...extra },
  });
}

/** No such link (404), or one that no longer opens: revoked or expired (410). */
export function gonePage(at: PageAt, status: 404 | 410): Response {
  const text = status === 410 ? "This link has expired or was revoked by its owner." : "There is no such link.";
  const main = `<h1>${status === 410 ? "Link no longer available" : "Link not found"}</h1><p>${text}</p>`;
  return new Response(document(at, { title: "shelf", type: "website", oembed: false }, main), { status, headers: headers(at, false) });
}
