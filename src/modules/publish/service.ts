// Published sites: a KB, or a folder of it, made public read-only at CENTER_URL/p/<slug>
// (POST /v1/published-pages), listed, and unpublished (DELETE: the row goes, and every node
// reads it on each request, so the site is gone at once everywhere).
import { randomBytes } from "node:crypto";
import { and, count, eq, sql } from "drizzle-orm";
import { keysetPage } from "../../core/cursor.ts";
import type { Deps } from "../../core/deps.ts";
import { AppError, notFound, validationError } from "../../core/errors.ts";
import { iso } from "../../infra/clock.ts";
import type { DbOrTx } from "../../infra/db/index.ts";
import { rowById } from "../../infra/db/prepared.ts";
import { newId } from "../../infra/ids.ts";
import { getKb, listFolder, normalizePath, pathProblemText } from "../library/public.ts";
import { type PublishBody, type PublishedPage, SLUG_PATTERN } from "./model.ts";
import { type PublishedSiteRow, publishedSites } from "./table.ts";

/** Sites one user may have at once. */
const SITES_PER_USER = 50;

const SLUG = new RegExp(SLUG_PATTERN);

/** A site's address: on its own host below PUBLISH_HOST when the operator set one (with CENTER_URL's scheme), else CENTER_URL/p/<slug>. */
export const siteUrl = (centerUrl: string, slug: string, publishHost?: string) =>
  publishHost ? `${new URL(centerUrl).protocol}//${slug}.${publishHost}` : `${centerUrl.replace(/\/+$/, "")}/p/${slug}`;

export function toPublishedPage(centerUrl: string, r: PublishedSiteRow, publishHost?: string): PublishedPage {
  return { id: r.id, kbId: r.kbId, path: r.path, slug: r.slug, url: siteUrl(centerUrl, r.slug, publishHost), createdAt: iso(r.createdAt) };
}

function folderOf(path: string | undefined): string {
  const trimmed = (path ?? "").replace(/\/+$/, "");
  if (trimmed === "") return "";
  const p = normalizePath(trimmed);
  if (!p.ok) throw validationError("body.path", pathProblemText(p.problem));
  return p.path;
}

/** A slug from the KB's: its letters and digits, lower case, within a DNS label. */
function slugFrom(kbSlug: string): string {
  const s = kbSlug
    .toLowerCase()
    .replace(/[^a-z0-9-]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 50)
    .replace(/-+$/, "");
  return SLUG.test(s) ? s : "site";
}

const randomEnding = () => Array.from(randomBytes(6), (b) => "abcdefghijklmnopqrstuvwxyz0123456789"[b % 36]).join("");

const taken = (e: unknown) =>
  (e as { code?: string; cause?: { code?: string } }).code === "23505" || (e as { cause?: { code?: string } }).cause?.code === "23505";

/** 404 unless the caller owns the KB (and the folder holds something); 409 CONFLICT for a slug taken. */
export async function publish(deps: Deps, ownerId: string, body: PublishBody): Promise<PublishedSiteRow> {
  const path = folderOf(body.path);
  const kb = await getKb(deps.db, { userId: ownerId, id: body.kbId });
  if (path) await listFolder(deps, ownerId, body.kbId, { prefix: path, limit: 1 });
  const [held] = await deps.db.select({ n: count() }).from(publishedSites).where(eq(publishedSites.ownerId, ownerId));
  if ((held?.n ?? 0) >= SITES_PER_USER) throw validationError("body.kbId", `at most ${SITES_PER_USER} published sites per user; unpublish one first`);
  const tries = body.slug
    ? [body.slug]
    : [slugFrom(kb.slug), `${slugFrom(kb.slug).slice(0, 50)}-${randomEnding()}`, `${slugFrom(kb.slug).slice(0, 50)}-${randomEnding()}`];
  for (const slug of tries) {
    try {
      const [row] = await deps.db.insert(publishedSites).values({ id: newId(), ownerId, kbId: body.kbId, path, slug, createdAt: deps.clock.now() }).returning();
      return row!;
    } catch (e) {
      if (!taken(e)) throw e;
    }
  }
  throw new AppError("CONFLICT", "that slug is taken; choose another", { entity: "published_page", field: "slug" });
}

export async function getPublished(db: DbOrTx, ownerId: string, id: string): Promise<PublishedSiteRow> {
  const [row] = await db
    .select()
    .from(publishedSites)
    .where(and(eq(publishedSites.id, id), eq(publishedSites.ownerId, ownerId)));
  if (!row) throw notFound("published_page");
  return row;
}

export function listPublished(deps: Deps, ownerId: string, centerUrl: string, q: { cursor?: string; limit: number }) {
  return keysetPage(
    deps.db,
    {
      from: publishedSites,
      shape: "owned",
      where: () => eq(publishedSites.ownerId, sql.placeholder("ownerId")),
      params: { ownerId },
      sort: ["createdAt", "id"],
      cursor: q.cursor,
      limit: q.limit,
    },
    (r) => toPublishedPage(centerUrl, r as PublishedSiteRow, deps.config.PUBLISH_HOST),
  );
}

/** Gone at once: the next request for the site, on any node, finds no row. */
export async function unpublish(deps: Deps, ownerId: string, id: string): Promise<void> {
  const [row] = await deps.db
    .delete(publishedSites)
    .where(and(eq(publishedSites.id, id), eq(publishedSites.ownerId, ownerId)))
    .returning({ id: publishedSites.id });
  if (!row) throw notFound("published_page");
}

const bySlug = rowById("published_site_by_slug", publishedSites, publishedSites.slug, {
  id: publishedSites.id,
  ownerId: publishedSites.ownerId,
  kbId: publishedSites.kbId,
  path: publishedSites.path,
  slug: publishedSites.slug,
});
export type OpenedSite = NonNullable<Awaited<ReturnType<typeof bySlug>>>;

/** The site a slug names, read from the database on every call (no cache: unpublishing is immediate). */
export async function siteBySlug(db: DbOrTx, slug: string): Promise<OpenedSite | null> {
  if (!SLUG.test(slug)) return null;
  return (await bySlug(db, slug)) ?? null;
}
