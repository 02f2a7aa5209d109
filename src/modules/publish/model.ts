import { t } from "elysia";
import { PlainText } from "../../core/text.ts";
import { Page } from "../../http/envelope.ts";
import { ID_PATTERN } from "../../infra/ids.ts";

/** A DNS label (so a site could one day be a host's first label too): lower case letters, digits, inner hyphens. */
export const SLUG_PATTERN = "^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$";

export const PublishBody = t.Object(
  {
    kbId: t.String({ pattern: ID_PATTERN }),
    path: t.Optional(PlainText({ maxLength: 1024, description: "a folder of the KB, relative to its root (omitted or empty: the whole KB)" })),
    slug: t.Optional(
      t.String({ pattern: SLUG_PATTERN, description: "the site's name in its URL; omitted: the KB's slug, or it with a random ending when taken" }),
    ),
  },
  { additionalProperties: false },
);
export type PublishBody = typeof PublishBody.static;

export const PublishedPage = t.Object(
  {
    id: t.String({ pattern: ID_PATTERN }),
    kbId: t.String(),
    path: t.String({ description: 'the published folder ("": the whole KB)' }),
    slug: t.String(),
    url: t.String({ description: "the site: CENTER_URL/p/<slug>" }),
    createdAt: t.String({ format: "date-time" }),
  },
  { title: "PublishedPage" },
);
export type PublishedPage = typeof PublishedPage.static;

export const PublishedPagePage = Page(PublishedPage);

export const PublishedPageParams = t.Object({ id: t.String({ pattern: ID_PATTERN }) });

export const ListPublishedQuery = t.Object({
  cursor: t.Optional(t.String()),
  limit: t.Optional(t.Integer({ minimum: 1, maximum: 50, default: 20 })),
});
