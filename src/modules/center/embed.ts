// The embeddable player's page, CENTER_URL/embed/v/<id> (a video) and /embed/a/<id> (audio):
// a shell like the dashboard's, with the player's own small script (dashboard/embed.ts),
// that other sites may frame (`frame-ancestors *`, where every other page of the service
// refuses framing). It holds no session and reads only what is public, so a framing site
// can make it do nothing a visitor could not do by opening the item's URL. The shell is the
// same for any id: the script asks the API for the item, and a private or missing one says
// it is not available. oEmbed discovery points at GET /oembed (oembed.ts).
import type { Addresses } from "../../http/addresses.ts";
import { inlineSource, pageSecurityHeaders } from "../../http/page-headers.ts";
import { ID_PATTERN } from "../../infra/ids.ts";
import { escapeHtml } from "../../core/html.ts";

const KINDS = { v: "video", a: "audio" } as const;
const ID = new RegExp(ID_PATTERN);

/** The item a player path names (`v` or `a`, and an id); null for a path that cannot be one. */
export function embeddedItem(kind: string, id: string): "video" | "audio" | null {
  return (Object.hasOwn(KINDS, kind) && ID.test(id) && KINDS[kind as keyof typeof KINDS]) || null;
}

/** The player fills the frame, whatever size the framing site gives it. */
const STYLE = `html,body{margin:0;height:100%;background:#000;color:#eee;font:15px/1.4 system-ui,sans-serif}
#embed{height:100%;display:grid;place-items:center}
video{width:100%;height:100%;display:block;background:#000}
figure{margin:0;padding:1rem;display:grid;gap:.5rem;justify-items:center;width:min(100%,32rem);box-sizing:border-box}
figure img{max-width:100%;max-height:60vh;border-radius:6px}
audio{width:100%}
.unavailable{padding:1rem;text-align:center}`;

/** The path of an item's player below CENTER_URL. */
const embedPath = (kind: "video" | "audio", id: string) => `/embed/${kind === "video" ? "v" : "a"}/${id}`;

export function embedPage(addresses: Addresses, scriptPath: string, kind: "video" | "audio", id: string): Response {
  const { PUBLIC_URL, MEDIA_URL, CENTER_URL } = addresses;
  const api = new URL(PUBLIC_URL).origin;
  const media = new URL(MEDIA_URL).origin;
  const self = `${CENTER_URL.replace(/\/+$/, "")}${embedPath(kind, id)}`;
  const oembed = `${PUBLIC_URL}/oembed?format=json&url=${encodeURIComponent(self)}`;
  const page = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>shelf</title>
<link rel="alternate" type="application/json+oembed" href="${escapeHtml(oembed)}">
<style>${STYLE}</style>
<script type="module" src="${scriptPath}"></script>
</head>
<body data-api="${escapeHtml(PUBLIC_URL)}" data-kind="${kind}" data-id="${escapeHtml(id)}">
<div id="embed"><noscript><p class="unavailable">The player needs JavaScript.</p></noscript></div>
</body>
</html>
`;
  return new Response(page, {
    headers: {
      ...pageSecurityHeaders(
        [
          "script-src 'self'",
          `style-src ${inlineSource(STYLE)}`,
          `img-src ${media}`,
          `connect-src ${api} ${media}`,
          // hls.js feeds the <video> a MediaSource, which it plays as a blob: URL.
          `media-src blob: ${media}`,
        ],
        { framable: true },
      ),
      "content-type": "text/html; charset=utf-8",
      "cache-control": "no-cache",
    },
  });
}
