// Cross-site request forgery of what a session cookie authorizes. A browser attaches
// cookies to a request another site makes it send (a form it auto-submits, with a
// text/plain body no preflight stops), so a route that acts on a session cookie must know
// who made the request. Browsers say so: Sec-Fetch-Site on every request to an https or
// localhost origin, and Origin on every cross-site POST. A request with neither header
// comes from no browser (curl, the sync client, a server), which no other site can drive.
// Every route that acts on a session cookie asks this one rule: the API's own (sign-in,
// sign-up, refresh, sign-out) through the `ownSite` option, the server-rendered pages'
// forms (which carry a CSRF token as well) through fromOwnSite.
import { Elysia } from "elysia";
import { sharedModels } from "./envelope.ts";
import { AppError } from "../core/errors.ts";
import { type Addresses, addressesOf } from "./addresses.ts";
import type { Config } from "../config.ts";

/** Where a request that may act on a session cookie is let in from. */
export interface SiteRule {
  /** The origins the service's own pages are served from. */
  origins: ReadonlySet<string>;
  /**
   * Whether those pages call from another origin than the one they call (the dashboard at
   * a CENTER_URL of its own calls PUBLIC_URL), which browsers mark same-site or cross-site.
   */
  crossOrigin: boolean;
  /**
   * Whether an opaque Origin ("null") without Sec-Fetch-Site is left to another defence.
   * Pages under Referrer-Policy no-referrer send it on their own forms, but so does any
   * site's page under that policy: only a form that also checks a CSRF token may allow it.
   */
  opaqueOrigin: boolean;
}

/** The origins of these addresses. */
const originsOf = (...urls: string[]): Set<string> => new Set(urls.map((u) => new URL(u).origin));

/** Methods that change nothing: a visit the user started (Sec-Fetch-Site none) may make them. */
const SAFE_METHODS = new Set(["GET", "HEAD"]);

/** Whether the request may have come from the service's own pages (or from no browser at all). */
export function fromOwnSite(request: Request, rule: SiteRule): boolean {
  const site = request.headers.get("sec-fetch-site");
  const origin = request.headers.get("origin");
  if (site !== null) {
    if (site === "same-origin") return true;
    // Typed or bookmarked: no page sent it, but no one types a POST either.
    if (site === "none") return SAFE_METHODS.has(request.method);
    return rule.crossOrigin && origin !== null && rule.origins.has(origin);
  }
  // A browser that does not send Sec-Fetch-Site (plain http, older ones) still sends Origin
  // on every cross-site POST.
  if (origin === null) return true;
  if (origin === "null") return rule.opaqueOrigin;
  return rule.origins.has(origin);
}

type SiteConfig = Parameters<typeof addressesOf>[0] & Pick<Config, "addressesFromRequest">;

/**
 * The rule of pages served at `pages` (which of the service's addresses), for one request:
 * the same for every request when PUBLIC_URL is set, else made from the address it came to
 * (a browser at http://192.168.1.5:8080 sends no Sec-Fetch-Site, only its Origin).
 */
export function siteRules(config: SiteConfig, pages: (a: Addresses) => string[], rule: Omit<SiteRule, "origins">): (request: Request) => SiteRule {
  if (config.addressesFromRequest.length === 0) {
    const fixed = { ...rule, origins: originsOf(...pages(config)) };
    return () => fixed;
  }
  return (request) => ({ ...rule, origins: originsOf(...pages(addressesOf(config, request))) });
}

/**
 * The `ownSite: true` route option: a request another site's page made is refused (403
 * FORBIDDEN, meta.reason cross_site) before the handler reads or touches a cookie. The
 * service's own pages are the dashboard and whatever is at PUBLIC_URL.
 */
export const ownSiteGuard = (config: SiteConfig) => {
  const ruleOf = siteRules(config, (a) => [a.PUBLIC_URL, a.CENTER_URL], { crossOrigin: true, opaqueOrigin: false });
  return new Elysia({ name: "own-site", seed: [config.PUBLIC_URL, config.CENTER_URL, ...config.addressesFromRequest] }).use(sharedModels).macro({
    ownSite: {
      response: { 403: "Error" } as const,
      transform({ request }) {
        if (!fromOwnSite(request, ruleOf(request))) {
          throw new AppError("FORBIDDEN", "this request came from another site; the session cookie acts only for this service's own pages", {
            reason: "cross_site",
          });
        }
      },
    },
  });
};
