import { t } from "elysia";
import { PlainText } from "../../core/text.ts";
import { Int, Page } from "../../http/envelope.ts";
import { ID_PATTERN } from "../../infra/ids.ts";
import type { ShareKind } from "./table.ts";

const Kind = t.Union([t.Literal("image"), t.Literal("video"), t.Literal("audio"), t.Literal("document"), t.Literal("kb")]);
// The union above is the table's list of kinds, no more, no fewer.
const _sameKinds: ShareKind extends typeof Kind.static ? (typeof Kind.static extends ShareKind ? true : never) : never = true;

/** An image id (11 characters) or any other (21): which one the kind needs is checked with the target. */
const TargetId = t.String({ pattern: "^[A-Za-z0-9_-]{11}(?:[A-Za-z0-9_-]{10})?$" });

/** The password a link asks for: any text a person can type, up to a sane length. */
const SHARE_PASSWORD_MAX = 256;
const Password = t.String({ minLength: 1, maxLength: SHARE_PASSWORD_MAX });
const Expiry = t.String({ format: "date-time", description: "when the link stops opening (ISO 8601, in the future)" });

/**
 * What a link opens: a kind and its id, and for a KB a folder path in it. An object rather
 * than a bare id, so that another kind (a collection) is one more `kind` value.
 */
export const ShareTarget = t.Object(
  {
    kind: Kind,
    id: TargetId,
    path: t.Optional(PlainText({ maxLength: 1024, description: "kb only: a folder of the KB, relative to its root (omitted or empty: the whole KB)" })),
  },
  { additionalProperties: false },
);
export type ShareTarget = typeof ShareTarget.static;

export const CreateShareBody = t.Object(
  {
    target: ShareTarget,
    expiresAt: t.Optional(t.Nullable(Expiry)),
    password: t.Optional(t.Nullable(Password)),
  },
  { additionalProperties: false },
);
export type CreateShareBody = typeof CreateShareBody.static;

export const UpdateShareBody = t.Object(
  {
    expiresAt: t.Optional(t.Nullable(Expiry)),
    password: t.Optional(t.Nullable(Password)),
  },
  { additionalProperties: false, minProperties: 1 },
);
export type UpdateShareBody = typeof UpdateShareBody.static;

export const Share = t.Object(
  {
    id: t.String({ pattern: ID_PATTERN }),
    target: t.Object({ kind: Kind, id: t.String(), path: t.Optional(t.String()) }),
    url: t.String({ description: "the anonymous page: CENTER_URL/s/<token>" }),
    hasPassword: t.Boolean(),
    expiresAt: t.Nullable(t.String({ format: "date-time" })),
    revokedAt: t.Nullable(t.String({ format: "date-time" })),
    active: t.Boolean({ description: "opens now: neither revoked nor expired" }),
    viewCount: Int({ description: "page views that showed the content (media requests and password forms are not counted)" }),
    createdAt: t.String({ format: "date-time" }),
    updatedAt: t.String({ format: "date-time" }),
  },
  { title: "Share" },
);
export type Share = typeof Share.static;

export const SharePage = Page(Share);

export const ShareParams = t.Object({ id: t.String({ pattern: ID_PATTERN }) });

export const ListSharesQuery = t.Object({
  cursor: t.Optional(t.String()),
  limit: t.Optional(t.Integer({ minimum: 1, maximum: 50, default: 20 })),
});
