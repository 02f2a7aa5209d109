// GET /swagger: the API reference, Swagger UI reading /swagger/json, served whole from this
// server so it works with no internet. Swagger UI's script and stylesheet are a pinned
// package (swagger-ui-dist) embedded in the binary (`with { type: "file" }`) and answered
// under /swagger/assets/<its version>/, cacheable for a year since the path changes with the
// version. The page itself names every source in its Content-Security-Policy: this origin
// for the two files, the hash of its one inline script and one inline style, the API's
// public origin for "Try it out"; nothing from elsewhere.
import { Elysia } from "elysia";
import uiPackage from "swagger-ui-dist/package.json" with { type: "json" };
import uiScript from "swagger-ui-dist/swagger-ui-bundle.js" with { type: "file" };
import uiStyle from "swagger-ui-dist/swagger-ui.css" with { type: "file" };
import { inlineSource, pageSecurityHeaders } from "./page-headers.ts";

export const REFERENCE_PATH = "/swagger";

const YEAR_S = 365 * 24 * 3600;

/** Embedded files by their path under the API's public URL. */
const assets = (base: string) => {
  const dir = `${base}${REFERENCE_PATH}/assets/${uiPackage.version}`;
  return {
    script: { path: `${dir}/swagger-ui-bundle.js`, file: uiScript, type: "text/javascript; charset=utf-8" },
    style: { path: `${dir}/swagger-ui.css`, file: uiStyle, type: "text/css; charset=utf-8" },
  };
};

// Swagger UI's own stylesheet is light only: in a dark system theme it is inverted, its
// highlighted code inverted back.
const DARK_STYLE = `
@media (prefers-color-scheme: dark) {
  body { background: #1b1b1b; }
  .swagger-ui { filter: invert(92%) hue-rotate(180deg); }
  .swagger-ui .microlight, .swagger-ui img { filter: invert(100%) hue-rotate(180deg); }
}
`;

/** Text safe inside an inline <script>: JSON, with no "<" that could close the element. */
const scriptJson = (value: unknown) => JSON.stringify(value).replaceAll("<", "\\u003c");

/**
 * The reference page and its two files. `publicUrl`: the API's public address (PUBLIC_URL),
 * whose path prefixes every URL the page names, so it also works behind a proxy that
 * serves the API under a path.
 */
export function apiReference(publicUrl: string, specPath: string) {
  const url = new URL(publicUrl);
  const base = url.pathname.replace(/\/+$/, "");
  const files = assets(base);
  const init = `
window.ui = SwaggerUIBundle(${scriptJson({
    url: `${base}${specPath}`,
    dom_id: "#swagger-ui",
    deepLinking: true,
    displayRequestDuration: true,
    // The default sends the document to a public validator and shows its badge.
    validatorUrl: null,
  })});
`;
  const page = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<link rel="icon" href="data:,">
<title>API reference · shelf</title>
<link rel="stylesheet" href="${files.style.path}">
<style>${DARK_STYLE}</style>
</head>
<body>
<div id="swagger-ui"></div>
<script src="${files.script.path}"></script>
<script>${init}</script>
</body>
</html>
`;
  const pageHeaders = {
    ...pageSecurityHeaders([
      `script-src 'self' ${inlineSource(init)}`,
      `style-src 'self' ${inlineSource(DARK_STYLE)}`,
      // Swagger UI's icons are data: URIs in its stylesheet.
      "img-src 'self' data:",
      // The document, and the requests "Try it out" sends to the API's public address.
      `connect-src 'self' ${url.origin}`,
      "form-action 'self'",
    ]),
    "content-type": "text/html; charset=utf-8",
    "cache-control": "no-cache",
  };
  const asset = (a: { file: string; type: string }) => () =>
    new Response(Bun.file(a.file), {
      headers: {
        "content-type": a.type,
        "cache-control": `public, max-age=${YEAR_S}, immutable`,
        "x-content-type-options": "nosniff",
      },
    });
  const hidden = { detail: { hide: true } };
  // The routes are the paths without the public URL's prefix (a proxy strips it).
  const route = (path: string) => path.slice(base.length);
  return new Elysia({ name: "api-reference" })
    .get(REFERENCE_PATH, () => new Response(page, { headers: pageHeaders }), hidden)
    .get(route(files.script.path), asset(files.script), hidden)
    .get(route(files.style.path), asset(files.style), hidden);
}
