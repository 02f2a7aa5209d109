import { t } from "elysia";
import { Int } from "../../http/envelope.ts";

export const OEmbedQuery = t.Object({
  url: t.String({ minLength: 1, maxLength: 2048, description: "a share link, or the player page, playlist or file URL of a public video or audio file" }),
  format: t.Optional(t.String({ maxLength: 16, description: "json (the only one answered; any other is 501)" })),
  maxwidth: t.Optional(t.Integer({ minimum: 1, maximum: 10_000 })),
  maxheight: t.Optional(t.Integer({ minimum: 1, maximum: 10_000 })),
});
export type OEmbedQuery = typeof OEmbedQuery.static;

/** oEmbed 1.0's response: not the envelope, as consumers read it. */
export const OEmbed = t.Object(
  {
    version: t.Literal("1.0"),
    type: t.Union([t.Literal("video"), t.Literal("rich")]),
    provider_name: t.String(),
    provider_url: t.String(),
    title: t.String(),
    html: t.String({ description: "an <iframe> of the player page" }),
    width: Int(),
    height: Int(),
    thumbnail_url: t.Optional(t.String()),
  },
  { title: "OEmbed" },
);
export type OEmbed = typeof OEmbed.static;
