// A link's page and its media in the OpenAPI document: HTML for browsers and bytes, not an
// API, but on the same server, so listed with what they answer (and walked by the sweeps).
import type { OwnPaths } from "../../http/openapi.ts";

const page = (description: string) => ({ description, content: { "text/html": { schema: { type: "string" } } } });
const envelope = (description: string) => ({ description, content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } } });
const bytes = (description: string) => ({ description, content: { "*/*": { schema: { type: "string", format: "binary" } } } });
const token = { name: "token", in: "path", required: true, description: "the link's token (32 characters)", schema: { type: "string" } };
const segment = (name: string, description: string) => ({ name, in: "path", required: true, description, schema: { type: "string" } });

const mediaGet = (segments: ReturnType<typeof segment>[]) => ({
  get: {
    tags: ["shares"],
    summary: "A link's media: its item's file as the media edge serves it (ranges, validators, size variants of an image)",
    description:
      "The path after /m/ is the item's path below MEDIA_URL (<id>.<ext>, a/<id>.<ext>, a/<id>/cover.jpg, v/<id>/master.m3u8 and the playlists and segments it names, relative to it). Only the link's own item, and only while the link opens (read from the database on every request): a revoked or expired link's media are 404 at once. A link with a password needs its cookie.",
    security: [{}],
    parameters: [token, ...segments],
    responses: {
      200: bytes("the bytes"),
      206: bytes("a range of them"),
      304: { description: "Not Modified" },
      400: envelope("BAD_REQUEST: an image size query not offered"),
      404: envelope("NOT_FOUND: no such link, it does not open now (revoked, expired, its password not given), or the path is not its item's"),
      416: { description: "Range Not Satisfiable" },
      451: envelope("BANDWIDTH_SUSPENDED: a video while its owner's playback is suspended"),
      502: envelope("STORAGE_ERROR"),
      503: envelope("the database does not answer (Retry-After)"),
    },
  },
});

/** `base`: the path of CENTER_URL ("" at the root). */
export function sharePagesDocumentation(base: string): OwnPaths {
  const root = `${base}/s/{token}`;
  return {
    paths: {
      [root]: {
        get: {
          tags: ["shares"],
          "x-html-page": true,
          summary: "A share link's page: the item, a note, or a KB folder, with Open Graph tags and oEmbed discovery",
          description:
            "Anonymous. An image, an audio player and a note work without a script; a video plays in the player's script. A link with a password shows its form until the browser gave it (a cookie of the link's path, one hour). Each answer that shows the content counts one view. `?path=` opens a subfolder of a shared KB folder.",
          security: [{}],
          parameters: [
            token,
            { name: "path", in: "query", required: false, description: "kb links: a folder below the shared one", schema: { type: "string" } },
          ],
          responses: {
            200: page("the content, or the password form"),
            404: page("no such link, or its item is gone (the envelope for the path with a trailing slash, which is no page)"),
            410: page("the link was revoked or has expired"),
            503: page("the database does not answer (Retry-After)"),
          },
        },
        post: {
          tags: ["shares"],
          "x-html-page": true,
          summary: "A share link's password form",
          description:
            "application/x-www-form-urlencoded with `password`. The right one: 303 to the page with a cookie for the link's path (one hour, HttpOnly, SameSite=Lax). A wrong one: the form again with the error (401), never the content. Tries are limited per link and address (429 with Retry-After).",
          security: [{}],
          parameters: [token],
          requestBody: {
            required: true,
            content: {
              "application/x-www-form-urlencoded": { schema: { type: "object", properties: { password: { type: "string" } }, required: ["password"] } },
            },
          },
          responses: {
            303: { description: "See Other: the page", headers: { Location: { required: true, schema: { type: "string" } } } },
            401: page("the form again: the password is not right"),
            404: page("no such link"),
            410: page("the link was revoked or has expired"),
            400: page("far more than a password form (the connection is closed)"),
            429: page("too many tries (Retry-After)"),
            503: page("the database does not answer (Retry-After)"),
          },
        },
      },
      [`${root}/d/{id}`]: {
        get: {
          tags: ["shares"],
          "x-html-page": true,
          summary: "A note of a shared KB folder, rendered as on the link's page",
          description: "Only a document in the shared folder (any depth). Not counted as a view of the link.",
          security: [{}],
          parameters: [token, segment("id", "the document's id")],
          responses: {
            200: page("the note, or the link's password form"),
            404: page("no such link, or no such document in its folder"),
            410: page("the link was revoked or has expired"),
            503: page("the database does not answer (Retry-After)"),
          },
        },
      },
      [`${root}/f/{id}`]: {
        get: {
          tags: ["shares"],
          summary: "A file of a shared KB folder (a picture of its gallery): its bytes, as GET /v1/kbs/{id}/raw answers a file",
          description: "Only a file in the shared folder, while the link opens (with its password's cookie, if it has one).",
          security: [{}],
          parameters: [token, segment("id", "the file's id")],
          responses: {
            200: bytes("the bytes"),
            206: bytes("a range of them"),
            304: { description: "Not Modified" },
            404: envelope("NOT_FOUND: no such link, it does not open now, or no such file in its folder"),
            416: { description: "Range Not Satisfiable" },
            502: envelope("STORAGE_ERROR"),
            503: envelope("the database does not answer (Retry-After)"),
          },
        },
      },
      [`${root}/m/{file}`]: mediaGet([segment("file", "<id>.<ext> of an image")]),
      [`${root}/m/{kind}/{file}`]: mediaGet([segment("kind", "a"), segment("file", "<id>.<ext> of an audio file")]),
      [`${root}/m/{kind}/{id}/{file}`]: mediaGet([
        segment("kind", "a or v"),
        segment("id", "the item's id"),
        segment("file", "cover.jpg, master.m3u8, thumb.jpg, direct.mp4"),
      ]),
      [`${root}/m/{kind}/{id}/{dir}/{file}`]: mediaGet([
        segment("kind", "v"),
        segment("id", "the video's id"),
        segment("dir", "a rendition (720p) or subs"),
        segment("file", "a variant playlist or segment"),
      ]),
    },
  };
}
