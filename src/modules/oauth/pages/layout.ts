// The one layout of the server-rendered pages (the device page, the consent page): plain
// HTML and a little inline CSS, no script, readable on a phone. Every answer carries the
// same security headers: it may not be framed (clickjacking an Approve button), cached,
// or leak its URL (which may hold a user code) in a Referer.
import { outageError, requestIdOf } from "../../../http/core.ts";
import { AppError } from "../../../core/errors.ts";
import { inlineSource, pageSecurityHeaders } from "../../../http/page-headers.ts";
import type { Log } from "../../../infra/log.ts";
import { Html, html } from "./html.ts";
import { PASSKEY_SCRIPT, PASSKEY_SCRIPT_SOURCE } from "./passkey-script.ts";

const CSS = `
*{box-sizing:border-box}
body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1d1d1f;background:#f4f4f6}
main{max-width:28rem;margin:0 auto;padding:1.5rem 1rem}
h1{font-size:1.4rem;margin:0 0 1rem}
.card{background:#fff;border-radius:12px;padding:1.25rem;box-shadow:0 1px 3px rgba(0,0,0,.12)}
label{display:block;font-weight:600;margin:.75rem 0 .25rem}
input{display:block;width:100%;max-width:100%;padding:.6rem .7rem;font-size:1.05rem;border:1px solid #b8b8c0;border-radius:8px}
input.code{font-family:ui-monospace,Menlo,Consolas,monospace;letter-spacing:.12em;text-transform:uppercase}
button{font-size:1rem;padding:.65rem 1.2rem;border-radius:8px;border:1px solid #1d4ed8;background:#1d4ed8;color:#fff;cursor:pointer;margin-top:1rem}
button.secondary{background:#fff;color:#1d1d1f;border-color:#b8b8c0}
a.button{display:block;text-align:center;text-decoration:none;font-size:1rem;padding:.65rem 1.2rem;border-radius:8px;border:1px solid #b8b8c0;background:#fff;color:#1d1d1f}
.alt{margin:1rem 0 0}
.actions{display:flex;flex-wrap:wrap;gap:.75rem}
.error{background:#fdecec;border:1px solid #f0a5a5;color:#8a1c1c;border-radius:8px;padding:.6rem .8rem;margin:0 0 1rem}
.warning{background:#fff6e0;border:1px solid #f0cf7a;color:#6b4b00;border-radius:8px;padding:.6rem .8rem;margin:1rem 0}
.ok{background:#e8f7ee;border:1px solid #9ad3ae;color:#17522d;border-radius:8px;padding:.6rem .8rem}
.muted{color:#5f5f68;font-size:.9rem}
ul{padding-left:1.2rem}
.who{display:flex;flex-wrap:wrap;align-items:baseline;justify-content:space-between;gap:.5rem;margin-top:1.25rem}
.who form button{margin-top:0;padding:.3rem .7rem;font-size:.9rem}
code,.name{overflow-wrap:anywhere}
.passkey-error:empty{display:none}
form[data-passkey]{margin-top:1rem}
form[data-passkey] .muted{margin:0}
`;

/** The stylesheet is allowed by its hash: no inline style or script but this one runs. */
const CSS_SOURCE = inlineSource(CSS);

export interface PageOptions {
  title: string;
  body: Html;
  status?: number;
  /** Set-Cookie values (the page session). */
  cookies?: readonly string[];
  /**
   * Where the page's forms may send the browser besides this origin. A form whose answer
   * redirects elsewhere (the consent page back to a client's redirect_uri) names it here:
   * browsers hold the redirect of a form submission to form-action too.
   */
  formTargets?: readonly string[];
  /** The page offers a passkey: its one script (passkey.ts) runs. */
  passkey?: boolean;
}

/** The security headers of every page answer (src/http/page-headers.ts), never cached. */
function pageHeaders(formTargets: readonly string[] = [], passkey = false): Record<string, string> {
  return {
    ...pageSecurityHeaders([
      `style-src ${CSS_SOURCE}`,
      ...(passkey ? [`script-src ${PASSKEY_SCRIPT_SOURCE}`] : []),
      // The only image is the empty icon below, so no browser asks the API for /favicon.ico.
      "img-src data:",
      `form-action 'self'${formTargets.map((t) => ` ${t}`).join("")}`,
    ]),
    "cache-control": "no-store",
    pragma: "no-cache",
  };
}

function withCookies(headers: Headers, cookies: readonly string[] = []): Headers {
  for (const c of cookies) headers.append("set-cookie", c);
  return headers;
}

/** A whole page in the layout, with the security headers. */
export function renderPage(opts: PageOptions): Response {
  const doc = html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<link rel="icon" href="data:,">
<title>${opts.title} · shelf</title>
<style>${new Html(CSS)}</style>
</head>
<body>
<main>
<h1>${opts.title}</h1>
${opts.body}
</main>
${opts.passkey ? html`<script>${new Html(PASSKEY_SCRIPT)}</script>` : ""}
</body>
</html>
`;
  const headers = withCookies(new Headers({ ...pageHeaders(opts.formTargets, opts.passkey), "content-type": "text/html; charset=utf-8" }), opts.cookies);
  return new Response(doc.markup, { status: opts.status ?? 200, headers });
}

/** 303 See Other to `location` (relative to the page), after a form that changed something. */
export function seeOther(location: string, cookies: readonly string[] = []): Response {
  return new Response(null, { status: 303, headers: withCookies(new Headers({ ...pageHeaders(), location }), cookies) });
}

/**
 * Runs a page's handler: what it answers, or for a failure it did not answer itself a
 * page saying so (an AppError's own status and message; anything else 500, logged, with
 * nothing of it shown), with the same security headers as every page.
 */
export async function servePage(log: Log, request: Request, run: () => Promise<Response>): Promise<Response> {
  try {
    return await run();
  } catch (caught) {
    // The database away: 503 with Retry-After, as every answer says it (logged once at warn).
    const e = outageError(caught, request, requestIdOf(request), log) ?? caught;
    if (e instanceof AppError) {
      const page = renderPage({ title: "Something is not right", status: e.status, body: html`<p class="error" role="alert">${e.message}</p>` });
      // When to try again, and a connection closed under a body too large to read.
      for (const name of ["retry-after", "connection"]) if (e.headers[name]) page.headers.set(name, e.headers[name]);
      return page;
    }
    log.error("page failed", { err: e, method: request.method, url: new URL(request.url).pathname });
    return renderPage({
      title: "Something went wrong",
      status: 500,
      body: html`<p class="error" role="alert">Something went wrong on our side. Try again in a moment.</p>`,
    });
  }
}
