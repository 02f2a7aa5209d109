// The dashboard at CENTER_URL (default the API's public root): one HTML
// shell and its embedded files (the entry script, the chunks it imports, the stylesheet), and
// the embeddable player's page (embed.ts). The shell is the same for every screen; the script
// draws the screen named by the URL's fragment (#/library, #/upload, ...), so no path under
// CENTER_URL is taken from the API. The script talks to the public API only, with the
// session's access token (docs/decisions/dashboard.md).
import { Elysia } from "elysia";
import { pageSecurityHeaders } from "../../http/page-headers.ts";
import type { Deps } from "../../core/deps.ts";
import { notFound } from "../../core/errors.ts";
import { type Addresses, addressesOf } from "../../http/addresses.ts";
import { centerAssets } from "./assets.ts";
import { embeddedItem, embedPage } from "./embed.ts";
import { escapeHtml } from "../../core/html.ts";

const YEAR_S = 365 * 24 * 3600;

/** Where the dashboard's files are answered, below its own path. */
const ASSET_DIR = "/_center";

/** The shell and its headers for these addresses. */
function shell(addresses: Addresses, fixed: boolean, stylePath: string, scriptPath: string) {
  const { CENTER_URL, PUBLIC_URL, MEDIA_URL } = addresses;
  const api = new URL(PUBLIC_URL).origin;
  const media = new URL(MEDIA_URL).origin;
  // Settings reach the script as data attributes: the CSP allows no inline script. With
  // PUBLIC_URL set, data-fixed has the script go to CENTER_URL when opened at another
  // address; the browser's own address is the one to compare, as a proxy may rewrite Host.
  const page = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<meta name="color-scheme" content="light dark">
<link rel="icon" href="data:,">
<title>shelf</title>
<link rel="stylesheet" href="${stylePath}">
<script type="module" src="${scriptPath}"></script>
</head>
<body data-api="${escapeHtml(PUBLIC_URL)}" data-center="${escapeHtml(CENTER_URL)}" data-media="${escapeHtml(MEDIA_URL)}"${fixed ? " data-fixed" : ""}>
<noscript><p class="noscript">The dashboard needs JavaScript. Everything it shows is also in the API: <a href="${escapeHtml(PUBLIC_URL)}/swagger">API reference</a>.</p></noscript>
<div id="app"></div>
</body>
</html>
`;
  const headers = {
    ...pageSecurityHeaders([
      "script-src 'self'",
      "style-src 'self'",
      // Thumbnails are fetched with the access token (a private image is the owner's only)
      // and shown as blob: URLs; data: is the empty icon (no /favicon.ico request).
      `img-src 'self' blob: data: ${media}`,
      `connect-src 'self' ${api} ${media}`,
      // Players: a public audio or video file from the edge; hls.js feeds the <video> a
      // MediaSource, which the element plays as a blob: URL.
      `media-src 'self' blob: ${media}`,
      "form-action 'self'",
    ]),
    "content-type": "text/html; charset=utf-8",
    "cache-control": "no-cache",
  };
  return () => new Response(page, { headers });
}

export function centerModule(deps: Pick<Deps, "config">) {
  const { config } = deps;
  // The dashboard is answered at the path of CENTER_URL on this server (a proxy may put it
  // on an origin of its own); "" is the root. The path is the same at every address.
  const base = new URL(config.CENTER_URL).pathname.replace(/\/+$/, "");
  const scriptPath = `${base}${ASSET_DIR}/${centerAssets.script.name}`;
  const stylePath = `${base}${ASSET_DIR}/${centerAssets.style.name}`;
  const fixed = config.addressesFromRequest.length === 0;
  const answer = fixed ? shell(config, true, stylePath, scriptPath) : null;
  const page = ({ request }: { request: Request }) => (answer ?? shell(addressesOf(config, request), false, stylePath, scriptPath))();
  const asset = (a: { body: string; type: string }) => () =>
    new Response(a.body, {
      headers: { "content-type": a.type, "cache-control": `public, max-age=${YEAR_S}, immutable`, "x-content-type-options": "nosniff" },
    });
  const hidden = { detail: { hide: true } };
  const embedScript = `${base}${ASSET_DIR}/${centerAssets.embed.name}`;
  const module = new Elysia({ name: "center" })
    .get(base || "/", page, hidden)
    .get(scriptPath, asset(centerAssets.script), hidden)
    .get(embedScript, asset(centerAssets.embed), hidden)
    .get(stylePath, asset(centerAssets.style), hidden)
    // The embeddable player; a path that cannot name an item is 404.
    .get(
      `${base}/embed/:kind/:id`,
      ({ params, request }) => {
        const kind = embeddedItem(params.kind, params.id);
        if (!kind) throw notFound("embeddable item");
        return embedPage(fixed ? config : addressesOf(config, request), embedScript, kind, params.id);
      },
      hidden,
    );
  // The chunks the entry imports (by names relative to its own URL), fetched only when a
  // screen needs them: the shell names none of them.
  for (const chunk of centerAssets.chunks) module.get(`${base}${ASSET_DIR}/${chunk.name}`, asset(chunk), hidden);
  return module;
}
