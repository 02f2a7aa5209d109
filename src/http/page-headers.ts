// The security headers of every HTML page the server renders (the device and consent
// pages, the API reference): a Content-Security-Policy that starts from nothing allowed
// and names each thing the page loads, no framing (clickjacking), no Referer (a page's
// URL may hold a user code), no sniffing, and a browsing context of its own.
import { createHash } from "node:crypto";

/** A CSP source for an inline <script> or <style> with exactly this content. */
export const inlineSource = (content: string) => `'sha256-${createHash("sha256").update(content).digest("base64")}'`;

/**
 * `directives`: what the page may load and send (style-src, img-src, form-action, ...),
 * on top of `default-src 'none'`; <base> is always refused, and framing unless the page is
 * made to be framed (`framable`: the embeddable player, which holds nothing to click on
 * but its controls).
 */
export function pageSecurityHeaders(directives: readonly string[], opts: { framable?: boolean } = {}): Record<string, string> {
  const csp = ["default-src 'none'", ...directives, opts.framable ? "frame-ancestors *" : "frame-ancestors 'none'", "base-uri 'none'"].join("; ");
  return {
    "content-security-policy": csp,
    ...(opts.framable ? {} : { "x-frame-options": "DENY" }),
    "referrer-policy": "no-referrer",
    "x-content-type-options": "nosniff",
    "cross-origin-opener-policy": "same-origin",
  };
}
