// /v1/published-pages: publish a KB or a folder of it as a read-only site, list the sites,
// read one, unpublish one; and the sites themselves, below CENTER_URL (/p/<slug>/...), the
// center's kind of page (hidden from the API document's generator, documented by hand).
import { Elysia } from "elysia";
import { AppError } from "../../core/errors.ts";
import { type Addresses, addressesOf } from "../../http/addresses.ts";
import { NoContent, Ok, ok, sharedModels } from "../../http/envelope.ts";
import { OWN_PATHS } from "../../http/openapi.ts";
import type { RouteServices } from "../../wiring/services.ts";
import { centerStylePath } from "../center/public.ts";
import { kbEntryInFolder, kbFolderEntries, normalizePath, searchDocuments } from "../library/public.ts";
import { ListPublishedQuery, PublishBody, PublishedPage, PublishedPagePage, PublishedPageParams } from "./model.ts";
import { publishedPagesDocumentation } from "./openapi.ts";
import { indexPage, missingPage, notePage, type SearchHit, Site, type SiteAt, searchPage } from "./page.ts";
import { getPublished, listPublished, publish, siteBySlug, siteUrl, toPublishedPage, unpublish } from "./service.ts";

/** Search results a site shows: the folder's best hits, one page of them. */
const SEARCH_LIMIT = 50;

/** The decoded path of the request's URL after `prefix` (/p/<slug>, or nothing on a site's own host), "" for the root; null when it does not decode. */
function innerPath(url: string, prefix: string): string | null {
  const pathname = new URL(url).pathname;
  const rest = pathname.slice(prefix ? pathname.indexOf(prefix) + prefix.length : 0).replace(/^\/+|\/+$/g, "");
  try {
    return rest
      .split("/")
      .map((s) => decodeURIComponent(s))
      .join("/");
  } catch {
    return null;
  }
}

export const publishModule = ({ deps, guard }: RouteServices) => {
  const { config } = deps;
  const fixed = config.addressesFromRequest.length === 0;
  const base = new URL(config.CENTER_URL).pathname.replace(/\/+$/, "");
  const addresses = (request: Request): Addresses => (fixed ? config : addressesOf(config, request));
  const center = (request: Request) => addresses(request).CENTER_URL;
  const siteAt = (request: Request, slug: string): SiteAt => {
    const a = addresses(request);
    return { root: siteUrl(a.CENTER_URL, slug), stylesheet: centerStylePath(a.CENTER_URL), mediaOrigin: new URL(a.MEDIA_URL).origin };
  };
  const hidden = { detail: { hide: true, [OWN_PATHS]: publishedPagesDocumentation(base) } };
  const publishHost = config.PUBLISH_HOST?.toLowerCase();
  /** A site on its own host: its pages at the host's root, the center's stylesheet from its origin. */
  const hostAt = (host: string): SiteAt => {
    const centerUrl = config.CENTER_URL;
    const stylesheet = new URL(centerStylePath(centerUrl), centerUrl).href;
    return {
      root: `${new URL(centerUrl).protocol}//${host}`,
      stylesheet,
      styleOrigin: new URL(centerUrl).origin,
      mediaOrigin: new URL(config.MEDIA_URL).origin,
    };
  };
  /** The slug a request's Host names below PUBLISH_HOST (one label), else null. */
  const slugOfHost = (request: Request): { slug: string; host: string } | null => {
    // The server builds the request's URL from its Host header.
    const host = new URL(request.url).host.toLowerCase();
    if (!publishHost || !host.endsWith(`.${publishHost}`)) return null;
    const slug = host.slice(0, -publishHost.length - 1);
    return slug.includes(".") ? null : { slug, host };
  };

  /** A site's page: read from the database and the KB now, so a sync or an unpublish shows at once. */
  const sitePage = async (request: Request, slug: string, at: SiteAt = siteAt(request, slug), prefix = `/p/${slug}`): Promise<Response> => {
    const row = await siteBySlug(deps.db, slug);
    const read = row && (await kbFolderEntries(deps, row.ownerId, row.kbId, row.path));
    if (!row || !read) return missingPage(at);
    const site = new Site(at, row.path ? `${read.kbName} / ${row.path}` : read.kbName, row.path, read.entries);
    const inner = innerPath(request.url, prefix);
    if (inner === null) return missingPage(at);
    const q = new URL(request.url).searchParams.get("q")?.trim();
    if (inner === "" && q) {
      const folder = row.path ? normalizePath(row.path) : null;
      const folderKey = folder?.ok ? folder.key : undefined;
      const found = await searchDocuments(deps.db, row.ownerId, { q, kbId: row.kbId, folderKey, limit: SEARCH_LIMIT }).catch((e: unknown) => {
        if (e instanceof AppError && e.code === "VALIDATION_ERROR") return null;
        throw e;
      });
      if (!found) return searchPage(site, q, "Type a word to look for.");
      const hits = found.items.flatMap((h): SearchHit[] => {
        const entry = site.entryAt(site.inner(h.relativePath ?? "").replace(/\.(md|markdown|typ)$/i, ""));
        const inFolder = h.relativePath && (!row.path || h.relativePath.startsWith(`${row.path}/`));
        return inFolder && entry?.path === h.relativePath ? [{ entry, snippet: h.snippet, marks: h.marks }] : [];
      });
      return searchPage(site, q, hits);
    }
    const entry = inner === "" ? site.home() : site.entryAt(inner);
    if (!entry) return inner === "" ? indexPage(site) : missingPage(at);
    const opened = await kbEntryInFolder(deps, row.ownerId, row.kbId, row.path, entry.id);
    if (!opened) return missingPage(at);
    if (opened.kind === "file") {
      const res = await opened.serve(request);
      // Unpublishing must stop it at once: no shared cache keeps it.
      if (res.status < 400) res.headers.set("cache-control", "private, no-cache");
      return res;
    }
    return notePage(site, entry, opened.text);
  };

  return (
    new Elysia({ name: "publish", detail: { tags: ["publish"] } })
      // A site on its own host answers every path there, before any route of the API.
      .onRequest(({ request }) => {
        const on = slugOfHost(request);
        if (!on) return;
        if (request.method !== "GET" && request.method !== "HEAD") return missingPage(hostAt(on.host));
        return sitePage(request, on.slug, hostAt(on.host), "");
      })
      .use(sharedModels)
      .use(guard)
      .post(
        "/v1/published-pages",
        async ({ principal, body, request, status }) =>
          status(201, ok(toPublishedPage(center(request), await publish(deps, principal.userId, body), publishHost))),
        {
          auth: { scope: "kb.write", tier: "mutation" },
          body: PublishBody,
          response: { 201: Ok(PublishedPage), 404: "Error", 409: "Error", 422: "Error" },
          detail: {
            summary: "Publish a KB, or a folder of it, as a read-only site",
            description:
              "The caller must own the KB (and the folder must hold something), else 404. The answer's `url` is the site (CENTER_URL/p/<slug>): anyone may read it, its notes at their paths without the extension, read from the KB on each request. `slug` (a DNS label) taken: 409 CONFLICT.",
          },
        },
      )
      .get(
        "/v1/published-pages",
        async ({ principal, query, request }) =>
          ok(await listPublished(deps, principal.userId, center(request), { cursor: query.cursor, limit: query.limit ?? 20 })),
        {
          auth: { scope: "kb.read", tier: "read" },
          query: ListPublishedQuery,
          response: { 200: Ok(PublishedPagePage), 400: "Error" },
          detail: { summary: "List your published sites, newest first" },
        },
      )
      .get(
        "/v1/published-pages/:id",
        async ({ principal, params, request }) => ok(toPublishedPage(center(request), await getPublished(deps.db, principal.userId, params.id), publishHost)),
        {
          auth: { scope: "kb.read", tier: "read" },
          params: PublishedPageParams,
          response: { 200: Ok(PublishedPage), 404: "Error" },
          detail: { summary: "One published site" },
        },
      )
      .delete(
        "/v1/published-pages/:id",
        async ({ principal, params, set }) => {
          await unpublish(deps, principal.userId, params.id);
          set.status = 204;
        },
        {
          auth: { scope: "kb.write", tier: "mutation" },
          params: PublishedPageParams,
          response: { 204: NoContent, 404: "Error" },
          detail: { summary: "Unpublish a site: its pages and files are 404 at once, on every node" },
        },
      )
      .get(`${base}/p/:slug`, ({ params, request }) => sitePage(request, params.slug), hidden)
      .get(`${base}/p/:slug/*`, ({ params, request }) => sitePage(request, params.slug), hidden)
  );
};
