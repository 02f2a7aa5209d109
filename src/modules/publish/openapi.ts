// A published site's pages in the OpenAPI document: HTML for browsers (and a file's bytes),
// not an API, but on the same server, so listed with what they answer (and walked by the sweeps).
import type { OwnPaths } from "../../http/openapi.ts";

const page = (description: string) => ({ description, content: { "text/html": { schema: { type: "string" } } } });
const slug = { name: "slug", in: "path", required: true, description: "the site's slug", schema: { type: "string" } };

/** `base`: the path of CENTER_URL ("" at the root). */
export function publishedPagesDocumentation(base: string): OwnPaths {
  return {
    paths: {
      [`${base}/p/{slug}`]: {
        get: {
          tags: ["publish"],
          "x-html-page": true,
          summary: "A published site's home: its index or README note, or its list of notes; with ?q=, a search of its notes",
          description: "Anonymous, no script. Read from the KB on each request. The navigation lists the published folder's notes.",
          security: [{}],
          parameters: [slug, { name: "q", in: "query", required: false, description: "words to look for in the site's notes", schema: { type: "string" } }],
          responses: {
            200: page("the page"),
            404: page("no such site: never published, unpublished, or its KB is in the trash or gone"),
            503: page("the database does not answer (Retry-After)"),
          },
        },
      },
      ...Object.fromEntries(FOLDERS.map((folders) => [`${base}/p/{slug}/${folders.map((f) => `{${f}}/`).join("")}{path}`, inner(folders)])),
    },
  };
}

/** The folders of a path below a site are segments of the URL: documented up to four deep (a deeper note is served alike). */
const FOLDERS = [[], ["folder"], ["folder", "sub"], ["folder", "sub", "sub2"], ["folder", "sub", "sub2", "sub3"]];

function inner(folders: string[]) {
  return {
    get: {
      tags: ["publish"],
      "x-html-page": true,
      summary: "A note of a published site (its path without the extension), or a file of it (its path)",
      description:
        "A note is rendered with the dashboard's renderer; its wikilinks, Markdown links and embeds lead to the site's own URLs, and only within the published folder (a link out of it is its words). A file answers its bytes as GET /v1/kbs/{id}/raw does.",
      security: [{}],
      parameters: [
        slug,
        ...folders.map((name) => ({ name, in: "path", required: true, description: "a folder below the published one", schema: { type: "string" } })),
        { name: "path", in: "path", required: true, description: "a note's name without its extension, or a file's name", schema: { type: "string" } },
      ],
      responses: {
        200: {
          description: "the note's page, or the file's bytes",
          content: { "text/html": { schema: { type: "string" } }, "*/*": { schema: { type: "string", format: "binary" } } },
        },
        206: { description: "a file: the range asked for", content: { "*/*": { schema: { type: "string", format: "binary" } } } },
        304: { description: "a file: Not Modified" },
        404: page("no such site, or no such note or file in its folder"),
        416: { description: "Range Not Satisfiable" },
        502: { description: "STORAGE_ERROR", content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } } },
        503: page("the database does not answer (Retry-After)"),
      },
    },
  };
}
