// GET /oembed: oEmbed 1.0 for public videos and audio (service.ts). No credential: what it
// tells is public, and consumers (chat apps, site builders) fetch it from their servers.
import { Elysia } from "elysia";
import { depsAt } from "../../http/addresses.ts";
import { sharedModels } from "../../http/envelope.ts";
import type { RouteServices } from "../../wiring/services.ts";
import { OEmbed, OEmbedQuery } from "./model.ts";
import { oembed } from "./service.ts";

export const oembedModule = ({ deps }: RouteServices) =>
  new Elysia({ name: "oembed", detail: { tags: ["media"] } })
    .use(sharedModels)
    .get("/oembed", async ({ query, request }) => oembed(depsAt(deps, request), query), {
      query: OEmbedQuery,
      response: { 200: OEmbed, 404: "Error", 422: "Error", 501: "Error" },
      detail: {
        summary: "oEmbed 1.0 of a public video or audio file (an <iframe> of its player page)",
        description:
          "`url` is a share link (CENTER_URL/s/<token>, when it opens without a password: any of its kinds, private items too), or the item's player page (CENTER_URL/embed/v/<id> or /embed/a/<id>), a video's playlist or file on the media edge (MEDIA_URL/v/<id>/...) or an audio file's (MEDIA_URL/a/<id>.<ext>). The answer is oEmbed's own JSON, not the envelope: `type` video (16:9 at its largest rendition's height) or rich (audio, 480x200), `html` an <iframe> of the player page scaled down to `maxwidth` and `maxheight`, `thumbnail_url`. A private, unready or missing item is 404; `format` other than json is 501 NOT_IMPLEMENTED. Player pages name this URL in a <link rel=\"alternate\" type=\"application/json+oembed\">.",
      },
    });
