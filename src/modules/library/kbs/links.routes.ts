// /v1/kbs/:id/backlinks?path=: the notes of a KB that link to one of its documents
// (links.ts has the rules), read-only.
import { Elysia, t } from "elysia";
import { Ok, ok, sharedModels } from "../../../http/envelope.ts";
import type { RouteServices } from "../../../wiring/services.ts";
import { backlinks } from "./links.ts";
import { KbParams } from "./model.ts";

const BacklinksQuery = t.Object({
  path: t.String({ minLength: 1, maxLength: 4096, description: "the document's relative path; NFC-normalized, and matched whatever its letter case" }),
});

const Backlink = t.Object(
  {
    relativePath: t.String({ description: "the linking note's path" }),
    title: t.String({ description: "the linking note's title" }),
  },
  { title: "KbBacklink" },
);

const Backlinks = t.Object({ items: t.Array(Backlink, { description: "by path" }) }, { title: "KbBacklinks" });

export const linksRoutes = ({ deps, guard }: RouteServices) =>
  new Elysia({ name: "kb-links", detail: { tags: ["kbs"] } })
    .use(sharedModels)
    .use(guard)
    .get("/v1/kbs/:id/backlinks", async ({ principal, params, query }) => ok(await backlinks(deps, principal.userId, params.id, query.path)), {
      auth: { scope: "kb.read", tier: "read" },
      params: KbParams,
      query: BacklinksQuery,
      response: { 200: Ok(Backlinks), 404: "Error", 422: "Error", 502: "Error" },
      detail: {
        summary: "The notes of a KB that link to one of its documents",
        description:
          "Markdown notes of the KB whose text links to the document at `path`: a wikilink or embed ([[Note]], [[folder/Note#Heading|alias]], ![[Note]], one in a front matter value too) or a relative Markdown link or image, resolved as Obsidian does (a name matches a document whose file name without extension is that name, whatever its letter case; of several, the one in the linking note's folder, then the shortest path). The document itself is left out. 404 NOT_FOUND for no such KB or no active document at the path; 502 STORAGE_ERROR when a note's text cannot be read.",
      },
    });
