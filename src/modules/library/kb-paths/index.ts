// A KB's documents by path, for a person or an agent working in it rather than a sync
// client mirroring it: a folder's listing, several documents read at once, and an exact
// find-and-replace in one (written through the sync service, as any sync upsert is).
import { Elysia } from "elysia";
import { depsAt } from "../../../http/addresses.ts";
import { Ok, ok, sharedModels } from "../../../http/envelope.ts";
import type { RouteServices } from "../../../wiring/services.ts";
import { KbParams } from "../kbs/model.ts";
import { editDocument } from "./edit.ts";
import { EditBody, EditResult, ReadBody, ReadResult, TreePage, TreeQuery } from "./model.ts";
import { readPaths } from "./read.ts";
import { listFolder } from "./tree.ts";

export const kbPathsModule = ({ deps, guard, buckets, contentDeps }: RouteServices) =>
  new Elysia({ name: "kb-paths", detail: { tags: ["kbs"] } })
    .use(sharedModels)
    .use(guard)
    .get(
      "/v1/kbs/:id/tree",
      async ({ principal, params, query }) =>
        ok(await listFolder(deps, principal.userId, params.id, { prefix: query.prefix, cursor: query.cursor, limit: query.limit ?? 200 })),
      {
        auth: { scope: "kb.read", tier: "read" },
        params: KbParams,
        query: TreeQuery,
        response: { 200: Ok(TreePage), 400: "Error", 404: "Error", 422: "Error" },
        detail: {
          summary: "One folder of a KB: its subfolders and documents, by name",
          description:
            "The direct children of the folder `prefix` (the top level when absent): each subfolder with how many active documents are under it, their bytes and latest change, and each document with its id, format, size, sourceHash and updatedAt. Sorted by name, letter case ignored; pages of `limit` (1 to 1000, default 200) with nextCursor. A KB holds paths, not folders: a folder with no document under it is 404 NOT_FOUND (meta.entity folder). A prefix that breaks the path rule is 422 at query.prefix. Available on an expired plan, as browsing is.",
        },
      },
    )
    .post("/v1/kbs/:id/read", async ({ principal, params, body }) => ok(await readPaths(deps, principal.userId, params.id, body.paths)), {
      auth: { scope: "kb.read", tier: "read" },
      params: KbParams,
      body: ReadBody,
      response: { 200: Ok(ReadResult), 404: "Error", 422: "Error" },
      detail: {
        summary: "The text of up to 50 documents of a KB by path, in the order asked",
        description:
          "Each path is read on its own: `docs[]` has the ones read (with their id, sourceHash and updatedAt, for an edit or a sync op), `failed[]` the others with a reason: NOT_FOUND (no active document there), VALIDATION_ERROR (the path breaks the path rule) or CONTENT_FETCH_FAILED (its text could not be read from the object store). 404 for a KB that is not the caller's.",
      },
    })
    .post(
      "/v1/kbs/:id/edit",
      async ({ principal, params, body, request }) => {
        await buckets.take(principal.userId, "syncOp");
        return ok(await editDocument(depsAt(contentDeps, request), principal.userId, params.id, body));
      },
      {
        auth: { scope: "kb.write", tier: "mutation" },
        params: KbParams,
        body: EditBody,
        response: { 200: Ok(EditResult), 403: "Error", 404: "Error", 409: "Error", 422: "Error", 451: "Error", 502: "Error", 503: "Error" },
        detail: {
          summary: "Replace the one occurrence of oldText in a KB document with newText",
          description:
            "An exact find-and-replace: oldText must occur exactly once in the document at `path` (letter for letter; overlapping occurrences count). Otherwise nothing changes and the answer is 409 CONFLICT with meta.reason `no_match` (meta.count 0) or `several_matches` (meta.count, and meta.lines: the lines of the first ten). With baseHash (the sourceHash you read), a document changed since is 409 CONFLICT meta.reason `stale_base`. Every 409 carries meta.currentHash. The new text is written as a sync v2 upsert based on the text the edit was made on: a revision when history is on, the KB's counters and updatedAt, the plan's limits (403 PLAN_INACTIVE, 422 DOC_FILE_TOO_LARGE, 403 QUOTA_EXCEEDED), and a write that lands meanwhile is never overwritten (the edit is made again on the new text; meta.reason `busy` after three such writes). Takes one op from the syncOp bucket. The body is JSON of at most 1 MiB (413 FILE_TOO_LARGE): a larger change is a whole-document write (a sync upsert). 404 NOT_FOUND for a KB that is not the caller's or no active document at the path; 422 for a path that breaks the path rule or a newText with NUL.",
        },
      },
    );
