// The one page the OpenID sign-in shows itself: why a sign-in was refused, with a way back.
// Plain HTML, no script, the security headers of every page the server renders.
import { escapeHtml } from "../../core/html.ts";
import { inlineSource, pageSecurityHeaders } from "../../http/page-headers.ts";

const CSS = `body{margin:0;font:16px/1.5 system-ui,sans-serif;color:#1d1d1f;background:#f4f4f6}
main{max-width:28rem;margin:0 auto;padding:1.5rem 1rem}h1{font-size:1.4rem}
.error{background:#fdecec;border:1px solid #f0a5a5;color:#8a1c1c;border-radius:8px;padding:.6rem .8rem}
a{color:#1d4ed8}`;

const headers = () => ({
  ...pageSecurityHeaders([`style-src ${inlineSource(CSS)}`, "img-src data:", "form-action 'none'"]),
  "content-type": "text/html; charset=utf-8",
  "cache-control": "no-store",
});

/** A refusal: `message` said to the person, `reason` its machine word (data-reason), `back` where to start again. */
export function refusalPage(
  status: number,
  refused: { message: string; reason: string },
  back: { href: string; label: string },
  cookies: string[] = [],
): Response {
  const { message, reason } = refused;
  const sentence = `${message.charAt(0).toUpperCase()}${message.slice(1)}.`;
  const body = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer"><link rel="icon" href="data:,"><title>Sign-in refused · shelf</title><style>${CSS}</style></head>
<body><main><h1>The sign-in did not go through</h1>
<p class="error" role="alert" id="oidc-refused" data-reason="${escapeHtml(reason)}">${escapeHtml(sentence)}</p>
<p><a href="${escapeHtml(back.href)}" id="back">${escapeHtml(back.label)}</a></p>
</main></body></html>
`;
  const res = new Response(body, { status, headers: headers() });
  for (const c of cookies) res.headers.append("set-cookie", c);
  return res;
}

/** 303 See Other to `location`, with the cookies. */
export function seeOther(location: string, cookies: string[] = []): Response {
  const res = new Response(null, { status: 303, headers: { location, "cache-control": "no-store", "referrer-policy": "no-referrer" } });
  for (const c of cookies) res.headers.append("set-cookie", c);
  return res;
}
